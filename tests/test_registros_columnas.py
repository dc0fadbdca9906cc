"""The column-at-a-time encoder must give exactly the rows of the record-by-record one,
and must refuse (so the builder falls back and names the fault) whatever that one refuses."""
import pytest

from argentina_datos.esquema import BOOLEAN, INTEGER, NUMBER, TEXT, Field, Obj
from argentina_datos.registros import BadRecord, Codec

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
    {"nombre": "d", "tipo": "y", "valor": 2.0, "cantidad": 1},  # activo absent
    {"nombre": "e", "valor": 7, "cantidad": 2},  # both absent
]


def test_same_rows_as_record_by_record():
    expected = rows_one_by_one(CODEC, GOOD)
    assert rows_by_columns(CODEC, GOOD) == expected
    assert [r[-1] for r in expected] == [None, None, "tipo", "activo", "tipo,activo"]


def test_same_rows_when_every_record_is_complete():
    records = GOOD[:2]
    assert rows_by_columns(CODEC, records) == rows_one_by_one(CODEC, records)


@pytest.mark.parametrize("bad", [
    {"nombre": "z", "valor": 1, "cantidad": 1, "extra": 1},  # undeclared key
    {"nombre": "z", "tipo": "t", "valor": 1, "extra": 1},  # undeclared key standing in for a required one
    {"nombre": "z", "valor": 1},  # required key missing
    {"nombre": None, "valor": 1, "cantidad": 1},  # null in a non-nullable field
    {"nombre": "z", "valor": "1", "cantidad": 1},  # text where a number goes
    {"nombre": "z", "valor": True, "cantidad": 1},  # a boolean is not a number
    {"nombre": "z", "valor": 1, "cantidad": 1.5},  # a float is not an integer
    {"nombre": "z", "valor": 1, "cantidad": 1, "activo": None},  # present null, non-nullable
    ["z", 1, 1],  # not an object
])
def test_refuses_what_the_record_encoder_refuses(bad):
    records = GOOD + [bad]
    assert rows_by_columns(CODEC, records) is None
    with pytest.raises(BadRecord):
        rows_one_by_one(CODEC, records)


def test_nested_records_are_left_to_the_record_encoder():
    codec = Codec([Field("a", TEXT), Obj("b", [Field("c", INTEGER)])])
    assert codec.encode_columns([{"a": "x", "b": {"c": 1}}]) is None
