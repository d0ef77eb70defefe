#!/usr/bin/env bash
# The main job: set up, train a small agent on Volle Wolle (2 players) — a behaviour-cloning warm
# start from the strong heuristic, then self-play PPO — and evaluate it against the heuristic ladder
# (about 3 minutes on 2 cores). Extra arguments go to meadowzoo.training.train,
# e.g. --game haste_bock --timesteps 100000. A second run with the same --out resumes.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec "${MEADOWZOO_VENV:-.venv}/bin/python" -m meadowzoo.training.train --game volle_wolle --players 2 --timesteps 40000 \
  --imitate strong --imitate-games 150 --imitate-epochs 10 \
  --ladder random,greedy,strong --eval-every 10000 --eval-games 20 --out runs/main --seed 0 "$@"
