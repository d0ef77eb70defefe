#!/usr/bin/env bash
# Haste Bock? 2p from the rules alone (session 18): afterstate value fitted in self-play rounds, no heuristic,
# with --keep-best (every fit keeps its epoch of lowest held-out loss). 20 rounds (the --rounds default) in
# 3,141 s on 2 cores, inside the 60-minute budget: round 0 on 20,000 random games, rounds 1-19 on 2,500
# self-play games each (67,500 games). Shipped as agents/trained/haste_bock_2p_scratch.pt (the run's value.pt).
set -euo pipefail
ulimit -t 10000
python -m meadowzoo.training.afterstate_selfplay --players 2 --first-games 20000 --games 2500 --explore 0.1 --buffer 3 \
    --hidden 128,128 --epochs 4 --td-rounds 2 --keep-best --holdout 0.1 --seed 0 --workers 2 --budget-minutes 60 \
    --out runs/hb2_kb
python -m meadowzoo.training.ship runs/hb2_kb agents/trained/haste_bock_2p_scratch
# acceptance test, fixed before the run started (preregistration.md): 400 seat-balanced games against strong,
# seed 0 -> 88.9% [85.4, 91.6] (results/hb_2p_scratch_afterstate_vs_strong/)
python -m meadowzoo.training.evaluate --game haste_bock --players 2 \
    --agents lookahead:agents/trained/haste_bock_2p_scratch.pt:prior=none,strong --games 400 --seed 0 --workers 2 \
    --out results/hb_2p_scratch_afterstate_vs_strong
# exploratory curve (curve.csv): every round file against strong, 100 games (tables), seed 7, --workers 1
