#!/usr/bin/env bash
# Hase und Igel 2p (two runners each) from the rules alone (session 19): afterstate value fitted in self-play
# rounds, no heuristic, with --keep-best. 20 rounds (the --rounds default) in 1,653 s on 2 cores, inside the
# 60-minute budget: round 0 on 200 random games, rounds 1-19 on 800 self-play games each (15,400 games).
# Shipped as agents/trained/hase_und_igel_2p_scratch.pt (the run's value.pt).
set -euo pipefail
ulimit -t 10000
python -m meadowzoo.training.afterstate_selfplay --game hase_und_igel --players 2 --first-games 200 --games 800 \
    --explore 0.1 --buffer 3 --hidden 128,128 --epochs 2 --td-rounds 1 --keep-best --holdout 0.1 --seed 0 --workers 2 \
    --budget-minutes 60 --out runs/hui2_selfplay
python -m meadowzoo.training.ship runs/hui2_selfplay agents/trained/hase_und_igel_2p_scratch
# acceptance test, fixed before the run started (preregistration.md): 400 seat-balanced games against strong,
# seed 0 -> 95.5% [93.0, 97.1] (results/hui_2p_scratch_afterstate_vs_strong/)
python -m meadowzoo.training.evaluate --game hase_und_igel --players 2 \
    --agents lookahead:agents/trained/hase_und_igel_2p_scratch.pt:prior=none,strong --games 400 --seed 0 --workers 2 \
    --out results/hui_2p_scratch_afterstate_vs_strong
# against the ladder's top search rung: 100 seat-balanced games, seed 0 -> 93.0% [86.3, 96.6]
python -m meadowzoo.training.evaluate --game hase_und_igel --players 2 \
    --agents lookahead:agents/trained/hase_und_igel_2p_scratch.pt:prior=none,mcts:24:rollout=greedy:depth=4:leaf=strong:prior=strong:width=4:tree=1 \
    --games 100 --seed 0 --workers 2 --out results/hui_2p_scratch_afterstate_vs_mcts
# exploratory curve (curve.csv): every round file against strong, 100 games, seed 7
for r in $(seq 0 19); do
    python -m meadowzoo.training.evaluate --game hase_und_igel --players 2 \
        --agents lookahead:runs/hui2_selfplay/round_$r.pt:prior=none,strong --games 100 --seed 7 --workers 2
done
