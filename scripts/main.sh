#!/usr/bin/env bash
# The main job: set up, train a small self-play agent on Volle Wolle (2 players) and evaluate it
# against the heuristic ladder (a few minutes on a laptop). Extra arguments go to training.train,
# e.g. --game haste_bock --timesteps 100000. A second run with the same --out resumes.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec "${MEADOWZOO_VENV:-.venv}/bin/python" -m training.train --game volle_wolle --players 2 --timesteps 40000 \
  --ladder random,greedy,strong --eval-every 10000 --eval-games 20 --out runs/main --seed 0 "$@"
