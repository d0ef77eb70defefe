#!/usr/bin/env bash
# Create (or reuse) the project's virtual environment: a CPU build of torch first, then meadowzoo
# itself, editable, with its training, development, JAX, Ray and examples extras (the test command runs
# the JAX engines', the local Ray cluster's and the examples' tests). Reinstalls only when
# pyproject.toml, the torch requirement or the extras changed.
# Override the torch requirement with TORCH_SPEC (default torch==2.13.0), the venv location with
# MEADOWZOO_VENV and the extras with MEADOWZOO_EXTRAS (scripts/test_newest.sh: a venv without Ray;
# a reinstall adds packages and never removes those of extras dropped since, so a venv without an
# extra's packages must be a new one). The browser tests drive Debian's chromium through its chromedriver: installed here
# when missing and we are root (as CI is), else they are skipped with a note.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
venv="${MEADOWZOO_VENV:-.venv}"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
stamp="$venv/.meadowzoo-installed"
extras="${MEADOWZOO_EXTRAS:-train,dev,jax,ray,examples}"
want="$(sha1sum pyproject.toml | cut -d' ' -f1) ${TORCH_SPEC:-torch==2.13.0} [$extras]"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  "$venv/bin/python" -m pip install -q --upgrade pip
  "$venv/bin/python" -m pip install -q "${TORCH_SPEC:-torch==2.13.0}"
  "$venv/bin/python" -m pip install -q -e ".[$extras]"
  echo "$want" > "$stamp"
fi
if ! { [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; }; then
  if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver > /dev/null
  else
    echo "note: the browser tests need chromium and chromium-driver (apt-get install them as root)" >&2
  fi
fi
