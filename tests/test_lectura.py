"""argentina_datos.leer on a database of a few rows built here (no mirror): columnas, desde/hasta and
dias_habiles are applied in SQL, and a wrong one is an error that names it."""

import datetime as dt

import pandas as pd
import pytest
from ayudas import build_tables, write_file

from argentina_datos import leer

# Friday 5 January 2024, then a weekend that repeats it (carried forward), then Monday.
DOLARES = [
    {"casa": "blue", "compra": 100, "venta": 110, "fecha": "2024-01-04"},
    {"casa": "blue", "compra": 101, "venta": 111, "fecha": "2024-01-05"},
    {"casa": "blue", "compra": 101, "venta": 111, "fecha": "2024-01-06"},
    {"casa": "blue", "compra": 101, "venta": 111, "fecha": "2024-01-07"},
    {"casa": "blue", "compra": 102, "venta": 112, "fecha": "2024-01-08"},
]


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuente")
    write_file(root, "v1/cotizaciones/dolares", DOLARES)
    write_file(root, "v1/finanzas/indices/uva", [{"fecha": "2024-01-05", "valor": 1.5}])
    out = root.parent / "leer.db"
    build_tables(root, out, ["cotizaciones_dolares", "uva"]).close()
    return out


def test_columns_dates_and_business_days_are_read_as_asked(db):
    frame = leer("cotizaciones_dolares", db, columnas=["fecha", "venta"], desde="2024-01-05", dias_habiles=True)
    assert list(frame.columns) == ["fecha", "venta"]
    assert [d.isoformat()[:10] for d in frame["fecha"]] == ["2024-01-05", "2024-01-08"]
    assert str(frame["fecha"].dtype).startswith("datetime64")
    every_day = leer("cotizaciones_dolares", db, hasta="2024-01-07")
    assert (
        len(every_day) == 4 and {"arrastrado", "habil"} <= set(every_day.columns) and "_extra" not in every_day.columns
    )


@pytest.mark.parametrize(
    "tabla, kwargs, named",
    [
        ("cotizaciones_dolares", {"columnas": ["fecha", "nada"]}, "nada"),
        ("cotizaciones_dolares", {"desde": "05/01/2024"}, "«desde»"),
        ("uva", {"dias_habiles": True}, "habil"),
    ],
)
def test_a_wrong_argument_is_an_error_that_names_it(db, tabla, kwargs, named):
    with pytest.raises(ValueError, match=named):
        leer(tabla, db, **kwargs)


@pytest.mark.parametrize(
    "desde", ["2024-01-05", dt.date(2024, 1, 5), dt.datetime(2024, 1, 5), pd.Timestamp("2024-01-05")]
)
def test_desde_as_a_date_a_datetime_or_a_timestamp_keeps_its_own_day(db, desde):
    frame = leer("cotizaciones_dolares", db, desde=desde, hasta="2024-01-05")
    assert [d.isoformat()[:10] for d in frame["fecha"]] == ["2024-01-05"]


def test_a_bad_date_outside_diputados_stays_a_naive_date_with_nat():
    from argentina_datos.lectura import typed

    frame = typed(pd.DataFrame({"fecha": ["2024-01-01", "2025-02-30"]}), table="uva")
    assert str(frame["fecha"].dtype).startswith("datetime64") and frame["fecha"].dt.tz is None
    assert frame["fecha"].isna().tolist() == [False, True]


def test_business_days_leave_out_weekend_quotes_that_differ_from_friday(tmp_path):
    # Upstream publishes some weekend quotes that are not Friday's (2024: 7 of the oficial): not carried forward,
    # and no business day either.
    root = tmp_path / "fuente"
    write_file(
        root,
        "v1/cotizaciones/dolares",
        [
            {"casa": "oficial", "compra": 101, "venta": 111, "fecha": "2024-01-05"},
            {"casa": "oficial", "compra": 103, "venta": 113, "fecha": "2024-01-06"},
            {"casa": "oficial", "compra": 103, "venta": 113, "fecha": "2024-01-07"},
            {"casa": "oficial", "compra": 102, "venta": 112, "fecha": "2024-01-08"},
        ],
    )
    build_tables(root, tmp_path / "d.db", ["cotizaciones_dolares"]).close()
    every_day = leer("cotizaciones_dolares", tmp_path / "d.db")
    assert list(every_day["arrastrado"]) == [False, False, True, False]
    assert list(every_day["habil"]) == [True, False, False, True]
    habiles = leer("cotizaciones_dolares", tmp_path / "d.db", dias_habiles=True)
    assert [d.isoformat()[:10] for d in habiles["fecha"]] == ["2024-01-05", "2024-01-08"]
