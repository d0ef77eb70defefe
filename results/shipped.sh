#!/usr/bin/env bash
# The shipped trained agents (issue 6): how each was trained and the tournaments behind the README
# tables. Training runs write runs/<name>/ (not committed); `training.ship` copies the policy and
# its training record to agents/trained/. Usage: bash results/shipped.sh [train|ship|evaluate] [game]
set -uo pipefail
cd "$(dirname "$0")/.."
PY="${MEADOWZOO_PYTHON:-.venv/bin/python}"
declare -A TRAIN=(
  [volle_wolle_2p]="--game volle_wolle --players 2 --timesteps 300000 --imitate strong --imitate-games 400 --imitate-epochs 20 --opponents strong,greedy --ladder strong --eval-every 50000 --eval-games 40 --n-envs 2 --seed 0 --out runs/vw2_bc --quiet"

)
declare -A RUN=([volle_wolle_2p]=runs/vw2_bc)
declare -A GAME=([volle_wolle_2p]=volle_wolle)
step="${1:-all}"
for name in ${2:-${!TRAIN[@]}}; do
  if [ "$step" = train ] || [ "$step" = all ]; then
    PYTHONPATH=. "$PY" -m training.train ${TRAIN[$name]}
  fi
  if [ "$step" = ship ] || [ "$step" = all ]; then
    PYTHONPATH=. "$PY" -m training.ship "${RUN[$name]}" "agents/trained/$name"
  fi
  if [ "$step" = evaluate ] || [ "$step" = all ]; then
    mkdir -p "results/${name}_trained"
    PYTHONPATH=. "$PY" -m training.evaluate --game "${GAME[$name]}" --players 2 --mode pairs \
      --agents "policy:agents/trained/$name.pt,strong,greedy" --games 400 --seed 0 --workers 2 \
      --out "results/${name}_trained" > "results/${name}_trained/run.log" 2>&1
    tail -n 3 "results/${name}_trained/run.log" | head -n 1
  fi
done
