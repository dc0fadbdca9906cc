"""An update over HTTP: conditional requests for what the previous build read, no request for past
days, only new or changed files downloaded; history carried; the result equals a fresh build."""

import datetime as dt
import json
import os
import sqlite3
import time

from servidor_local import LocalServer

from argentina_datos.construccion import cli

TODAY = dt.date.today()
PF = "v1/finanzas/tasas/plazoFijo"


def day(n: int) -> str:
    return (TODAY - dt.timedelta(days=n)).strftime("%Y/%m/%d")


def write(root, route, data):
    path = root / route / "index.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return path


def fund(name, fecha, vcp):
    return {"fondo": name, "horizonte": "corto", "fecha": fecha, "vcp": vcp, "ccp": 10, "patrimonio": 1000}


def mirror(root):
    write(root, "v1/feriados/2025", [{"fecha": "2025-01-01", "tipo": "inamovible", "nombre": "Año nuevo"}])
    write(root, "v1/finanzas/indices/uva", [{"fecha": "2016-03-31", "valor": 14.05}])
    old = write(root, PF, [{"entidad": "A", "logo": None, "tnaClientes": 0.3, "tnaNoClientes": None}])
    two_days_ago = time.time() - 2 * 86400
    os.utime(old, (two_days_ago, two_days_ago))  # its Last-Modified dates the version
    for n in (15, 3, 2):
        write(root, f"v1/finanzas/fci/mercadoDinero/{day(n)}", [fund("F", day(n).replace("/", "-"), 1.0 + n)])
    write(root, "v1/finanzas/fci/mercadoDinero/ultimo", [fund("F", day(2).replace("/", "-"), 3.0)])


def build(srv, out, capsys):
    capsys.readouterr()
    code = cli.main(
        ["--source", srv.url, "--output", str(out), "--fci-desde", day(20).replace("/", "-"), "--retries", "1"]
    )
    err = capsys.readouterr().err
    assert code == 0, err
    return err


def counts(db):
    with sqlite3.connect(db) as con:
        tables = [
            r[0]
            for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE '%fts%' AND name NOT IN ('_construccion', 'cambios')"
            )
        ]
        out = {t: con.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables}
        # versions accumulate: their fuentes rows are compared apart
        out["fuentes"] = con.execute("SELECT count(*) FROM fuentes WHERE tabla NOT LIKE '%historico%'").fetchone()[0]
        return out


async def test_no_change_update_and_one_day_update(tmp_path, capsys):
    root, out = tmp_path / "espejo", tmp_path / "argentina.db"
    mirror(root)
    with LocalServer(root) as srv:
        build(srv, out, capsys)
        first = counts(out)
        full_requests = sum(srv.requested.values())

        # nothing changed: conditional requests answered 304, past days not asked at all
        srv.requested.clear(), srv.answered.clear()
        err = build(srv, out, capsys)
        assert srv.answered[200] == 0 and srv.answered[304] >= 5
        assert f"/{day(15)}" not in "".join(srv.requested)  # a settled day
        assert sum(srv.requested.values()) < full_requests
        assert "0 nuevos, 0 cambiados" in err
        # routes absent yesterday are not asked for again, but for the last days (new files appear there)
        assert all(
            p.endswith(tuple(f"/{day(n)}" for n in range(0, 8)))
            for p in srv.requested
            if not (root / p.lstrip("/") / "index.json").exists()
        )
        assert counts(out) == first

        # a day later: plazo fijo changes, a new FCI day appears
        write(root, PF, [{"entidad": "A", "logo": None, "tnaClientes": 0.29, "tnaNoClientes": None}])
        write(root, f"v1/finanzas/fci/mercadoDinero/{day(1)}", [fund("F", day(1).replace("/", "-"), 2.0)])
        srv.requested.clear(), srv.answered.clear()
        err = build(srv, out, capsys)
        assert srv.answered[200] == 2, srv.answered  # only the new and the changed file
        assert "1 nuevos, 1 cambiados" in err

    after = counts(out)
    assert after["fci_valores"] == first["fci_valores"] + 1
    with sqlite3.connect(out) as con:
        versions = [r[0] for r in con.execute("SELECT DISTINCT fecha FROM plazo_fijo_historico ORDER BY fecha")]
        tna = con.execute("SELECT tnaClientes FROM plazo_fijo").fetchone()[0]
    assert tna == 0.29
    # dated by Last-Modified: the old version stays, and answers ?fecha=
    assert versions == [(TODAY - dt.timedelta(days=2)).isoformat(), TODAY.isoformat()]
    from argentina_datos.web.servidor import datasette_for

    ds = datasette_for(out)
    old = await ds.client.get(f"/{PF}?publicado={(TODAY - dt.timedelta(days=1)).isoformat()}")
    assert old.json()[0]["tnaClientes"] == 0.3
    assert (await ds.client.get(f"/{PF}")).json()[0]["tnaClientes"] == 0.29
    # the updated file equals a fresh build of the same mirror
    fresh = tmp_path / "fresh.db"
    with LocalServer(root) as srv:
        build(srv, fresh, capsys)
    expected = counts(fresh)
    # what accumulates from build to build (the *_historico tables and the versions) aside
    accumulated = ("_historico", "versiones", "versiones_registros", "revisiones")
    assert {k: v for k, v in after.items() if not k.endswith(accumulated)} == {
        k: v for k, v in expected.items() if not k.endswith(accumulated)
    }
    assert after["versiones"] == expected["versiones"] + 1  # yesterday's plazo fijo, kept
