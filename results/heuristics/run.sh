#!/bin/bash
# Seat-balanced measurements of the heuristic players (issue 5). Run from the repository root:
#   nohup bash results/heuristics/run.sh > results/heuristics/matches.log 2>&1 &
# Two lanes in parallel (2 cores). Each line: agent A against copies of B, 400 games.
PY=${PYTHON:-/work/main/.venv/bin/python}
export PYTHONPATH=.
(
  for g in volle_wolle haste_bock hase_und_igel; do
    $PY -m agents.heuristics._match --games 400 --game $g --players 2 --agents greedy random
    $PY -m agents.heuristics._match --games 400 --game $g --players 4 --agents strong random
  done
) > results/heuristics/lane1.log 2>&1 &
(
  for g in volle_wolle haste_bock hase_und_igel; do
    $PY -m agents.heuristics._match --games 400 --game $g --players 2 --agents strong greedy
  done
) > results/heuristics/lane2.log 2>&1 &
wait
cat results/heuristics/lane1.log results/heuristics/lane2.log
