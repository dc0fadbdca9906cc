"""The data-quality audit (construccion/auditoria.py): each check finds its problem in a tiny source
that has it, and nothing in one that does not; a finding never stops a build."""

import datetime as dt
import json
import re
import sqlite3
from pathlib import Path

import pytest

from argentina_datos.almacen import calidad
from argentina_datos.catalogo import BY_TABLE
from argentina_datos.catalogo.slug import entity_id, repair_mojibake
from argentina_datos.construccion import auditoria, cli
from argentina_datos.construccion.constructor import Builder
from argentina_datos.construccion.fuentes import DirectorySource

HOY = dt.date(2025, 4, 1)
UVA = "v1/finanzas/indices/uva"
DOLARES = "v1/cotizaciones/dolares"
MONEDAS = "v1/cotizaciones"
DEPOSITOS = "v1/finanzas/tasas/depositos30Dias"
INFLACION = "v1/finanzas/indices/inflacion"
FERIADOS = "v1/feriados/2025"
PLAZO_FIJO = "v1/finanzas/tasas/plazoFijo"
# Carnaval 2025: Monday 3 and Tuesday 4 March are holidays, not missing days.
CARNAVAL = [
    {"fecha": "2025-03-03", "tipo": "inamovible", "nombre": "Carnaval"},
    {"fecha": "2025-03-04", "tipo": "inamovible", "nombre": "Carnaval"},
]


def escribir(root: Path, route: str, records) -> None:
    path = root / route / "index.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(records, ensure_ascii=False))


def construir(tmp_path: Path, archivos: dict, hoy: dt.date = HOY) -> list[dict]:
    """Build the datasets of ``archivos`` (route -> records) and give back the calidad rows."""
    root = tmp_path / "fuente"
    for route, records in archivos.items():
        escribir(root, route, records)
    tablas = {
        UVA: "uva",
        DOLARES: "cotizaciones_dolares",
        MONEDAS: "cotizaciones",
        DEPOSITOS: "depositos_30_dias",
        INFLACION: "inflacion",
        FERIADOS: "feriados",
        PLAZO_FIJO: "plazo_fijo",
    }
    conjuntos = list(dict.fromkeys(tablas.get(r) or tabla_por_ruta(r) for r in archivos))
    salida = tmp_path / "a.db"
    Builder(DirectorySource(root), salida, datasets=[BY_TABLE[t] for t in conjuntos], today=hoy).run()
    with sqlite3.connect(salida) as con:
        con.row_factory = sqlite3.Row
        return [dict(r) for r in con.execute("SELECT * FROM calidad ORDER BY id")]


def tabla_por_ruta(route: str) -> str:
    """The table of one house's list, a currency's list or a per-date file of quotes."""
    if re.fullmatch(DOLARES + r"/[0-9]{4}/[0-9]{2}/[0-9]{2}", route):
        return "cotizaciones_dolares_fecha"
    if route.startswith(DOLARES + "/"):
        return "cotizaciones_dolares_casa"
    if re.fullmatch(MONEDAS + r"/[a-z]{3}/[0-9]{4}/[0-9]{2}/[0-9]{2}", route):
        return "cotizaciones_moneda_fecha"
    if re.fullmatch(MONEDAS + r"/[a-z]{3}", route):
        return "cotizaciones_moneda"
    raise KeyError(route)


def de(hallazgos: list[dict], control: str) -> list[dict]:
    return [h for h in hallazgos if h["control"] == control]


def dias_habiles(desde: str, n: int, sin: tuple = ()) -> list[str]:
    """n weekdays from ``desde`` that are not Carnaval 2025 nor in ``sin``."""
    out, day = [], dt.date.fromisoformat(desde)
    while len(out) < n:
        if day.weekday() < 5 and day.isoformat() not in ("2025-03-03", "2025-03-04") + sin:
            out.append(day.isoformat())
        day += dt.timedelta(days=1)
    return out


def serie(fechas: list[str], valores=None) -> list[dict]:
    valores = valores or [100.05 + i * 0.1 for i in range(len(fechas))]  # no whole number written as 100.0
    return [{"fecha": f, "valor": v} for f, v in zip(fechas, valores)]


# ---- compra > venta ------------------------------------------------------------------
def cotizacion(casa, compra, venta, fecha):
    return {"casa": casa, "compra": compra, "venta": venta, "fecha": fecha}


def test_compra_above_venta_is_one_finding_per_run_of_days(tmp_path):
    dolares = [
        cotizacion("blue", 10, 11, "2025-02-03"),
        cotizacion("blue", 12, 11, "2025-02-04"),
        cotizacion("blue", 12, 11.5, "2025-02-05"),
        cotizacion("blue", 11, 12, "2025-02-06"),
        cotizacion("oficial", 10, 10, "2025-02-04"),  # equal is no finding
    ]
    hallazgos = de(construir(tmp_path, {DOLARES: dolares}), calidad.BUY_ABOVE_SELL)
    # the span is stored whole (fecha to hasta), so that both days are marked
    assert [(h["tabla"], h["serie"], h["fecha"], h["hasta"]) for h in hallazgos] == [
        ("cotizaciones_dolares", "casa=blue", "2025-02-04", "2025-02-05")
    ]
    assert "2 días seguidos, del 2025-02-04 al 2025-02-05" in hallazgos[0]["detalle"]
    assert json.loads(hallazgos[0]["valor"]) == {"compra": 12, "venta": 11}


def test_compra_below_venta_is_no_finding(tmp_path):
    dolares = [cotizacion("blue", 10, 11, "2025-02-03"), cotizacion("blue", None, 11, "2025-02-04")]
    assert de(construir(tmp_path, {DOLARES: dolares}), calidad.BUY_ABOVE_SELL) == []


# ---- gaps ------------------------------------------------------------------------------
def test_a_missing_business_day_is_a_gap_and_a_holiday_is_not(tmp_path):
    fechas = dias_habiles("2025-02-26", 8, sin=("2025-03-06",))  # Carnaval skipped as well
    hallazgos = construir(tmp_path, {FERIADOS: CARNAVAL, UVA: serie(fechas)})
    huecos = de(hallazgos, calidad.GAP)
    assert [(h["tabla"], h["fecha"], h["valor"]) for h in huecos] == [("uva", "2025-03-06", "1")]
    assert "falta 1 día hábil: el 2025-03-06 (valores el 2025-03-05 y el 2025-03-07)" == huecos[0]["detalle"]


def test_a_series_without_missing_days_has_no_gap(tmp_path):
    # Weekends and Carnaval are no business days; a value on a Saturday is no problem either.
    fechas = sorted(dias_habiles("2025-02-26", 8) + ["2025-03-08"])
    hallazgos = construir(tmp_path, {FERIADOS: CARNAVAL, UVA: serie(fechas)})
    assert de(hallazgos, calidad.GAP) == []


def test_without_a_holiday_calendar_for_the_year_no_gap_is_claimed(tmp_path):
    hallazgos = construir(tmp_path, {FERIADOS: CARNAVAL, UVA: serie(["2019-01-02", "2019-01-10"])})
    assert de(hallazgos, calidad.GAP) == []


def test_a_missing_month_is_a_gap_in_a_monthly_series(tmp_path):
    meses = ["2024-10-31", "2024-11-30", "2025-02-28", "2025-03-31"]
    huecos = de(construir(tmp_path, {INFLACION: serie(meses)}), calidad.GAP)
    assert [(h["tabla"], h["fecha"], h["valor"]) for h in huecos] == [("inflacion", "2024-12-01", "2")]
    assert "de 2024-12 a 2025-01" in huecos[0]["detalle"]
    assert de(construir(tmp_path / "b", {INFLACION: serie(meses[2:])}), calidad.GAP) == []


# ---- stopped series ---------------------------------------------------------------------
def test_a_series_with_no_value_for_longer_than_usual_has_stopped(tmp_path):
    fechas = [(dt.date(2025, 1, 1) + dt.timedelta(days=i)).isoformat() for i in range(30)]  # up to 2025-01-30
    detenidas = de(construir(tmp_path, {UVA: serie(fechas)}, hoy=dt.date(2025, 3, 1)), calidad.STOPPED)
    assert [(h["tabla"], h["fecha"], h["valor"]) for h in detenidas] == [("uva", "2025-01-30", "30")]
    assert "espaciado habitual es de 1 día" in detenidas[0]["detalle"]


def test_a_series_up_to_date_at_build_time_has_not_stopped(tmp_path):
    fechas = [(dt.date(2025, 1, 1) + dt.timedelta(days=i)).isoformat() for i in range(30)]
    assert de(construir(tmp_path, {UVA: serie(fechas)}, hoy=dt.date(2025, 2, 4)), calidad.STOPPED) == []


# ---- jumps ---------------------------------------------------------------------------------
def test_a_change_far_beyond_the_usual_one_is_a_jump(tmp_path):
    fechas = dias_habiles("2025-01-02", 30)
    valores = [100 + i for i in range(30)]
    valores[20] = 200  # +66 %, and back
    saltos = de(construir(tmp_path, {UVA: serie(fechas, valores)}), calidad.JUMP)
    assert [(h["fecha"], h["campo"], json.loads(h["valor"])) for h in saltos] == [
        (fechas[20], "valor", [119, 200]),
        (fechas[21], "valor", [200, 121]),
    ]


def test_steady_changes_are_no_jump(tmp_path):
    fechas = dias_habiles("2025-01-02", 30)
    valores = [100 * 1.1**i for i in range(30)]  # +10 % a day: large, but the series' usual change
    assert de(construir(tmp_path, {UVA: serie(fechas, valores)}), calidad.JUMP) == []


def test_a_variation_that_crosses_zero_is_not_checked_for_jumps(tmp_path):
    meses = [f"{2000 + i // 12}-{i % 12 + 1:02d}-28" for i in range(30)]
    valores = [0.1 if i % 2 else 3.0 for i in range(30)]
    valores[5] = -0.5  # deflation: ratios mean nothing
    hallazgos = construir(tmp_path, {INFLACION: serie(meses, valores)})
    assert de(hallazgos, calidad.JUMP) == [] and de(hallazgos, calidad.UNIT_SWITCH) == []


def test_a_value_that_leaves_the_series_and_comes_back_is_one_finding_not_two_jumps(tmp_path):
    # A crawling peg (+0.1 % a business day, repeated on weekends) that shows +30 % on four days and comes back.
    dias = [dt.date(2025, 1, 1) + dt.timedelta(days=i) for i in range(90)]
    valor, valores = 300.0, []
    for d in dias:
        valor = round(valor * 1.001, 2) if d.weekday() < 5 else valor
        valores.append(valor)
    for i in range(60, 64):
        valores[i] = round(valores[59] * 1.3, 2)
    dolares = [cotizacion("mayorista", v, v + 1, d.isoformat()) for d, v in zip(dias, valores)]
    hallazgos = construir(tmp_path, {DOLARES: dolares})
    idas = de(hallazgos, calidad.EXCURSION)
    assert [(h["serie"], h["fecha"], h["hasta"], h["campo"]) for h in idas] == [
        ("casa=mayorista", dias[60].isoformat(), dias[63].isoformat(), "compra, venta")
    ]
    assert "4 valores fuera de lo habitual" in idas[0]["detalle"] and "la mediana" in idas[0]["detalle"]
    assert de(hallazgos, calidad.JUMP) == []  # 30 % twice, but one trip


def test_a_jump_that_stays_is_a_jump_and_no_trip(tmp_path):
    # A devaluation: +100 % in a day, then the crawling peg goes on from there.
    dias = [dt.date(2025, 1, 1) + dt.timedelta(days=i) for i in range(90)]
    valores = [round(300 * 1.001**i * (2 if i >= 60 else 1), 2) for i in range(90)]
    hallazgos = construir(
        tmp_path, {DOLARES: [cotizacion("oficial", v, v + 1, d.isoformat()) for d, v in zip(dias, valores)]}
    )
    assert de(hallazgos, calidad.EXCURSION) == []
    assert [h["fecha"] for h in de(hallazgos, calidad.JUMP)] == [dias[60].isoformat()]


def test_compra_and_venta_jumping_the_same_day_are_one_finding(tmp_path):
    fechas = dias_habiles("2025-01-02", 25)
    dolares = [cotizacion("oficial", 100 + i, 105 + i, f) for i, f in enumerate(fechas)]
    dolares[24] = cotizacion("oficial", 300, 320, fechas[24])
    saltos = de(construir(tmp_path, {DOLARES: dolares}), calidad.JUMP)
    assert [(h["serie"], h["fecha"], h["campo"]) for h in saltos] == [("casa=oficial", fechas[24], "compra, venta")]


# ---- unit switches ---------------------------------------------------------------------------
def test_a_fraction_written_as_a_percentage_is_a_unit_switch(tmp_path):
    fechas = dias_habiles("2025-01-02", 5)
    cambios = de(
        construir(tmp_path, {DEPOSITOS: serie(fechas, [0.3748, 0.375, 39.18, 0.3743, 0.376])}), calidad.UNIT_SWITCH
    )
    assert [(h["tabla"], h["fecha"], json.loads(h["valor"])) for h in cambios] == [
        ("depositos_30_dias", fechas[2], [0.375, 39.18]),
        ("depositos_30_dias", fechas[3], [39.18, 0.3743]),
    ]
    assert "×104" in cambios[0]["detalle"]


def test_a_series_in_one_unit_has_no_unit_switch(tmp_path):
    fechas = dias_habiles("2025-01-02", 5)
    hallazgos = construir(tmp_path, {DEPOSITOS: serie(fechas, [0.37, 0.38, 0.9, 0.39, 0.4])})
    assert de(hallazgos, calidad.UNIT_SWITCH) == []


# ---- two values for one date ----------------------------------------------------------------------
def moneda(m, compra, fecha):
    return {"moneda": m, "casa": "oficial", "compra": compra, "venta": compra + 1, "fecha": fecha}


def test_one_date_with_two_different_values_is_reported(tmp_path):
    monedas = [moneda("USD", 10, "2025-02-03"), moneda("USD", 11, "2025-02-03"), moneda("EUR", 11, "2025-02-03")]
    conflictos = de(construir(tmp_path, {MONEDAS: monedas}), calidad.CONFLICT)
    assert [(h["tabla"], h["serie"], h["fecha"]) for h in conflictos] == [("cotizaciones", "moneda=USD", "2025-02-03")]
    assert json.loads(conflictos[0]["valor"]) == [[10, 11], [11, 12]]


def test_the_same_record_twice_is_no_conflict(tmp_path):
    monedas = [moneda("USD", 10, "2025-02-03"), moneda("USD", 10, "2025-02-03")]
    assert de(construir(tmp_path, {MONEDAS: monedas}), calidad.CONFLICT) == []


# ---- two routes publishing the same record ---------------------------------------------------------
def dos_dias(casa: str, compras: tuple) -> list[dict]:
    return [cotizacion(casa, c, 913, f) for c, f in zip(compras, ("2025-02-03", "2025-02-04"))]


def test_two_lists_that_disagree_on_one_day_are_one_finding(tmp_path):
    todas = dos_dias("oficial", (873, 874)) + dos_dias("blue", (1200, 1210))
    hallazgos = construir(tmp_path, {DOLARES: todas, DOLARES + "/oficial": dos_dias("oficial", (873, 914))})
    desacuerdos = de(hallazgos, calidad.DISAGREEMENT)
    assert [(h["tabla"], h["ruta"], h["fecha"], h["serie"], h["campo"]) for h in desacuerdos] == [
        ("cotizaciones_dolares_casa", "/v1/cotizaciones/dolares/oficial", "2025-02-04", "casa=oficial", "compra, venta")
    ]
    # Both values, this table's first (as «dos valores para una fecha»: one [compra, venta] per record).
    assert json.loads(desacuerdos[0]["valor"]) == [[914, 913], [874, 913]]
    assert desacuerdos[0]["detalle"] == (
        "el mismo registro con otros valores: compra 914 en /v1/cotizaciones/dolares/oficial "
        "(cotizaciones_dolares_casa), compra 874 en /v1/cotizaciones/dolares (cotizaciones_dolares); venta igual (913)"
    )


def test_lists_that_agree_have_no_disagreement(tmp_path):
    todas = dos_dias("oficial", (873, 874)) + dos_dias("blue", (1200, 1210))
    # One house's list may also lack days of the full one (or have more): that is no disagreement.
    hallazgos = construir(tmp_path, {DOLARES: todas, DOLARES + "/oficial": dos_dias("oficial", (873,))})
    assert de(hallazgos, calidad.DISAGREEMENT) == []


def test_a_per_date_file_that_disagrees_with_its_list_is_reported(tmp_path):
    todas = dos_dias("oficial", (873, 874)) + dos_dias("blue", (1200, 1210))
    hallazgos = construir(
        tmp_path,
        {
            DOLARES: todas,
            DOLARES + "/2025/02/03": [
                cotizacion("oficial", 873, 913, "2025-02-03"),
                cotizacion("blue", 1200, 913, "2025-02-03"),
            ],
            DOLARES + "/2025/02/04": [
                cotizacion("oficial", 874, 913, "2025-02-04"),
                cotizacion("blue", 1200, 920, "2025-02-04"),
            ],
        },
    )
    desacuerdos = de(hallazgos, calidad.DISAGREEMENT)
    assert [(h["tabla"], h["ruta"], h["fecha"], h["serie"]) for h in desacuerdos] == [
        ("cotizaciones_dolares_fecha", "/v1/cotizaciones/dolares/2025/02/04", "2025-02-04", "casa=blue")
    ]
    assert json.loads(desacuerdos[0]["valor"]) == [[1200, 920], [1210, 913]]
    assert "compra 1200, venta 920 en /v1/cotizaciones/dolares/2025/02/04" in desacuerdos[0]["detalle"]
    assert "compra 1210, venta 913 en /v1/cotizaciones/dolares (cotizaciones_dolares)" in desacuerdos[0]["detalle"]


def test_a_currency_list_is_matched_by_its_records_moneda(tmp_path):
    # cotizaciones_moneda's partition «divisa» is the route's lowercase code; the records say «moneda».
    monedas = [moneda("USD", 873, "2025-02-03"), moneda("EUR", 900, "2025-02-03")]
    hallazgos = construir(tmp_path, {MONEDAS: monedas, MONEDAS + "/usd": [moneda("USD", 913, "2025-02-03")]})
    desacuerdos = de(hallazgos, calidad.DISAGREEMENT)
    assert [(h["tabla"], h["ruta"], h["serie"], json.loads(h["valor"])) for h in desacuerdos] == [
        ("cotizaciones_moneda", "/v1/cotizaciones/usd", "moneda=USD", [[913, 914], [873, 874]])
    ]


def test_a_record_the_list_has_twice_agrees_when_one_copy_does(tmp_path):
    # Two values in the list for one day are «dos valores para una fecha»; the file agrees with one of them.
    monedas = [moneda("USD", 873, "2025-02-03"), moneda("USD", 913, "2025-02-03")]
    hallazgos = construir(tmp_path, {MONEDAS: monedas, MONEDAS + "/usd": [moneda("USD", 913, "2025-02-03")]})
    assert len(de(hallazgos, calidad.CONFLICT)) == 1
    assert de(hallazgos, calidad.DISAGREEMENT) == []


# ---- broken encoding ------------------------------------------------------------------------------
def test_utf8_read_as_latin1_is_reported_with_its_repair(tmp_path):
    feriados = [
        {"fecha": "2025-06-20", "tipo": "inamovible", "nombre": "DÃ­a de la Bandera"},
        {"fecha": "2025-07-09", "tipo": "inamovible", "nombre": "DÃ­a de la Bandera"},
        {"fecha": "2025-05-25", "tipo": "inamovible", "nombre": "Revolución de Mayo"},
    ]
    rotos = de(construir(tmp_path, {FERIADOS: feriados}), calidad.ENCODING)
    assert [(h["tabla"], h["campo"], json.loads(h["valor"])) for h in rotos] == [
        ("feriados", "nombre", "DÃ­a de la Bandera")
    ]
    assert "sería «Día de la Bandera»" in rotos[0]["detalle"] and "en 2 filas" in rotos[0]["detalle"]


def test_a_bank_whose_name_came_mis_encoded_keeps_its_id_and_the_finding_shows_the_merge(tmp_path):
    def banco(entidad):
        return {"entidad": entidad, "logo": None, "tnaClientes": 0.3, "tnaNoClientes": 0, "enlace": None, "tasas": []}

    bien, roto = (
        "CRÉDITO REGIONAL COMPAÑÍA FINANCIERA S.A.U.",
        "CRÃ\x89DITO REGIONAL COMPAÃ\x91Ã\x8dA FINANCIERA S.A.U.",
    )
    hallazgos = de(construir(tmp_path, {PLAZO_FIJO: [banco(bien), banco(roto)]}), calidad.ENCODING)
    with sqlite3.connect(tmp_path / "a.db") as con:
        ids = con.execute("SELECT entidad, entidadId FROM plazo_fijo ORDER BY fila").fetchall()
    assert ids == [(bien, "credito-regional-compania-financiera"), (roto, "credito-regional-compania-financiera")]
    assert [json.loads(h["valor"]) for h in hallazgos] == [roto]
    assert f"su id es «credito-regional-compania-financiera», el de «{bien}»" in hallazgos[0]["detalle"]


def test_spanish_and_portuguese_text_is_not_mojibake(tmp_path):
    feriados = [{"fecha": "2025-06-20", "tipo": "inamovible", "nombre": "Día de São Paulo, ÑANDÚ"}]
    assert de(construir(tmp_path, {FERIADOS: feriados}), calidad.ENCODING) == []


# ---- the audit and the rest of calidad ------------------------------------------------------------
def test_codec_findings_and_audit_findings_share_the_table(tmp_path):
    fechas = dias_habiles("2025-02-26", 8, sin=("2025-03-06",))
    registros = serie(fechas)
    registros[1] = {"fecha": "2025-02-27", "valor": "14,06"}  # wrong type
    registros.append({"fecha": "2025-02-30", "valor": 1})  # impossible date
    hallazgos = construir(tmp_path, {FERIADOS: CARNAVAL, UVA: registros})
    assert [(h["control"], h["registro"], h["campo"], h["fecha"]) for h in hallazgos] == [
        (calidad.WRONG_TYPE, 2, "valor", None),
        (calidad.IMPOSSIBLE_DATE, 9, "fecha", None),
        (calidad.LATE, None, "valor", "2025-03-12"),  # the catalogue of series: its cadence is 5 days
        (calidad.GAP, None, None, "2025-03-06"),
    ]


def test_a_failing_check_is_reported_and_the_build_goes_on(tmp_path, monkeypatch):
    def roto(db, layout):
        raise sqlite3.OperationalError("no such column: compra")

    monkeypatch.setattr(auditoria, "buy_above_sell", roto)
    hallazgos = construir(tmp_path, {DOLARES: [cotizacion("blue", 12, 11, "2025-02-04")]})
    fallas = de(hallazgos, calidad.BUY_ABOVE_SELL)
    assert [h["tabla"] for h in fallas] == ["cotizaciones_dolares"]
    assert fallas[0]["detalle"] == "no se pudo revisar: no such column: compra"


def test_a_check_with_a_bug_fails_instead_of_becoming_a_finding(tmp_path, monkeypatch):
    def con_error(db, layout):
        return [1 + None]  # a Python error in a check is a bug, not a fact about the data

    monkeypatch.setattr(auditoria, "buy_above_sell", con_error)
    with pytest.raises(TypeError):
        construir(tmp_path, {DOLARES: [cotizacion("blue", 12, 11, "2025-02-04")]})


def test_a_check_that_files_a_control_it_does_not_declare_fails(tmp_path, monkeypatch):
    """Each Check declares its controls (auditoria.CHECKS): an incremental build keeps a kept table's findings of the
    checks it does not run by them, so a finding under another control would be kept beside the new one."""

    def otro_control(db, layout):
        return [calidad.Finding(tabla=layout.table, control=calidad.GAP, detalle="de otro control")]

    monkeypatch.setattr(auditoria, "buy_above_sell", otro_control)
    with pytest.raises(ValueError, match=f"no declara: {calidad.GAP}"):
        construir(tmp_path, {DOLARES: [cotizacion("blue", 12, 11, "2025-02-04")]})


def test_a_pair_that_cannot_be_compared_is_reported(tmp_path, monkeypatch):
    def roto(db, pair, routes):
        raise sqlite3.OperationalError("no such column: compra")

    monkeypatch.setattr(auditoria, "disagreements", roto)
    dolares = dos_dias("oficial", (873, 874))
    hallazgos = de(construir(tmp_path, {DOLARES: dolares, DOLARES + "/oficial": dolares}), calidad.DISAGREEMENT)
    assert [(h["tabla"], h["detalle"]) for h in hallazgos] == [
        ("cotizaciones_dolares_casa", "no se pudo revisar contra cotizaciones_dolares: no such column: compra")
    ]


def test_the_build_prints_one_line_per_table_and_check(tmp_path, capsys):
    root = tmp_path / "fuente"
    escribir(root, DEPOSITOS, serie(dias_habiles("2025-01-02", 5), [0.37, 38.1, 0.38, 39.1, 0.4]))
    code = cli.main(["--source", str(root), "--output", str(tmp_path / "a.db"), "--detalle"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "aviso: depositos_30_dias: cambio de unidad: 4 hallazgos" in err.splitlines()


def test_without_detalle_the_build_counts_the_findings_instead_of_listing_them(tmp_path, capsys):
    root = tmp_path / "fuente"
    escribir(root, DEPOSITOS, serie(dias_habiles("2025-01-02", 5), [0.37, 38.1, 0.38, 39.1, 0.4]))
    code = cli.main(["--source", str(root), "--output", str(tmp_path / "a.db")])
    err = capsys.readouterr().err
    assert code == 0, err
    assert not [line for line in err.splitlines() if line.startswith("aviso:")], err
    # 4 unit switches, and the series ends in January 2025: «serie atrasada» on any day the test runs
    assert "5 hallazgos de calidad (datos guardados tal como llegaron): ver la tabla calidad, o --detalle" in err


def test_only_a_text_that_was_utf8_read_as_latin1_is_repaired():
    assert repair_mojibake("CRÃ\x89DITO") == "CRÉDITO"  # Latin-1: 0x89 is a control character
    assert repair_mojibake("CrÃ©dito") == "Crédito"  # Windows-1252
    assert repair_mojibake("CRÉDITO") is None  # a right spelling stays
    assert repair_mojibake("BANCO DE LA NACION ARGENTINA") is None  # ASCII: nothing to repair


# ---- the real mirror ------------------------------------------------------------------------------
@pytest.mark.mirror
def test_the_real_build_audits_what_real_data_has(conn):
    found = dict(conn.execute("SELECT control, count(*) FROM calidad GROUP BY control").fetchall())
    # The mirror is frozen in 2026: at any later build its series have stopped.
    for control in (calidad.BUY_ABOVE_SELL, calidad.GAP, calidad.STOPPED, calidad.JUMP, calidad.UNIT_SWITCH):
        assert found.get(control, 0) > 0, control
    # Upstream's known quirks, each where the catalogue says.
    assert conn.execute(
        "SELECT count(*) FROM calidad WHERE tabla = 'depositos_30_dias' AND control = ? AND fecha = '2024-08-27'",
        [calidad.UNIT_SWITCH],
    ).fetchone() == (1,)
    assert conn.execute(
        "SELECT count(*) FROM calidad WHERE tabla = 'diputados_misiones' AND control = ? AND valor LIKE '%Asunci%'",
        [calidad.ENCODING],
    ).fetchone() == (1,)
    # Readable: a few hundred findings, not one per row.
    assert sum(found.get(c, 0) for c in calidad.AUDIT_CHECKS) < 1000
    assert not conn.execute("SELECT count(*) FROM calidad WHERE detalle LIKE 'no se pudo revisar%'").fetchone()[0]


@pytest.mark.mirror
def test_every_real_quote_with_compra_above_venta_is_marked(conn):
    rows = conn.execute(
        "SELECT casa, fecha FROM cotizaciones_dolares WHERE compra > venta AND fecha GLOB '[0-9]*'"
    ).fetchall()
    assert len(rows) > 100  # 222 in the mirror of 2026-02
    unmarked = conn.execute(
        "SELECT count(*) FROM cotizaciones_dolares d WHERE compra > venta AND NOT EXISTS (SELECT 1 FROM calidad c "
        "WHERE c.tabla = 'cotizaciones_dolares' AND c.control = ? AND c.serie = 'casa=' || d.casa "
        "AND d.fecha BETWEEN c.fecha AND coalesce(c.hasta, c.fecha))",
        [calidad.BUY_ABOVE_SELL],
    ).fetchone()[0]
    assert unmarked == 0


@pytest.mark.mirror
def test_the_real_build_reports_the_lists_that_disagree(conn):
    rows = conn.execute(
        "SELECT tabla, ruta, fecha, serie, valor, detalle FROM calidad WHERE control = ? ORDER BY id",
        [calidad.DISAGREEMENT],
    ).fetchall()
    dolares = [r for r in rows if r[0].startswith("cotizaciones_dolares")]
    assert len(dolares) > 0
    assert not [r for r in rows if r[5].startswith("no se pudo revisar")]
    for tabla, ruta, fecha, serie, valor, detalle in rows:
        ours, theirs = json.loads(valor)  # both values, [compra, venta] each
        assert len(ours) == len(theirs) == 2 and ours != theirs, valor
        assert ruta and fecha and serie and " en " in detalle, (tabla, ruta, fecha, serie)
    # Upstream's known contradiction: the oficial house's list and the all-houses list, May 2024.
    assert ("cotizaciones_dolares_casa", "/v1/cotizaciones/dolares/oficial", "2024-05-30", "casa=oficial") in [
        r[:4] for r in dolares
    ]
    known = next(r for r in dolares if r[0] == "cotizaciones_dolares_casa" and r[2] == "2024-05-30")
    assert json.loads(known[4]) == [[913, 913], [873, 913]]


@pytest.mark.mirror
@pytest.mark.parametrize("table", ["plazo_fijo", "plazo_fijo_historico"])
def test_no_plazo_fijo_id_is_made_of_mis_encoded_text(conn, table):
    rows = conn.execute(f"SELECT DISTINCT entidad, entidadId FROM {table} WHERE entidad IS NOT NULL").fetchall()
    ids = {i for _, i in rows}
    mis_encoded = [(name, i) for name, i in rows if repair_mojibake(name)]
    for name, i in mis_encoded:
        assert i == entity_id(repair_mojibake(name)), name
    assert all(i.isascii() and "aa" not in i for i in ids), sorted(i for i in ids if "aa" in i)
    if table == "plazo_fijo_historico":
        # Crédito Regional and REBA: 37 versions each came mis-encoded, and join each bank's series.
        assert {i for _, i in mis_encoded} == {"credito-regional-compania-financiera", "reba-compania-financiera"}
        merged = conn.execute(
            "SELECT detalle FROM calidad WHERE tabla = ? AND control = ? AND campo = 'entidad' AND valor LIKE '%REBA%'",
            [table, calidad.ENCODING],
        ).fetchone()[0]
        assert "su id es «reba-compania-financiera», el de «REBA COMPAÑIA FINANCIERA S.A.»" in merged
