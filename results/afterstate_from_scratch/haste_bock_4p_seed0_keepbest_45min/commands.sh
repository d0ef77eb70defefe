#!/usr/bin/env bash
# Haste Bock? 4p from the rules alone (session 18): afterstate value fitted in self-play rounds, no heuristic,
# with --keep-best. 19 rounds in 2,594 s on 2 cores (45-minute budget): round 0 on 8,000 random games,
# rounds 1-18 on 1,500 self-play games each. Shipped as agents/trained/haste_bock_4p_scratch.pt (the run's value.pt).
# The budget stopped it (round 19 would have ended past 45 minutes); to get the same files on a machine of
# another speed, add --rounds 19 (every round is seeded; only the stop depends on the clock).
set -euo pipefail
ulimit -t 10000
python -m meadowzoo.training.afterstate_selfplay --players 4 --first-games 8000 --games 1500 --explore 0.1 --buffer 3 \
    --hidden 128,128 --epochs 4 --td-rounds 2 --keep-best --holdout 0.1 --seed 0 --workers 2 --budget-minutes 45 \
    --out runs/hb4_kb
python -m meadowzoo.training.ship runs/hb4_kb agents/trained/haste_bock_4p_scratch
# acceptance test, fixed before the run started (preregistration.md): 400 tables with three strong seats, seed 0
# -> mean rank 1.98 [1.88, 2.08] against strong's 2.67 [2.61, 2.73]; ahead of strong in 67.2% [64.5, 69.8] of
# 1200 meetings (results/hb_4p_scratch_afterstate_vs_strong/)
python -m meadowzoo.training.evaluate --game haste_bock --players 4 \
    --agents lookahead:agents/trained/haste_bock_4p_scratch.pt:prior=none,strong,strong,strong --games 400 --seed 0 \
    --workers 2 --out results/hb_4p_scratch_afterstate_vs_strong
# exploratory curve (curve.csv): every round file against strong, 100 games (tables), seed 7, --workers 1
