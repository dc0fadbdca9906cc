#!/usr/bin/env bash
# Daily update: rebuilds the database from the public API (or $ARGENTINA_DATOS_SOURCE) into the
# served file. The build replaces the file atomically only when it is complete and checked; a running
# serve-datos notices the new file and switches to it by itself (no restart, no failed request).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q -e .
# --keep-going: a file that cannot be read today is skipped (and listed), the rest is updated.
exec .venv/bin/build-db --source "${ARGENTINA_DATOS_SOURCE:-https://api.argentinadatos.com}" \
    --output "${ARGENTINA_DATOS_OUTPUT:-argentina.db}" --keep-going "$@"
