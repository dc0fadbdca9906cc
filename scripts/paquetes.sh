#!/usr/bin/env bash
# The Debian packages some tests drive, installed when missing and we can (root with apt-get, as in CI):
#   chromium     tests/test_navegador.py (a real browser; no browser download)
#   nginx-light  tests/test_exportar.py (serves the tree exportar-v1 writes, with deploy/nginx.conf)
#   libreoffice-calc-nogui  tests/test_planilla.py (docs/planilla.md's URLs opened in a real LibreOffice Calc)
# Otherwise those tests skip saying how to install them. With names, only those:
#   bash scripts/paquetes.sh nginx-light
# A failed install must not hide the other tests' results: it is a warning, never an error.
set -uo pipefail
packages=("$@")
[ ${#packages[@]} -gt 0 ] || packages=(chromium nginx-light libreoffice-calc-nogui)
command_of() { case "$1" in nginx-light) echo nginx ;; libreoffice-calc-nogui) echo soffice ;; *) echo "$1" ;; esac; }
missing=()
for p in "${packages[@]}"; do
    c="$(command_of "$p")"
    command -v "$c" >/dev/null || [ -x "/usr/sbin/$c" ] || missing+=("$p")
done
[ ${#missing[@]} -gt 0 ] || exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; } \
        || echo "aviso: no se pudo instalar ${missing[*]} con apt-get" >&2
else
    echo "aviso: faltan ${missing[*]} (apt-get install ${missing[*]}); sus pruebas se saltean" >&2
fi
exit 0
