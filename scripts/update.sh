#!/usr/bin/env bash
# Daily update: rebuilds the database from upstream (its git repository when git is installed, else its
# public API; or $ARGENTINA_DATOS_SOURCE: build-db --help) into the
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
install_if_changed
# --keep-going: a file that cannot be read today is skipped (and listed), the rest is updated.
exec .venv/bin/build-db --output "${ARGENTINA_DATOS_OUTPUT:-argentina.db}" --keep-going --fallar-si-atrasada "$@"
