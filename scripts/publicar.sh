#!/usr/bin/env bash
# The daily publication: update the database (scripts/update.sh), export the static /v1 tree from it
# (exportar-v1, only what changed) and, if $ARGENTINA_DATOS_SINCRONIZAR is set, run it to copy the tree
# where it is served (e.g. `rclone sync --exclude '*.gz' publicado/v1 remoto:argentina-datos/v1`).
#   $ARGENTINA_DATOS_OUTPUT     the database (argentina.db)
#   $ARGENTINA_DATOS_PUBLICADO  the exported tree (publicado)
# Exit status: update.sh's when it replaced nothing (1: nothing exported either); otherwise 3 if the
# update skipped files or 4 if the main data is late (both after exporting and syncing what it has), 0 if
# all went well; the export's or the sync's own failure is theirs. deploy/argentina-datos-publicar.service runs it daily (docs/produccion.md).
set -uo pipefail
cd "$(dirname "$0")/.."
db="${ARGENTINA_DATOS_OUTPUT:-argentina.db}"
tree="${ARGENTINA_DATOS_PUBLICADO:-publicado}"
bash scripts/update.sh "$@"
updated=$?
if [ "$updated" != 0 ] && [ "$updated" != 3 ] && [ "$updated" != 4 ]; then
    echo "error: la actualización falló (código $updated): no se exporta ni se sincroniza" >&2
    exit "$updated"
fi
set -e
.venv/bin/exportar-v1 "$db" "$tree"
if [ -n "${ARGENTINA_DATOS_SINCRONIZAR:-}" ]; then
    bash -c "$ARGENTINA_DATOS_SINCRONIZAR"
fi
if [ "$updated" = 3 ]; then
    echo "aviso: publicada, pero la actualización omitió archivos (ver $db.resumen.json)" >&2
elif [ "$updated" = 4 ]; then
    echo "aviso: publicada, pero los datos principales están atrasados: la fuente no publica (ver $db.resumen.json)" >&2
fi
exit "$updated"
