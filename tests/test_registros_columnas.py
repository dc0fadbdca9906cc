"""The column-at-a-time encoder must give exactly the rows of the record-by-record one,
and must hand back (so the builder falls back, keeps and reports it) whatever that one finds odd.
Whatever the record, decoding its row gives it back exactly."""

import pytest

from argentina_datos.almacen.registros import Codec
from argentina_datos.catalogo.esquema import BOOLEAN, INTEGER, NUMBER, TEXT, Children, Field, Obj

FIELDS = [
    Field("nombre", TEXT, nullable=False),
    Field("tipo", TEXT, optional=True),
    Field("valor", NUMBER),
    Field("cantidad", INTEGER),
    Field("activo", BOOLEAN, optional=True, nullable=False),
]
CODEC = Codec(FIELDS)


def rows_one_by_one(codec, records):
    return [codec.encode(r)[0] for r in records]


def rows_by_columns(codec, records):
    columns = codec.encode_columns(records)
    return None if columns is None else list(zip(*columns))


GOOD = [
    {"nombre": "a", "tipo": "x", "valor": 1.5, "cantidad": 3, "activo": True},
    {"nombre": "b", "tipo": None, "valor": 4, "cantidad": None, "activo": False},
    {"nombre": "c", "valor": None, "cantidad": 0, "activo": True},  # tipo absent
    {"nombre": "d", "tipo": "y", "valor": 2.25, "cantidad": 1},  # activo absent
    {"nombre": "e", "valor": 7, "cantidad": 2},  # both absent
]


def test_same_rows_as_record_by_record():
    expected = rows_one_by_one(CODEC, GOOD)
    assert rows_by_columns(CODEC, GOOD) == expected
    # An omitted key is the one thing these records' extras say: [path] (remove it).
    omitted = [None, None, '[[["tipo"]]]', '[[["activo"]]]', '[[["tipo"]],[["activo"]]]']
    assert [r[-1] for r in expected] == omitted
    assert [CODEC.decode(r) for r in expected] == GOOD


def test_same_rows_when_every_record_is_complete():
    records = GOOD[:2]
    assert rows_by_columns(CODEC, records) == rows_one_by_one(CODEC, records)


@pytest.mark.parametrize(
    "bad",
    [
        {"nombre": "z", "valor": 1, "cantidad": 1, "extra": 1},  # undeclared key
        {"nombre": "z", "tipo": "t", "valor": 1, "extra": 1},  # undeclared key standing in for a required one
        {"nombre": "z", "valor": 1},  # required key missing
        {"nombre": None, "valor": 1, "cantidad": 1},  # null in a non-nullable field
        {"nombre": "z", "valor": "1", "cantidad": 1},  # text where a number goes
        {"nombre": "z", "valor": True, "cantidad": 1},  # a boolean is not a number
        {"nombre": "z", "valor": 1, "cantidad": 1.5},  # a float is not an integer
        {"nombre": "z", "valor": 1, "cantidad": 1, "activo": None},  # present null, non-nullable
        ["z", 1, 1],  # not an object
    ],
)
def test_falls_back_on_what_the_record_encoder_finds_odd_and_keeps_it(bad):
    records = GOOD + [bad]
    assert rows_by_columns(CODEC, records) is None
    row, children, deviations = CODEC.encode(bad)
    assert deviations, "the odd record must be reported"
    assert CODEC.decode(row) == bad and type(CODEC.decode(row)) is type(bad)


def test_every_record_decodes_to_itself():
    for record in GOOD:
        assert CODEC.decode(CODEC.encode(record)[0]) == record


def test_nested_oddities_are_kept_with_their_path():
    codec = Codec(
        [
            Field("a", TEXT),
            Obj("b", [Field("c", INTEGER), Field("d", TEXT, optional=True)]),
            Children("hijos", "t_hijos", [Field("x", INTEGER)]),
        ]
    )
    cases = [
        {"a": "x", "b": {"c": 1, "nuevo": [1]}, "hijos": []},  # undeclared key inside an object
        {"a": "x", "b": None, "hijos": []},  # an object that is null
        {"a": "x", "b": {"c": "uno"}, "hijos": None},  # a wrong type inside, a list that is null
        {"a": "x", "b": {"c": 1}},  # a required list missing
    ]
    for record in cases:
        row, children, deviations = codec.encode(record)
        assert deviations
        decoded = codec.decode(row, {("hijos",): [c for _, items in children for c in items]})
        assert decoded == record
    _, _, deviations = codec.encode(cases[0])
    assert [(d.path, d.problem) for d in deviations] == [(("b", "nuevo"), "campo no declarado")]


def test_bare_values():
    codec = Codec([Field("ruta", TEXT)], scalar=True)
    assert codec.encode("/rems/2025/01") == (("/rems/2025/01", None), [], [])
    for odd in (7, None, {"ruta": "x"}):
        row, _, deviations = codec.encode(odd)
        assert deviations and codec.decode(row) == odd


def test_nested_records_are_left_to_the_record_encoder():
    codec = Codec([Field("a", TEXT), Obj("b", [Field("c", INTEGER)])])
    assert codec.encode_columns([{"a": "x", "b": {"c": 1}}]) is None


def test_a_records_own_key_order_comes_back_at_every_level():
    """Upstream's key order is part of its JSON: a record whose keys come in another order than the
    catalogue's (a declared key moved, an undeclared one in the middle, a nested object reordered) is
    decoded in its own order; the column-at-a-time path leaves such records to the record-by-record one."""
    from argentina_datos.almacen.registros import Codec
    from argentina_datos.catalogo.esquema import NUMBER, TEXT, Field, Obj

    codec = Codec(
        [
            Field("fecha", TEXT),
            Field("valor", NUMBER),
            Field("fuente", TEXT, optional=True),
            Obj("meta", [Field("a", TEXT), Field("b", TEXT)], optional=True),
        ]
    )
    records = [
        {"fecha": "2025-01-01", "valor": 1, "fuente": "x"},  # the catalogue's order
        {"fuente": "x", "fecha": "2025-01-02", "valor": 2.5},  # a declared key moved first
        {"fecha": "2025-01-03", "nuevo": True, "valor": 3},  # an undeclared key in the middle
        {"fecha": "2025-01-04", "valor": 4, "meta": {"b": "2", "a": "1"}},  # a nested object reordered
    ]
    for record in records:
        row, _, _ = codec.encode(record)
        decoded = codec.decode(row)
        assert decoded == record and list(decoded) == list(record), (record, decoded)
        if "meta" in record:
            assert list(decoded["meta"]) == list(record["meta"])
    flat = Codec([Field("fecha", TEXT), Field("valor", NUMBER)])
    assert flat.encode_columns([{"fecha": "2025-01-01", "valor": 1}]) is not None
    assert flat.encode_columns([{"valor": 1, "fecha": "2025-01-01"}]) is None
