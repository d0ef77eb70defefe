#!/usr/bin/env bash
# Create (or reuse) the project's virtual environment: a CPU build of torch first, then meadowzoo
# itself, editable, with its training, development and Ray extras. Reinstalls only when pyproject.toml
# changed. Override the torch requirement with TORCH_SPEC (default torch==2.13.0) and the venv
# location with MEADOWZOO_VENV.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
venv="${MEADOWZOO_VENV:-.venv}"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
stamp="$venv/.meadowzoo-installed"
want="$(sha1sum pyproject.toml | cut -d' ' -f1) ${TORCH_SPEC:-torch==2.13.0}"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  "$venv/bin/python" -m pip install -q --upgrade pip
  "$venv/bin/python" -m pip install -q "${TORCH_SPEC:-torch==2.13.0}"
  "$venv/bin/python" -m pip install -q -e ".[train,dev,ray]"
  echo "$want" > "$stamp"
fi
