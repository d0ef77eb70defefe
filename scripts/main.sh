#!/usr/bin/env bash
# The main job: set up, then play and show a seeded game (later: train and evaluate an agent).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec "${MEADOWZOO_VENV:-.venv}/bin/python" -m training.play --game hase_und_igel --players 4 --agents random --seed 0 "$@"
