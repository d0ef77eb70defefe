#!/usr/bin/env bash
# Haste Bock? 4p from the rules alone, a 30-minute probe (session 17, evaluated in session 18): afterstate value
# fitted in self-play rounds, no heuristic. Code of session 17 (before --keep-best and the single-thread BLAS fix):
# 2 rounds in 1,479 s (round 0 on 20,000 random games, round 1 on 1,000 self-play games).
set -euo pipefail
python -m meadowzoo.training.afterstate_selfplay --players 4 --first-games 20000 --games 1000 --explore 0.1 --buffer 2 \
    --hidden 128,128 --epochs 4 --td-rounds 2 --seed 0 --workers 2 --budget-minutes 30 --out runs/hb4_sp
# test fixed before it was run (preregistration.md): 400 tables with three strong seats, seed 0
# -> mean rank 2.60 [2.48, 2.71] against strong's 2.47 [2.41, 2.53]; ahead of strong in 46.8% [44.0, 49.7] of meetings
python -m meadowzoo.training.evaluate --game haste_bock --players 4 \
    --agents lookahead:runs/hb4_sp/value.pt:prior=none,strong,strong,strong --games 400 --seed 0 --workers 2
