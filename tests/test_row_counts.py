"""Every dataset's row count equals the record count read straight from the source files.

The file lists here are written out independently of the catalogue on purpose.
"""

import json

import pytest
from paths import HISTORY, UPSTREAM

FILES = {
    "feriados": ["v1/feriados/index.json", "v1/feriados/[0-9][0-9][0-9][0-9]/index.json"],
    "feriados_bancarios": ["v1/feriados-bancarios/index.json", "v1/feriados-bancarios/[0-9][0-9][0-9][0-9]/index.json"],
    "eventos_presidenciales": ["v1/eventos/presidenciales/index.json"],
    "presidentes": ["v1/presidentes/index.json"],
    "cotizaciones_dolares": ["v1/cotizaciones/dolares/index.json"],
    "cotizaciones_dolares_casa": ["v1/cotizaciones/dolares/[a-z]*/index.json"],
    "cotizaciones_dolares_fecha": ["v1/cotizaciones/dolares/[0-9][0-9][0-9][0-9]/[0-9][0-9]/[0-9][0-9]/index.json"],
    "cotizaciones": ["v1/cotizaciones/index.json"],
    "cotizaciones_moneda": ["v1/cotizaciones/[a-z][a-z][a-z]/index.json"],
    "cotizaciones_moneda_fecha": [
        ("v1/cotizaciones/[a-z][a-z][a-z]/[0-9][0-9][0-9][0-9]/[0-9][0-9]/[0-9][0-9]/index.json", None, "objeto")
    ],
    "cotizaciones_fecha": ["v1/cotizaciones/[0-9][0-9][0-9][0-9]/[0-9][0-9]/[0-9][0-9]/index.json"],
    "inflacion": ["v1/finanzas/indices/inflacion/index.json"],
    "inflacion_interanual": ["v1/finanzas/indices/inflacionInteranual/index.json"],
    "uva": ["v1/finanzas/indices/uva/index.json"],
    "riesgo_pais": ["v1/finanzas/indices/riesgo-pais/index.json"],
    "confianza_gobierno": ["v1/politica/indices/confianza-gobierno/index.json"],
    "depositos_30_dias": ["v1/finanzas/tasas/depositos30Dias/index.json"],
    "plazo_fijo": ["v1/finanzas/tasas/plazoFijo/index.json"],
    "plazo_fijo_uva_pago_periodico": ["v1/finanzas/tasas/plazoFijoUvaPagoPeriodico/index.json"],
    "plazo_fijo_precancelable": ["v1/finanzas/tasas/plazoFijoPrecancelable/index.json"],
    "criptopesos": ["v1/finanzas/criptopesos/index.json"],
    "cuentas_remuneradas_usd": ["v1/finanzas/cuentas-remuneradas-usd/index.json"],
    "remesas": [("v1/finanzas/remesas/index.json", "remesas")],
    "cobros_comisiones": [("v1/finanzas/cobros/comisiones/index.json", "comisiones")],
    "brokers_comisiones": [("v1/finanzas/brokers/comisiones/index.json", "comisiones")],
    "hipotecarios_uva": ["v1/finanzas/creditos/hipotecariosUva/index.json"],
    "hipotecarios_uva_anteriores": ["v1/finanzas/hipotecarios-uva/index.json"],
    "inflacion_rem": ["v1/finanzas/inflacion/rem/index.json"],
    "plazos_fijos_por_dia": ["v1/finanzas/tasas/plazosFijos/index.json"],
    "prestamos_personales": ["v1/finanzas/creditos/prestamosPersonales/index.json"],
    "prestamos_personales_bcra": ["v1/finanzas/creditos/prestamosPersonalesBcra/index.json"],
    "fci_valores": [
        f"v1/finanzas/fci/{c}/{d}/index.json"
        for c in ("mercadoDinero", "rentaVariable", "rentaFija", "rentaMixta", "retornoTotal")
        for d in ("ultimo", "penultimo", "[0-9][0-9][0-9][0-9]/[0-9][0-9]/[0-9][0-9]")
    ],
    "fci_fondos": [("v1/finanzas/fci/fondos/index.json", "fondos")],
    "fci_fondos_historico": [("v1/finanzas/fci/fondos/*/historico/index.json", "historico")],
    "senadores": ["v1/senado/senadores/index.json"],
    "senado_documentos": [("v1/senado/viajes/index.json", "documentos")],
    "senado_viajes_nacionales": [("v1/senado/viajes/index.json", "nacionales")],
    "senado_viajes_internacionales": [("v1/senado/viajes/index.json", "internacionales")],
    "rems": ["v1/rems/ultimo/index.json", "v1/rems/[0-9][0-9][0-9][0-9]/[0-9][0-9]/index.json"],
    "rems_informes": ["v1/rems/index.json"],
    # ---- senado (nuevas rutas) ----
    # the index /v1/senado/actas and every year's file (an acta is in both)
    "senado_actas": ["v1/senado/actas/index.json", "v1/senado/actas/[0-9][0-9][0-9][0-9]/index.json"],
    "senado_bloques": ["v1/senado/bloques/index.json"],
    "senado_comisiones": ["v1/senado/comisiones/index.json"],
    "senado_comisiones_detalle": [("v1/senado/comisiones/*/index.json", None, "objeto")],
    "senado_senadores_comisiones": ["v1/senado/senadores/*/comisiones/index.json"],
    "senado_viajes_conteo": [("v1/senado/viajes/conteo/index.json", "porSenador")],
    "senado_viajes_conteo_12m": [("v1/senado/viajes/conteo-12m/index.json", "porSenador")],
    "senado_presidencia": [("v1/senado/presidencia/index.json", None, "objeto")],
    "senado_escala_salarial": [("v1/senado/escala-salarial/index.json", None, "objeto")],
    "senado_gasto": [("v1/senado/gasto/index.json", None, "objeto")],
    "senado_personal": [("v1/senado/senadores/*/personal/index.json", None, "objeto")],
    "senado_dietas_mecanismos": [("v1/senado/senadores/dietas-mecanismos/index.json", "senadores")],
    # ---- fin senado ----
    # ---- diputados ----
    "diputados": ["v1/diputados/diputados/index.json"],
    "diputados_periodos": [("v1/diputados/periodos/index.json", "periodos")],
    "diputados_comisiones": [("v1/diputados/comisiones/*/index.json", None, "objeto")],
    "diputados_recinto": [("v1/diputados/recinto/index.json", "asientos")],
    "diputados_actas": ["v1/diputados/actas/[0-9][0-9][0-9][0-9]/index.json"],
    "diputados_viajes_por_diputado": [("v1/diputados/diputados/*/viajes/index.json", None, "objeto")],
    "diputados_misiones_por_diputado": [("v1/diputados/diputados/*/misiones/index.json", None, "objeto")],
    # an object keyed by id: one row per key
    "diputados_viajes_conteo": [("v1/diputados/viajes/conteo/index.json", "porDiputado")],
    "diputados_viajes_conteo_12m": [("v1/diputados/viajes/conteo-12m/index.json", "porDiputado")],
    # ---- fin diputados ----
    # ---- finanzas (nuevas rutas) ----
    "rendimientos": ["v1/finanzas/rendimientos/index.json"],
    "rendimientos_entidad": ["v1/finanzas/rendimientos/*/index.json"],
    # a fund's history: every file of the folder but the listings ultimo and penultimo
    "fci_otros": [
        str(p.relative_to(UPSTREAM))
        for p in sorted(UPSTREAM.glob("v1/finanzas/fci/otros/*/index.json"))
        if p.parent.name not in ("ultimo", "penultimo")
    ],
    "fci_otros_listados": ["v1/finanzas/fci/otros/ultimo/index.json", "v1/finanzas/fci/otros/penultimo/index.json"],
    "fci_variables": [
        str(p.relative_to(UPSTREAM))
        for p in sorted(UPSTREAM.glob("v1/finanzas/fci/variables/*/index.json"))
        if p.parent.name not in ("ultimo", "penultimo")
    ],
    "fci_variables_listados": [
        "v1/finanzas/fci/variables/ultimo/index.json",
        "v1/finanzas/fci/variables/penultimo/index.json",
    ],
    "fci_comparatasas": [("v1/finanzas/fci/comparatasas/index.json", "fondos")],
    "bonos_cer": [("v1/finanzas/bonos-cer/index.json", "bonos")],
    "letras": [("v1/finanzas/letras/index.json", "letras")],
    "finanzas_rem": ["v1/finanzas/rem/ultimo/index.json", "v1/finanzas/rem/[0-9][0-9][0-9][0-9]/[0-9][0-9]/index.json"],
    "finanzas_rem_informes": ["v1/finanzas/rem/index.json"],
    "estado": [("v1/estado/index.json", None, "objeto")],
    # ---- fin finanzas ----
}
HISTORY_FILES = {  # history table: (route of the latest-only file, list key of its envelope or None)
    "plazo_fijo_historico": ("v1/finanzas/tasas/plazoFijo", None),
    "criptopesos_historico": ("v1/finanzas/criptopesos", None),
    "hipotecarios_uva_historico": ("v1/finanzas/creditos/hipotecariosUva", None),
    "cuentas_remuneradas_usd_historico": ("v1/finanzas/cuentas-remuneradas-usd", None),
    "plazo_fijo_uva_pago_periodico_historico": ("v1/finanzas/tasas/plazoFijoUvaPagoPeriodico", None),
    "plazo_fijo_precancelable_historico": ("v1/finanzas/tasas/plazoFijoPrecancelable", None),
    "remesas_historico": ("v1/finanzas/remesas", "remesas"),
    "cobros_comisiones_historico": ("v1/finanzas/cobros/comisiones", "comisiones"),
    "brokers_comisiones_historico": ("v1/finanzas/brokers/comisiones", "comisiones"),
    "prestamos_personales_historico": ("v1/finanzas/creditos/prestamosPersonales", None),
    "prestamos_personales_bcra_historico": ("v1/finanzas/creditos/prestamosPersonalesBcra", None),
    "bonos_cer_historico": ("v1/finanzas/bonos-cer", "bonos"),
    "letras_historico": ("v1/finanzas/letras", "letras"),
    "rendimientos_historico": ("v1/finanzas/rendimientos", None),
}
CHILDREN = {  # child table: (parent files, parent list key or None, path to the nested list)
    "plazo_fijo_tasas": ("plazo_fijo", ["tasas"]),
    "plazo_fijo_uva_pago_periodico_tasas": ("plazo_fijo_uva_pago_periodico", ["tasas"]),
    "prestamos_personales_tasas": ("prestamos_personales", ["metadata", "tasasPorPlazo"]),
    "fci_fondos_composicion_cartera": ("fci_fondos", ["composicionCartera"]),
    "fci_fondos_calificaciones": ("fci_fondos", ["calificaciones"]),
    "fci_fondos_sociedades": ("fci_fondos", ["sociedades"]),
    # senado (the lists nested in a nested list, gasto's blocs' porCategoria, are counted in test_senado.py)
    "senado_actas_votos": ("senado_actas", ["votos"]),
    "senado_bloques_senadores": ("senado_bloques", ["senadores"]),
    "senado_bloques_personal": ("senado_bloques", ["personal"]),
    "senado_bloques_personal_detalle": ("senado_bloques", ["personalDetalle"]),
    "senado_bloques_gasto_por_categoria": ("senado_bloques", ["gasto", "porCategoria"]),
    "senado_comisiones_integrantes": ("senado_comisiones", ["integrantes"]),
    "senado_comisiones_detalle_integrantes": ("senado_comisiones_detalle", ["integrantes"]),
    "senado_escala_salarial_categorias": ("senado_escala_salarial", ["categorias"]),
    "senado_escala_salarial_conceptos": ("senado_escala_salarial", ["conceptos"]),
    "senado_gasto_bloques": ("senado_gasto", ["bloques"]),
    "senado_gasto_senadores": ("senado_gasto", ["senadores"]),
    "senado_personal_personal": ("senado_personal", ["personal"]),
    "senado_personal_personal_detalle": ("senado_personal", ["personalDetalle"]),
    "senado_personal_gasto_por_categoria": ("senado_personal", ["gasto", "porCategoria"]),
    # diputados
    "diputados_meta_comisiones": ("diputados", ["meta", "comisiones"]),
    "diputados_periodos_tramos": ("diputados_periodos", ["tramos"]),
    "diputados_comisiones_integrantes": ("diputados_comisiones", ["integrantes"]),
    "diputados_actas_votos": ("diputados_actas", ["votos"]),
    "diputados_viajes_nacionales": ("diputados_viajes_por_diputado", ["nacionales"]),
    "diputados_viajes_internacionales": ("diputados_viajes_por_diputado", ["internacionales"]),
    "diputados_misiones": ("diputados_misiones_por_diputado", ["misiones"]),
    # finanzas
    "rendimientos_monedas": ("rendimientos", ["rendimientos"]),
    "fci_comparatasas_composicion_cartera": ("fci_comparatasas", ["composicionCartera"]),
    "fci_comparatasas_calificaciones": ("fci_comparatasas", ["calificaciones"]),
    "fci_comparatasas_sociedades": ("fci_comparatasas", ["sociedades"]),
}


def records(table):
    out = []
    for spec in FILES[table]:
        pattern, key, *single = spec if isinstance(spec, tuple) else (spec, None)
        for path in sorted(UPSTREAM.glob(pattern)):
            data = json.loads(path.read_text())
            if single:  # one record per file
                out.append(data)
            else:
                out.extend(data[key] if key else data)
    return out


def count(conn, table):
    return conn.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]


@pytest.mark.parametrize("table", sorted(FILES))
def test_rows_equal_source_records(conn, table):
    expected = records(table)
    assert expected, f"the mirror has no files for {table}"
    assert count(conn, table) == len(expected)


@pytest.mark.parametrize("table", sorted(HISTORY_FILES))
def test_history_rows_equal_source_records(conn, table):
    """Each dated file of the history tree is a version, unless it is the same file as the day before (the
    versions store keeps that version once, on its first day); the file upstream publishes now is the
    newest version unless it equals the newest dated file."""
    route, key = HISTORY_FILES[table]

    def listed(data):
        return data[key] if key else data

    rows = dict(conn.execute(f'SELECT fecha, count(*) FROM "{table}" GROUP BY fecha').fetchall())
    files = {p.stem: json.loads(p.read_text()) for p in sorted(HISTORY.glob(route + "/*.json"))}
    seeds = {fecha: listed(data) for fecha, data in files.items()}
    previous = None
    for fecha, data in files.items():
        assert rows.get(fecha, 0) == (0 if data == previous else len(listed(data))), fecha
        previous = data
    current = listed(json.loads((UPSTREAM / route / "index.json").read_text()))
    if not seeds or seeds[max(seeds)] != current:
        newest = max(rows) if rows else None
        assert newest is not None and newest not in seeds and rows[newest] == len(current)


@pytest.mark.parametrize("child", sorted(CHILDREN))
def test_child_rows_equal_nested_records(conn, child):
    parent, path = CHILDREN[child]
    expected = 0
    for record in records(parent):
        value = record
        for part in path:
            value = value.get(part) if isinstance(value, dict) else None
        expected += len(value or [])
    assert count(conn, child) == expected


def test_every_catalogue_table_is_counted():
    from argentina_datos.catalogo import DATASETS

    assert {d.table for d in DATASETS} == set(FILES) | set(HISTORY_FILES)


def test_fuentes_lists_every_file(conn):
    n_files = sum(
        len(list(UPSTREAM.glob(s if isinstance(s, str) else s[0]))) for specs in FILES.values() for s in specs
    )
    # /v1/senado/viajes feeds three tables: one fuentes row per (file, table).
    assert conn.execute("SELECT count(*) FROM fuentes").fetchone()[0] >= n_files
    bad = conn.execute("SELECT ruta FROM fuentes WHERE registros < 0 OR bytes < 2 OR length(sha256) != 64").fetchall()
    assert bad == []
    # an empty listing (an FCI weekend, "[]") is a file too, with 0 records
    empty = sum(1 for p in UPSTREAM.glob("v1/finanzas/fci/*/*/*/*/index.json") if p.read_bytes().strip() == b"[]")
    assert conn.execute("SELECT count(*) FROM fuentes WHERE registros = 0").fetchone()[0] >= empty
