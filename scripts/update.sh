#!/usr/bin/env bash
# Daily update: rebuilds the database from upstream (as serve.sh: $ARGENTINA_DATOS_SOURCE, else
# ../shared/upstream when it is there, else its git repository when git is installed, else its public API;
# scripts/instalar.sh, choose_source) into the
# served file (or $ARGENTINA_DATOS_OUTPUT). The build replaces the file atomically only when it is complete
# and checked, keeping the replaced one as ARCHIVO.anterior; a running serve-datos notices the new file
# and switches to it by itself (no restart, no failed request).
# Exit status as build-db's: 0 all read, 3 replaced but files skipped, 1 nothing replaced; and 4 when the
# database is there (replaced or already up to date with its source) but its main data (the dollar, the
# indices) is late: the source publishes nothing new, which cron's mail and systemd's OnFailure= must see
# (docs/produccion.md, «Fuente atrasada»).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/instalar.sh
choose_source
install_if_changed
# --keep-going: a file that cannot be read today is skipped (and listed), the rest is updated.
status=0
.venv/bin/build-db --output "${ARGENTINA_DATOS_OUTPUT:-argentina.db}" --keep-going --fallar-si-atrasada "$@" || status=$?
if [ "$status" = 1 ] && [ -z "${ARGENTINA_DATOS_SOURCE:-}" ]; then
    echo "pista: la fuente fue la de build-db por omisión (upstream en la red); otra se elige con ARGENTINA_DATOS_SOURCE (un directorio como ../shared/upstream, un repositorio git o una URL)" >&2
fi
exit "$status"
