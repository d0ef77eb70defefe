#!/usr/bin/env bash
# The whole test suite: set up, then pytest on all cores.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec "${MEADOWZOO_VENV:-.venv}/bin/python" -m pytest -n auto -q -p no:cacheprovider "$@"
