#!/usr/bin/env bash
# Fresh machine -> every test: makes .venv, installs the project with its test extras,
# builds the test database from the mirror and runs the test suite and the notebooks.
set -euo pipefail
cd "$(dirname "$0")/.."
export ARGENTINA_DATOS_SOURCE="${ARGENTINA_DATOS_SOURCE:-../shared/upstream}"
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[test]"
exec .venv/bin/python -m pytest tests notebooks --nbval-lax "$@"
