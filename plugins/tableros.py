"""Datasette plugin: points the charts of metadata/tableros.yml at whatever database holds the build.

datasette-dashboards needs a database name (`db`) in every chart, and Datasette names a
database after its file: `argentina.db` is `argentina`, the tests' `argentina-test.db` is
`argentina-test`.  So the charts leave `db` out and this plugin supplies it, through the
`get_metadata` hook: the database that has the builder's marker table (the same rule the
/v1 plugin uses), or the only file database if none has it.  A chart that names its own
`db` keeps it, because local metadata takes precedence over what plugins provide.
"""
from datasette import hookimpl

from argentina_datos.construir import BUILD_TABLE as MARKER_TABLE

PLUGIN = "datasette-dashboards"


def _file_databases(datasette):
    return [name for name, db in datasette.databases.items() if not name.startswith("_") and not db.is_memory]


@hookimpl
def startup(datasette):
    async def find_build():
        for name in _file_databases(datasette):
            db = datasette.get_database(name)
            if await db.table_exists(MARKER_TABLE):
                datasette._tableros_db = name
                return

    return find_build


@hookimpl
def get_metadata(datasette, key, database, table):
    local = (datasette._metadata_local or {}).get("plugins", {}).get(PLUGIN)
    if not isinstance(local, dict):
        return {}
    name = getattr(datasette, "_tableros_db", None)
    if name is None:
        candidates = _file_databases(datasette)
        name = candidates[0] if len(candidates) == 1 else None
    if name is None:
        return {}
    # A fresh dict on every call: Datasette merges local metadata into what hooks return.
    dashboards = {
        slug: {
            "charts": {chart: {"db": name} for chart, spec in (dash.get("charts") or {}).items() if spec.get("query")},
            "filters": {
                key: {"db": name} for key, spec in (dash.get("filters") or {}).items() if spec.get("query")
            },
        }
        for slug, dash in local.items()
        if isinstance(dash, dict)
    }
    return {"plugins": {PLUGIN: dashboards}}
