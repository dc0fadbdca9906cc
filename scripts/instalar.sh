# Sourced by update.sh and serve.sh: one rule for where both read upstream from (choose_source), and
# install_if_changed, which makes .venv and installs the project into it only when the
# checkout's pyproject.toml (version, dependencies, commands) differs from the one last installed. The
# install is editable, so a new commit of the code needs none. A daily job then needs no package index:
# with none reachable, an unchanged checkout installs nothing, and a failed install over a working
# one is a warning, not a stop.
install_if_changed() {
    local stamp=.venv/argentina-datos.instalado want
    [ -x .venv/bin/python ] || python3 -m venv .venv
    want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
    if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] || ! .venv/bin/python -c "import argentina_datos" 2>/dev/null; then
        if .venv/bin/python -m pip install -q -e .; then
            echo "$want" >"$stamp"
        elif .venv/bin/python -c "import argentina_datos" 2>/dev/null; then
            echo "aviso: no se pudo instalar argentina-datos (¿sin acceso al índice de paquetes?); se sigue con la instalación que ya estaba en .venv" >&2
        else
            echo "error: no se pudo instalar argentina-datos y .venv no tiene una instalación anterior" >&2
            return 1
        fi
    fi
    # An editable install leaves our modules uncompiled, and $PYTHONDONTWRITEBYTECODE (set on some machines)
    # keeps Python from caching them: every build-db compiled them again (~0.17 s each).
    .venv/bin/python -m compileall -q argentina_datos
}

# $ARGENTINA_DATOS_SOURCE; if unset, ../shared/upstream (the mirror beside a checkout) when it is there; else
# build-db's default (upstream's git repository, or its public API without git). serve.sh and update.sh both.
choose_source() {
    if [ -z "${ARGENTINA_DATOS_SOURCE:-}" ] && [ -d ../shared/upstream/v1 ]; then
        export ARGENTINA_DATOS_SOURCE=../shared/upstream
    fi
}
