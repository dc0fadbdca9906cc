"""The checks that look at the world (construccion/contrastes.py): each finds its problem in a tiny source
that has it, one finding per span, and none in a real event that looks like one (a devaluation, a rate the
government fixed); the real mirror's known cases are found where the issue (#42) says they are."""

import datetime as dt
import json
import sqlite3
from pathlib import Path

import pytest
from paths import REFERENCES
from test_auditoria import DOLARES, INFLACION, cotizacion, de, dias_habiles, escribir

from argentina_datos.almacen import calidad
from argentina_datos.catalogo import BY_TABLE
from argentina_datos.construccion import contrastes
from argentina_datos.construccion.constructor import Builder
from argentina_datos.construccion.fuentes import DirectorySource

INTERANUAL = "v1/finanzas/indices/inflacionInteranual"
RIESGO = "v1/finanzas/indices/riesgo-pais"
TABLAS = {DOLARES: "cotizaciones_dolares", INFLACION: "inflacion", INTERANUAL: "inflacion_interanual"}
TABLAS[RIESGO] = "riesgo_pais"
NUEVOS = (calidad.FROZEN, calidad.SPREAD, calidad.RELATED_SERIES, calidad.PUBLISHED_FIGURE)


def construir(tmp_path: Path, archivos: dict, referencias: str | None = None) -> tuple[list[dict], list[dict]]:
    """The calidad rows and the cifras_publicadas rows of a build of ``archivos`` (route -> records)."""
    root = tmp_path / "fuente"
    for route, records in archivos.items():
        escribir(root, route, records)
    cifras = None
    if referencias is not None:
        cifras = tmp_path / "cifras.tsv"
        cifras.write_text(referencias, encoding="utf-8")
    salida = tmp_path / "a.db"
    datasets = [BY_TABLE[TABLAS[r]] for r in archivos]
    Builder(DirectorySource(root), salida, datasets=datasets, today=dt.date(2025, 6, 1), references=cifras).run()
    with sqlite3.connect(salida) as con:
        con.row_factory = sqlite3.Row
        found = [dict(r) for r in con.execute("SELECT * FROM calidad ORDER BY id")]
        figures = [dict(r) for r in con.execute("SELECT * FROM cifras_publicadas ORDER BY rowid")]
    return found, figures


def casas(fechas: list[str], mayorista=None, oficial=None) -> list[dict]:
    """Three houses that move every day: blue +1 %, oficial +0.5 %, mayorista +0.4 % (spread 0.3 %), unless given."""
    out = []
    for i, f in enumerate(fechas):
        out.append(cotizacion("blue", round(1000 * 1.01**i, 2), round(1020 * 1.01**i, 2), f))
        compra = oficial[i] if oficial else round(800 * 1.005**i, 2)
        out.append(cotizacion("oficial", compra, round(compra * 1.04, 2), f))
        m = mayorista[i] if mayorista else (round(780 * 1.004**i, 2), round(780 * 1.004**i * 1.003, 2))
        out.append(cotizacion("mayorista", m[0], m[1], f))
    return out


def mayorista_normal(n: int) -> list[tuple[float, float]]:
    return [(round(780 * 1.004**i, 2), round(780 * 1.004**i * 1.003, 2)) for i in range(n)]


# ---- frozen values ------------------------------------------------------------------------------
def test_a_quote_that_stops_while_the_others_move_is_one_frozen_span(tmp_path):
    fechas = dias_habiles("2025-01-02", 50)
    mayorista = mayorista_normal(50)
    for i in range(21, 33):  # 12 business days repeat the 20th's values
        mayorista[i] = mayorista[20]
    hallazgos, _ = construir(tmp_path, {DOLARES: casas(fechas, mayorista)})
    congelados = de(hallazgos, calidad.FROZEN)
    assert [(h["serie"], h["fecha"], h["hasta"]) for h in congelados] == [("casa=mayorista", fechas[21], fechas[32])]
    assert json.loads(congelados[0]["valor"]) == list(mayorista[20])
    assert "12 días hábiles seguidos" in congelados[0]["detalle"]
    assert "series relacionadas" in congelados[0]["detalle"]


def test_a_short_pause_is_not_frozen(tmp_path):
    fechas = dias_habiles("2025-01-02", 50)
    mayorista = mayorista_normal(50)
    for i in range(21, 30):  # 9 business days: under the threshold
        mayorista[i] = mayorista[20]
    assert de(construir(tmp_path, {DOLARES: casas(fechas, mayorista)})[0], calidad.FROZEN) == []


def test_a_rate_fixed_for_every_series_is_no_frozen_value(tmp_path):
    # The government fixes the official rate and the wholesale follows it: both still, the blue moves.
    fechas = dias_habiles("2025-01-02", 50)
    mayorista = mayorista_normal(50)
    oficial = [round(800 * 1.005**i, 2) for i in range(50)]
    for i in range(21, 35):
        mayorista[i], oficial[i] = mayorista[20], oficial[20]
    hallazgos, _ = construir(tmp_path, {DOLARES: casas(fechas, mayorista, oficial)})
    assert de(hallazgos, calidad.FROZEN) == []


def test_weekend_repeats_are_not_frozen(tmp_path):
    # Every calendar day published, weekends repeating Friday (as upstream does): only business days count.
    dias = [(dt.date(2025, 1, 1) + dt.timedelta(days=i)) for i in range(70)]
    habiles = [d for d in dias if d.weekday() < 5]
    mayorista = dict(zip(habiles, mayorista_normal(len(habiles))))
    last = None
    valores = []
    for d in dias:
        last = mayorista.get(d, last)
        valores.append(last)
    dolares = casas([d.isoformat() for d in dias], valores)
    assert de(construir(tmp_path, {DOLARES: dolares})[0], calidad.FROZEN) == []


def test_a_freeze_two_series_share_while_the_official_moves_is_a_finding_for_each(tmp_path):
    # The mayorista and contado con liquidación repeat one value for 12 business days while the oficial, that
    # moves every day, goes on moving: upstream stopped both.
    fechas = dias_habiles("2025-01-02", 50)
    mayorista = mayorista_normal(50)
    ccl = [round(1100 * 1.003**i, 2) for i in range(50)]
    for i in range(21, 33):
        mayorista[i], ccl[i] = mayorista[20], ccl[20]
    dolares = casas(fechas, mayorista) + [cotizacion("contadoconliqui", c, c, f) for c, f in zip(ccl, fechas)]
    congelados = de(construir(tmp_path, {DOLARES: dolares})[0], calidad.FROZEN)
    assert sorted((h["serie"], h["fecha"], h["hasta"]) for h in congelados) == [
        ("casa=contadoconliqui", fechas[21], fechas[32]),
        ("casa=mayorista", fechas[21], fechas[32]),
    ]
    assert all("mientras casa=oficial se movió" in h["detalle"] for h in congelados)
    assert (
        "también quietas: casa=contadoconliqui"
        in [h for h in congelados if h["serie"] == "casa=mayorista"][0]["detalle"]
    )


# ---- quotes on days the market is closed ---------------------------------------------------------
def test_a_weekend_quote_of_a_closed_market_that_differs_from_friday_is_marked(tmp_path):
    dias = [(dt.date(2025, 1, 6) + dt.timedelta(days=i)) for i in range(28)]  # from a Monday
    dolares = []
    for i, d in enumerate(dias):
        habil = d.weekday() < 5
        precio = 1000 + i if habil else None
        for casa in ("bolsa", "cripto"):
            dolares.append(cotizacion(casa, precio or 1000 + i, (precio or 1000 + i) + 2, d.isoformat()))
    # bolsa repeats Friday on every weekend but one Saturday (and the Sunday after)
    last = {}
    for r in dolares:
        day = dt.date.fromisoformat(r["fecha"])
        if day.weekday() < 5:
            last[r["casa"]] = (r["compra"], r["venta"])
        elif r["casa"] == "bolsa" and r["fecha"] not in ("2025-01-18", "2025-01-19"):
            r["compra"], r["venta"] = last["bolsa"]
    hallazgos = de(construir(tmp_path, {DOLARES: dolares})[0], calidad.CLOSED_MARKET)
    # cripto trades every day: its weekends are no finding
    assert [(h["serie"], h["fecha"], h["hasta"]) for h in hallazgos] == [("casa=bolsa", "2025-01-18", "2025-01-19")]
    assert json.loads(hallazgos[0]["valor"]) == [[1011, 1013], [1012, 1014]]
    assert "el día hábil anterior, 2025-01-17, 1011 / 1013" in hallazgos[0]["detalle"]


# ---- a real devaluation ---------------------------------------------------------------------------
def test_a_devaluation_is_a_jump_and_nothing_new(tmp_path):
    # 2023-12-13: the official rate +113 % in a day, then a crawling peg; every house follows.
    fechas = dias_habiles("2025-01-02", 50)
    oficial = [round(366 * 1.0005**i, 2) if i < 25 else round(780 * 1.005 ** (i - 25), 2) for i in range(50)]
    mayorista = [(round(350 * 1.0005**i, 2), round(351 * 1.0005**i, 2)) for i in range(50)]
    mayorista[25:] = [(round(770 * 1.005**i, 2), round(772 * 1.005**i, 2)) for i in range(25)]
    hallazgos, _ = construir(tmp_path, {DOLARES: casas(fechas, mayorista, oficial)})
    assert [h["fecha"] for h in de(hallazgos, calidad.JUMP) if h["serie"] == "casa=oficial"] == [fechas[25]]
    assert [h for h in hallazgos if h["control"] in NUEVOS] == []


# ---- impossible spreads -----------------------------------------------------------------------------
def test_a_spread_far_above_the_houses_own_marks_only_the_days_beyond_its_limit(tmp_path):
    fechas = dias_habiles("2025-01-02", 60)
    mayorista = mayorista_normal(60)
    for i in list(range(20, 30)) + list(range(33, 38)):  # venta 40 pesos over compra, with 3 normal days between
        mayorista[i] = (mayorista[i][0], round(mayorista[i][0] + 40, 2))
    spreads = de(construir(tmp_path, {DOLARES: casas(fechas, mayorista)})[0], calidad.SPREAD)
    assert [(h["serie"], h["fecha"], h["hasta"]) for h in spreads] == [
        ("casa=mayorista", fechas[20], fechas[29]),
        ("casa=mayorista", fechas[33], fechas[37]),
    ]
    # In words: the days' spread, the series' usual one and the limit, not a bare median.
    detalle = spreads[0]["detalle"]
    assert "en 10 valores seguidos" in detalle and "la serie misma" in detalle
    low = 40 / mayorista[29][0]
    assert f"entre un {low * 100:.1f} %" in detalle, detalle
    assert "suele superar a la compra en un 0.3 %" in detalle and "el límite es un 3.0 %" in detalle


def test_a_house_whose_spread_is_always_wide_has_no_spread_finding(tmp_path):
    # The oficial's 4 % (and tarjeta's 73 %: taxes) are their own history, not an error.
    fechas = dias_habiles("2025-01-02", 40)
    assert de(construir(tmp_path, {DOLARES: casas(fechas)})[0], calidad.SPREAD) == []


# ---- related series: the monthly CPI compounded against the year-on-year -----------------------------
def meses(n: int) -> list[str]:
    out = []
    for i in range(n):
        year, month = 2023 + i // 12, i % 12 + 1
        first_next = dt.date(year + month // 12, month % 12 + 1, 1)
        out.append((first_next - dt.timedelta(days=1)).isoformat())
    return out


def inflaciones(n: int, error: dict | None = None) -> tuple[list[dict], list[dict]]:
    """n months of 2.x % a month and the year-on-year rate INDEC would publish (one decimal), from month 12."""
    fechas = meses(n)
    mensual = [round(2 + (i % 5) / 10, 1) for i in range(n)]
    interanual = []
    for i in range(11, n):
        nivel = 1.0
        for v in mensual[i - 11 : i + 1]:
            nivel *= 1 + v / 100
        interanual.append({"fecha": fechas[i], "valor": round(100 * (nivel - 1), 1) + (error or {}).get(i, 0)})
    return [{"fecha": f, "valor": v} for f, v in zip(fechas, mensual)], interanual


def test_a_year_on_year_rate_that_is_not_its_months_compounded_is_reported(tmp_path):
    mensual, interanual = inflaciones(30, error={20: 1.5, 21: 1.2})
    hallazgos, _ = construir(tmp_path, {INFLACION: mensual, INTERANUAL: interanual})
    desacuerdos = de(hallazgos, calidad.RELATED_SERIES)
    assert [(h["tabla"], h["fecha"], h["hasta"]) for h in desacuerdos] == [
        ("inflacion_interanual", meses(30)[20], meses(30)[21])
    ]
    assert "2 meses" in desacuerdos[0]["detalle"]


def test_a_year_on_year_rate_within_rounding_agrees(tmp_path):
    mensual, interanual = inflaciones(30)
    hallazgos, _ = construir(tmp_path, {INFLACION: mensual, INTERANUAL: interanual})
    assert de(hallazgos, calidad.RELATED_SERIES) == []


# ---- figures published by others -----------------------------------------------------------------
CABECERA = "serie\tfecha\tvalor\tunidad\tfuente\tnota\n"


def riesgo(valores: dict) -> list[dict]:
    return [{"valor": v, "fecha": f} for f, v in valores.items()]


def test_a_published_figure_that_differs_is_a_finding_naming_both_and_the_source(tmp_path):
    cifras = CABECERA + "riesgo_pais\t2025-12-30\t571\tpuntos básicos\tJP Morgan (vía la prensa)\tcierre\n"
    cifras += "riesgo_pais\t2025-12-31\t571\tpuntos básicos\tJP Morgan\tcierre\n"
    hallazgos, tabla = construir(tmp_path, {RIESGO: riesgo({"2025-12-30": 569, "2025-12-31": 571})}, referencias=cifras)
    distintas = de(hallazgos, calidad.PUBLISHED_FIGURE)
    assert [(h["tabla"], h["fecha"], json.loads(h["valor"])) for h in distintas] == [
        ("riesgo_pais", "2025-12-30", [569, 571])
    ]
    assert "569" in distintas[0]["detalle"] and "571" in distintas[0]["detalle"]
    assert "JP Morgan (vía la prensa)" in distintas[0]["detalle"]
    assert [(r["serie"], r["fecha"], r["valor"], r["fuente"]) for r in tabla][0] == (
        "riesgo_pais",
        "2025-12-30",
        571,
        "JP Morgan (vía la prensa)",
    )


def test_a_figure_within_its_rounding_agrees(tmp_path):
    # 24.8 published with one decimal: 24.84 is the same figure.
    cifras = CABECERA + "riesgo_pais\t2025-12-30\t24.8\tpuntos\tX\t\n"
    hallazgos, _ = construir(tmp_path, {RIESGO: riesgo({"2025-12-30": 24.84})}, referencias=cifras)
    assert de(hallazgos, calidad.PUBLISHED_FIGURE) == []


def test_without_a_figures_file_the_table_is_empty(tmp_path):
    hallazgos, tabla = construir(tmp_path, {RIESGO: riesgo({"2025-12-30": 569})})
    assert tabla == [] and de(hallazgos, calidad.PUBLISHED_FIGURE) == []


def test_an_unreadable_figure_is_reported_and_the_rest_is_used(tmp_path):
    cifras = CABECERA + "riesgo_pais\t2025-12-30\tquinientos\tpb\tX\t\nriesgo_pais\t2025-12-30\t571\tpb\tY\t\n"
    hallazgos, tabla = construir(tmp_path, {RIESGO: riesgo({"2025-12-30": 569})}, referencias=cifras)
    distintas = de(hallazgos, calidad.PUBLISHED_FIGURE)
    assert len(tabla) == 1
    assert [h["tabla"] for h in distintas] == ["cifras_publicadas", "riesgo_pais"]
    assert "línea 2" in distintas[0]["detalle"] and "quinientos" in distintas[0]["detalle"]


# ---- the real mirror ---------------------------------------------------------------------------------
def _of(conn, control: str, serie=None, tabla="cotizaciones_dolares") -> list[tuple]:
    return conn.execute(
        "SELECT fecha, hasta, valor, detalle FROM calidad WHERE control = ? AND tabla = ? AND serie IS ? ORDER BY fecha",
        [control, tabla, serie],
    ).fetchall()


@pytest.mark.mirror
def test_the_wholesale_dollar_frozen_across_the_devaluation_is_one_finding(conn):
    spans = [(f, h) for f, h, _, _ in _of(conn, calidad.FROZEN, "casa=mayorista")]
    assert ("2023-12-13", "2024-01-10") in spans
    assert len([s for s in spans if s[0] <= "2024-01-10" and s[1] >= "2023-12-13"]) == 1
    assert any(f.startswith("2024") for f, _ in spans), "other frozen spans of 2024"


@pytest.mark.mirror
def test_the_wholesale_spread_of_2024_is_reported(conn):
    spans = [(f, h) for f, h, _, _ in _of(conn, calidad.SPREAD, "casa=mayorista")]
    assert ("2024-01-11", "2024-04-10") in spans  # venta ~40 pesos over compra for three months


@pytest.mark.mirror
def test_no_row_marked_for_its_spread_is_within_the_limit(conn):
    spans = conn.execute(
        "SELECT serie, fecha, coalesce(hasta, fecha) FROM calidad WHERE control = ? AND tabla = ?",
        [calidad.SPREAD, "cotizaciones_dolares"],
    ).fetchall()
    assert spans
    marked = [
        (casa, fecha, venta / compra - 1)
        for serie, desde, hasta in spans
        for casa, fecha, compra, venta in conn.execute(
            "SELECT casa, fecha, compra, venta FROM cotizaciones_dolares WHERE casa = ? AND fecha BETWEEN ? AND ?",
            [serie.removeprefix("casa="), desde, hasta],
        )
    ]
    assert len(marked) >= len(spans)
    assert [m for m in marked if m[2] <= contrastes.SPREAD_MIN] == []
    # contado con liquidación in late January 2024: its two days beyond 3 %, not the 12 normal ones between them
    ccl = [f for c, f, _ in marked if c == "contadoconliqui" and "2024-01-18" <= f <= "2024-01-31"]
    assert ccl == ["2024-01-18", "2024-01-31"]


@pytest.mark.mirror
def test_no_new_finding_on_real_events(conn):
    # The devaluation of 2023-12-13 (official +113 %) and the unification of 2015-12-17 are real: a «salto» at
    # most, never a frozen value, an impossible spread or a disagreement on the official dollar.
    for start, end in (("2023-12-06", "2023-12-20"), ("2015-12-10", "2015-12-24")):
        rows = conn.execute(
            f"SELECT control, serie, fecha FROM calidad WHERE tabla = 'cotizaciones_dolares' AND serie = 'casa=oficial'"
            f" AND control IN ({', '.join('?' * len(NUEVOS))}) AND fecha <= ? AND coalesce(hasta, fecha) >= ?",
            [*NUEVOS, end, start],
        ).fetchall()
        assert rows == [], rows
    assert conn.execute(
        "SELECT count(*) FROM calidad WHERE tabla = 'cotizaciones_dolares' AND serie = 'casa=oficial' "
        "AND control = ? AND fecha = '2023-12-13'",
        [calidad.JUMP],
    ).fetchone() == (1,)
    # Nor does any series start a new kind of finding on those days, but the wholesale dollar that froze.
    nuevos = (*NUEVOS, calidad.EXCURSION, calidad.CLOSED_MARKET)
    started = conn.execute(
        f"SELECT tabla, serie, control, fecha FROM calidad WHERE control IN ({', '.join('?' * len(nuevos))}) "
        "AND (fecha BETWEEN '2015-12-16' AND '2015-12-18' OR fecha BETWEEN '2023-12-12' AND '2023-12-14') ORDER BY serie",
        nuevos,
    ).fetchall()
    # contado con liquidación's 6.7 % of 2023-12-13 is the last of its ~20 runs of wide spreads since 2023-09-08
    # (marked before too, inside one 2023-09-08…12-13 span): its own error, not the devaluation's.
    assert started == [
        ("cotizaciones_dolares", "casa=contadoconliqui", calidad.SPREAD, "2023-12-13"),
        ("cotizaciones_dolares", "casa=mayorista", calidad.FROZEN, "2023-12-13"),
    ]
    assert len(_of(conn, calidad.SPREAD, "casa=contadoconliqui")) > 10
    # INDEC's new basket from January 2026: the year-on-year and the monthly rates still agree, every month.
    assert _of(conn, calidad.RELATED_SERIES, None, "inflacion_interanual") == []


@pytest.mark.mirror
def test_every_official_cpi_figure_agrees_and_country_risk_of_2025_12_30_does_not(conn):
    figures = conn.execute("SELECT serie, fecha, valor, fuente FROM cifras_publicadas").fetchall()
    assert {s for s, _, _, _ in figures} >= {"inflacion", "inflacion_interanual", "riesgo_pais"}
    # every figure of the file, with its source (the file may grow)
    assert len(figures) == len(REFERENCES.read_text(encoding="utf-8").strip().splitlines()) - 1
    assert all(fuente for _, _, _, fuente in figures)
    for table in ("inflacion", "inflacion_interanual"):
        assert _of(conn, calidad.PUBLISHED_FIGURE, None, table) == []
    riesgo_pais = _of(conn, calidad.PUBLISHED_FIGURE, None, "riesgo_pais")
    assert [(f, json.loads(v)) for f, _, v, _ in riesgo_pais] == [("2025-12-30", [569, 571])]
    assert "Perfil" in riesgo_pais[0][3] or "perfil" in riesgo_pais[0][3]


@pytest.mark.mirror
def test_the_wholesale_dollar_s_trip_of_2023_12_07_is_one_finding_and_the_devaluation_a_jump(conn):
    trips = _of(conn, calidad.EXCURSION, "casa=mayorista")
    assert [(f, h) for f, h, _, _ in trips if f <= "2023-12-10" and (h or f) >= "2023-12-07"] == [
        ("2023-12-07", "2023-12-10")
    ]
    assert "volvió a" in [d for f, _, _, d in trips if f == "2023-12-07"][0]
    # the devaluation (2023-12-13) and the unification (2015-12-17) move every house for good: no trip starts
    # or ends there, and the oficial's +113 % stays one «salto»
    near = conn.execute(
        "SELECT serie, fecha, hasta FROM calidad WHERE control = ? AND tabla = 'cotizaciones_dolares' AND "
        "(fecha BETWEEN '2023-12-12' AND '2023-12-14' OR fecha BETWEEN '2015-12-16' AND '2015-12-18')",
        [calidad.EXCURSION],
    ).fetchall()
    assert near == []


@pytest.mark.mirror
def test_the_saturday_mep_quote_of_2024_08_17_is_marked(conn):
    found = _of(conn, calidad.CLOSED_MARKET, "casa=bolsa")
    assert [(f, h) for f, h, _, _ in found if f == "2024-08-17"] == [("2024-08-17", "2024-08-18")]
    assert json.loads([v for f, _, v, _ in found if f == "2024-08-17"][0]) == [[1279, 1281.6], [1292.4, 1299.1]]
    # only houses whose market closes: not cripto, nor the blue
    houses = {
        s for (s,) in conn.execute("SELECT DISTINCT serie FROM calidad WHERE control = ?", [calidad.CLOSED_MARKET])
    }
    assert houses and houses <= {"casa=oficial", "casa=mayorista", "casa=bolsa", "casa=contadoconliqui"}


@pytest.mark.mirror
def test_the_freeze_the_wholesale_and_ccl_shared_in_2017_11_is_found_and_the_fixed_rate_of_2023_is_not(conn):
    for serie in ("casa=mayorista", "casa=contadoconliqui"):
        spans = [(f, h) for f, h, _, _ in _of(conn, calidad.FROZEN, serie)]
        assert any(f.startswith("2017-11") for f, _ in spans) and any(f.startswith("2018-03") for f, _ in spans)
    # the mayorista at 350 from 2023-08 to the devaluation, fixed with the oficial: no finding
    assert [f for f, _, _, _ in _of(conn, calidad.FROZEN, "casa=mayorista") if "2023-08-15" <= f <= "2023-12-12"] == []
