# Sourced by update.sh, serve.sh and test.sh: one rule for where update.sh and serve.sh read upstream from (choose_source),
# venv_install (uv, else pip), and install_if_changed, which makes .venv and installs the project into it only when the
# checkout's pyproject.toml (version, dependencies, commands) differs from the one last installed. The
# install is editable, so a new commit of the code needs none. A daily job then needs no package index:
# with none reachable, an unchanged checkout installs nothing, and a failed install over a working
# one is a warning, not a stop.

# venv_install ARGS: pip install ARGS into .venv, with uv when it can (the project into a new .venv: 19 s with uv
# and its cache empty, 105 s with pip, on the same loaded 2-core machine), else with pip. uv is a package of the
# index itself, installed into .venv the first time; it asks pip's index when $PIP_INDEX_URL names one.
venv_install() {
    if [ -x .venv/bin/uv ] || .venv/bin/python -m pip install -q uv >/dev/null 2>&1; then
        .venv/bin/uv pip install -q --python .venv/bin/python ${PIP_INDEX_URL:+--index-url "$PIP_INDEX_URL"} "$@" \
            && return 0
    fi
    .venv/bin/python -m pip install -q "$@"
}

install_if_changed() {
    local stamp=.venv/argentina-datos.instalado want
    [ -x .venv/bin/python ] || python3 -m venv .venv
    want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
    if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] || ! .venv/bin/python -c "import argentina_datos" 2>/dev/null; then
        if venv_install -e .; then
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
