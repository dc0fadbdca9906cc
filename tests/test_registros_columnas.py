"""The column-at-a-time encoder must give exactly the rows of the record-by-record one,
and must hand back (so the builder falls back and reports it) whatever that one finds odd."""

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
    assert [len(r) for r in expected] == [len(FIELDS)] * len(GOOD)
    assert expected[4] == ("e", None, 7, 2, None)  # an omitted key is a NULL column


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
def test_falls_back_on_what_the_record_encoder_finds_odd_and_reports_it(bad):
    records = GOOD + [bad]
    assert rows_by_columns(CODEC, records) is None
    row, children, deviations = CODEC.encode(bad)
    assert deviations, "the odd record must be reported"
    assert len(row) == len(FIELDS)


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
        assert deviations and len(row) == 3  # a, b_c, b_d
    _, _, deviations = codec.encode(cases[0])
    assert [(d.path, d.problem) for d in deviations] == [(("b", "nuevo"), "campo no declarado")]


def test_bare_values():
    codec = Codec([Field("ruta", TEXT)], scalar=True)
    assert codec.encode("/rems/2025/01") == (("/rems/2025/01",), [], [])
    for odd in (7, None, {"ruta": "x"}):
        row, _, deviations = codec.encode(odd)
        assert deviations and row == (None,)


def test_nested_records_are_left_to_the_record_encoder():
    codec = Codec([Field("a", TEXT), Obj("b", [Field("c", INTEGER)])])
    assert codec.encode_columns([{"a": "x", "b": {"c": 1}}]) is None


def test_key_order_is_not_the_projections_business():
    """Upstream's key order is part of its JSON, which the store of its files keeps: the rows are the same
    whatever order a record's keys come in, and the column-at-a-time path takes them all."""
    flat = Codec([Field("fecha", TEXT), Field("valor", NUMBER)])
    records = [{"fecha": "2025-01-01", "valor": 1}, {"valor": 2, "fecha": "2025-01-02"}]
    assert rows_by_columns(flat, records) == rows_one_by_one(flat, records) == [("2025-01-01", 1), ("2025-01-02", 2)]
