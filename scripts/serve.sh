#!/usr/bin/env bash
# Fresh machine -> running service: makes .venv, installs the project, builds argentina.db (or
# $ARGENTINA_DATOS_OUTPUT) from the source (../shared/upstream when it is there, else build-db's default:
# upstream's git repository, or its API without git) and serves it with Datasette (and /v1) on
# http://127.0.0.1:8001/ ($PORT). With a database already there, a source that cannot be reached
# is one warning line and the existing database is served; with none, it is an error.
set -euo pipefail
cd "$(dirname "$0")/.."
db="${ARGENTINA_DATOS_OUTPUT:-argentina.db}"
source scripts/instalar.sh
choose_source
install_if_changed
if [ ! -f "$db" ]; then
    # The first answer needs no versions (reading the bundle of versions is most of a first build): built without
    # them, served, and a second build adds them behind (its lines in ARCHIVO.versiones.log); serve-datos opens
    # the new file when that build replaces this one.
    .venv/bin/build-db --output "$db" --sin-versiones
    ( .venv/bin/build-db --output "$db" >"$db.versiones.log" 2>&1 & )
else
    log="$(mktemp)"
    status=0
    .venv/bin/build-db --output "$db" 2>"$log" || status=$?
    if [ "$status" = 1 ]; then
        echo "aviso: no se pudo actualizar $db ($(grep -m1 '^error: ' "$log" | cut -c8- | cut -c1-300)); se sirve la que ya estaba" >&2
    else
        tail -n 3 "$log" >&2
    fi
    rm -f "$log"
fi
exec .venv/bin/serve-datos "$db" --host 127.0.0.1 --port "${PORT:-8001}"
