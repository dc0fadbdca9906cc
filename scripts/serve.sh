#!/usr/bin/env bash
# Fresh machine -> running service: makes .venv, installs the project, builds argentina.db
# from the source and serves it with Datasette (and /v1) on http://127.0.0.1:8001/.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${ARGENTINA_DATOS_SOURCE:-}" ] && [ -d ../shared/upstream/v1 ]; then
  export ARGENTINA_DATOS_SOURCE=../shared/upstream
fi
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e .
# An editable install leaves our modules uncompiled, and $PYTHONDONTWRITEBYTECODE (set on some machines)
# keeps Python from caching them: every build-db and its second process compiled them again (~0.17 s each).
.venv/bin/python -m compileall -q argentina_datos
.venv/bin/build-db --output argentina.db
exec .venv/bin/serve-datos argentina.db --host 127.0.0.1 --port "${PORT:-8001}"
