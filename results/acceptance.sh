#!/usr/bin/env bash
# The acceptance tournaments behind the tables of results/README.md (issue 5). Each run writes results/<name>/
# (results.json with the exact command, CSV files, summary.png) and its terminal output to run.log.
# Usage: bash results/acceptance.sh [name ...]   (no names: all runs in order)
set -uo pipefail
cd "$(dirname "$0")/.."
PY="${MEADOWZOO_PYTHON:-.venv/bin/python}"
declare -A RUNS=(
  [vw_2p_greedy_vs_random]="--game volle_wolle --players 2 --agents greedy,random --games 400"
  [vw_2p_strong_vs_greedy]="--game volle_wolle --players 2 --agents strong,greedy --games 400"
  [vw_4p_ladder]="--game volle_wolle --players 4 --agents strong,greedy,random,random --games 400"
  [hui_2p_greedy_vs_random]="--game hase_und_igel --players 2 --agents greedy,random --games 400"
  [hui_2p_strong_vs_greedy]="--game hase_und_igel --players 2 --agents strong,greedy --games 400"
  [hui_4p_ladder]="--game hase_und_igel --players 4 --agents strong,greedy,random,random --games 400 --truncated standing"
  [hb_2p_greedy_vs_random]="--game haste_bock --players 2 --agents greedy,random --games 400"
  [hb_2p_strong_vs_greedy]="--game haste_bock --players 2 --agents strong,greedy --games 400"
  [hb_4p_ladder]="--game haste_bock --players 4 --agents strong,greedy,random,random --games 400"
  [vw_2p_mcts_vs_strong]="--game volle_wolle --players 2 --agents mcts:12:rollout=strong:depth=4:leaf=strong:prior=strong:width=3:tree=1,strong --games 400"
  [hui_2p_mcts_vs_strong]="--game hase_und_igel --players 2 --agents mcts:24:rollout=greedy:depth=4:leaf=strong:prior=strong:width=4:tree=1,strong --games 400"
  [hb_2p_mcts_vs_strong]="--game haste_bock --players 2 --agents mcts:16:rollout=strong:depth=6:leaf=strong:prior=strong:width=3:tree=1,strong --games 400"
  [vw_2p_mctx_vs_random]="--game volle_wolle --players 2 --agents mctx:16,random --games 400"
  [vw_2p_mctx_vs_strong]="--game volle_wolle --players 2 --agents mctx:16,strong --games 400"
  [vw_3p_mctx_vs_random]="--game volle_wolle --players 3 --agents mctx:16,random,random --games 300"
  [vw_2p_mctx_net_vs_strong]="--game volle_wolle --players 2 --agents mctx:16:net=agents/trained/volle_wolle_2p_scratch.npz,strong --games 400"
  [vw_2p_scratch_argmax_vs_strong]="--game volle_wolle --players 2 --agents policy:agents/trained/volle_wolle_2p_scratch.npz,strong --games 400"
  [vw_2p_mctx_net_vs_policy]="--game volle_wolle --players 2 --agents mctx:16:net=agents/trained/volle_wolle_2p_scratch.npz,policy:agents/trained/volle_wolle_2p_scratch.npz --games 400"
)
ORDER=(vw_2p_greedy_vs_random vw_2p_strong_vs_greedy vw_4p_ladder hui_2p_greedy_vs_random hui_2p_strong_vs_greedy
       hui_4p_ladder hb_2p_greedy_vs_random hb_2p_strong_vs_greedy hb_4p_ladder
       hb_2p_mcts_vs_strong vw_2p_mcts_vs_strong hui_2p_mcts_vs_strong
       vw_2p_mctx_vs_random vw_2p_mctx_vs_strong vw_3p_mctx_vs_random vw_2p_mctx_net_vs_strong vw_2p_scratch_argmax_vs_strong vw_2p_mctx_net_vs_policy)
for name in "${@:-${ORDER[@]}}"; do
  mkdir -p "results/$name"
  echo "== $name: ${RUNS[$name]}"
  PYTHONPATH=. "$PY" -m meadowzoo.training.evaluate ${RUNS[$name]} --seed 0 --workers 2 --out "results/$name" \
    > "results/$name/run.log" 2>&1 || echo "   failed: see results/$name/run.log"
  tail -n 3 "results/$name/run.log" | head -n 1
done
