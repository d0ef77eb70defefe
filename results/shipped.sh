#!/usr/bin/env bash
# The shipped trained agents (issue 6): how each was trained and the tournaments behind the tables
# of results/README.md. Training runs write runs/<name>/ (not committed); `meadowzoo.training.ship` copies the policy (or
# the afterstate value) and its training record to agents/trained/. Usage: bash results/shipped.sh [train|ship|evaluate] [name]
# (names: the keys of TRAIN and FIT below, e.g. haste_bock_4p).
set -uo pipefail
cd "$(dirname "$0")/.."
PY="${MEADOWZOO_PYTHON:-.venv/bin/python}"
# advised agents (--advice strong): the strong heuristic's per-action advice is part of the observation
declare -A TRAIN=(
  [volle_wolle_2p]="--game volle_wolle --players 2 --timesteps 300000 --imitate strong --imitate-games 400 --imitate-epochs 20 --opponents strong,greedy --ladder strong --eval-every 50000 --eval-games 40 --n-envs 2 --seed 0 --out runs/vw2_bc --quiet"
  [haste_bock_2p]="--game haste_bock --players 2 --timesteps 300000 --advice strong --imitate strong --imitate-games 100 --imitate-epochs 10 --imitate-workers 2 --learning-rate 0.0001 --ent-coef 0.001 --opponents strong --ladder strong --eval-every 50000 --eval-games 60 --n-envs 2 --seed 0 --out runs/hb2_ppo --quiet"
  [hase_und_igel_2p]="--game hase_und_igel --players 2 --timesteps 100000 --advice strong --imitate strong --imitate-games 60 --imitate-epochs 10 --imitate-workers 2 --learning-rate 0.0002 --ent-coef 0.001 --opponents strong --ladder strong --eval-every 25000 --eval-games 40 --n-envs 2 --seed 0 --out runs/hui2_ppo --quiet"
)
# agents that are a learned afterstate value for the lookahead player (agents/heuristics/haste_bock_lookahead.py): the
# arguments of meadowzoo.training.fit_afterstate_value (the run directory is the folder of --out)
declare -A FIT=(
  [haste_bock_4p]="--players 4 --games 24000 --seed 11 --pool strong,strong,greedy,random --pool strong,strong,greedy,random --pool strong,strong,greedy,random --pool strong,strong,strong,strong --epochs 4 --hidden 128,128 --td-rounds 2 --td-lambda 0.7 --out runs/hb4_value/value.pt"
)
# runs continued by a second command in a copy of the first run's directory (the shipped policy is
# the continued one; its training record lists both commands)
declare -A CONTINUE=(
  [haste_bock_2p]="--game haste_bock --players 2 --timesteps 550000 --advice strong --learning-rate 0.0001 --ent-coef 0.001 --fixed-share 1 --snapshot-threshold 2 --opponents strong --ladder strong --eval-every 50000 --eval-games 60 --n-envs 2 --seed 0 --out runs/hb2_ppo2 --quiet"
)
# the tournament of each agent: 2 players — every pairing of policy, strong, greedy, seat-balanced;
# 4 players — a table of the agent, strong, greedy, random with every agent in every seat
declare -A EVAL=(
  [volle_wolle_2p]="--game volle_wolle --players 2 --mode pairs --agents policy:agents/trained/volle_wolle_2p.pt,strong,greedy"
  [haste_bock_2p]="--game haste_bock --players 2 --mode pairs --agents policy:agents/trained/haste_bock_2p.pt,strong,greedy"
  [haste_bock_4p]="--game haste_bock --players 4 --agents lookahead:agents/trained/haste_bock_4p.pt,strong,greedy,random"
  [hase_und_igel_2p]="--game hase_und_igel --players 2 --mode pairs --agents policy:agents/trained/hase_und_igel_2p.pt,strong,greedy"
)
# games per tournament (default 400); the 4-player table is larger, fixed before it was run: with
# four players a better agent is only a few points ahead of strong, and the lookahead player is fast
declare -A GAMES=(
  [haste_bock_4p]=2000
)
step="${1:-all}"
for name in ${2:-${!TRAIN[@]} ${!FIT[@]}}; do
  if [ -n "${FIT[$name]:-}" ]; then
    run=$(dirname "$(echo "${FIT[$name]}" | sed -E 's/.*--out ([^ ]+).*/\1/')")
  else
    run=$(echo "${TRAIN[$name]}" | sed -E 's/.*--out ([^ ]+).*/\1/')
  fi
  continued=""
  if [ -n "${CONTINUE[$name]:-}" ]; then
    continued=$(echo "${CONTINUE[$name]}" | sed -E 's/.*--out ([^ ]+).*/\1/')
  fi
  if { [ "$step" = train ] || [ "$step" = all ]; } && [ -n "${FIT[$name]:-}" ]; then
    PYTHONPATH=. "$PY" -m meadowzoo.training.fit_afterstate_value ${FIT[$name]}
  elif [ "$step" = train ] || [ "$step" = all ]; then
    PYTHONPATH=. "$PY" -m meadowzoo.training.train ${TRAIN[$name]}
    if [ -n "$continued" ]; then
      rm -rf "$continued" && cp -r "$run" "$continued"
      PYTHONPATH=. "$PY" -m meadowzoo.training.train ${CONTINUE[$name]}
    fi
  fi
  [ -n "$continued" ] && run="$continued"
  if [ "$step" = ship ] || [ "$step" = all ]; then
    PYTHONPATH=. "$PY" -m meadowzoo.training.ship "$run" "agents/trained/$name"
  fi
  if [ "$step" = evaluate ] || [ "$step" = all ]; then
    mkdir -p "results/${name}_trained"
    PYTHONPATH=. "$PY" -m meadowzoo.training.evaluate ${EVAL[$name]} --games "${GAMES[$name]:-400}" --seed 0 --workers 2 \
      --out "results/${name}_trained" > "results/${name}_trained/run.log" 2>&1
    tail -n 3 "results/${name}_trained/run.log" | head -n 1
  fi
done
