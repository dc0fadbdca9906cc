#!/usr/bin/env bash
# Daily update: rebuilds the database from the public API (or $ARGENTINA_DATOS_SOURCE) into the
# served file. The build replaces the file atomically only when it is complete and checked; a running
# serve-datos notices the new file and switches to it by itself (no restart, no failed request).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q -e .
# An editable install leaves our modules uncompiled, and $PYTHONDONTWRITEBYTECODE (set on some machines)
# keeps Python from caching them: every build-db and its second process compiled them again (~0.17 s each).
.venv/bin/python -m compileall -q argentina_datos
# --keep-going: a file that cannot be read today is skipped (and listed), the rest is updated.
exec .venv/bin/build-db --source "${ARGENTINA_DATOS_SOURCE:-https://api.argentinadatos.com}" \
    --output "${ARGENTINA_DATOS_OUTPUT:-argentina.db}" --keep-going "$@"
