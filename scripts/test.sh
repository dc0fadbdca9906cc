#!/usr/bin/env bash
# Fresh machine -> every test: makes .venv, installs the project with its test extras,
# builds the test database from the mirror and runs the test suite and the notebooks.
set -euo pipefail
cd "$(dirname "$0")/.."
export ARGENTINA_DATOS_SOURCE="${ARGENTINA_DATOS_SOURCE:-../shared/upstream}"
[ -x .venv/bin/python ] || python3 -m venv .venv
source scripts/instalar.sh
venv_install -e ".[test]"
# An editable install leaves our modules uncompiled, and $PYTHONDONTWRITEBYTECODE (set on some machines)
# keeps Python from caching them: every build-db and its second process compiled them again (~0.17 s each).
.venv/bin/python -m compileall -q argentina_datos
# The Debian packages some tests drive (chromium for tests/test_navegador.py, nginx-light for
# tests/test_exportar.py), installed when missing and we can (root with apt-get, as in CI).
bash scripts/paquetes.sh
# The test database first, with the builder's own progress and one-line errors (conftest.py then finds it
# up to date), on one core while lint, format and types run on the other (~14 s less): a finding is a
# one-line message before minutes of tests, and a source that cannot be built stops here with its message.
.venv/bin/build-db --source "$ARGENTINA_DATOS_SOURCE" --output "${ARGENTINA_DATOS_TEST_DB:-build/argentina-test.db}" \
    ${ARGENTINA_DATOS_HISTORY:+--history "$ARGENTINA_DATOS_HISTORY"} &
build=$!
lint=0
{ .venv/bin/ruff check . && .venv/bin/ruff format --check . && .venv/bin/mypy && .venv/bin/vulture; } || lint=$?
wait "$build"
[ "$lint" -eq 0 ] || exit "$lint"
# Built just now: conftest.py's workers need not each check it again (~3 s of CPU each).
export ARGENTINA_DATOS_TEST_DB_BUILT="${ARGENTINA_DATOS_TEST_DB:-build/argentina-test.db}"
# On every core and one more (pytest-xdist; -n 0 after the script's name runs in one process): many tests wait on a
# server, nginx or a browser of their own, and a third worker fills those waits (2 cores, quiet: 5 min 13 s -> 4 min
# 50 s in one pair of runs; with the other changes of the day the whole script went from 11 min to 5 min 50 s).
# --dist loadscope: a notebook's cells and a module's tests stay in one worker, in order; --no-loadscope-reorder: the
# files in the order conftest.py puts them, the slow ones first (xdist would order them by their number of tests).
workers=$(( $(nproc) + 1 ))
exec .venv/bin/python -m pytest -n "$workers" --dist loadscope --no-loadscope-reorder tests notebooks --nbval-lax "$@"
