#!/usr/bin/env bash
# Haste Bock? 2p from the rules alone (session 17): afterstate value fitted in self-play rounds, no heuristic.
# 60-minute wall budget on 2 cores (3,389 s, 12 rounds: round 0 on 20,000 random games, rounds 1-11 on 1,500
# self-play games each). The run wrote training.json (the module's first record name); value.json here has its
# fields as today's module writes them.
set -euo pipefail
ulimit -t 7200
python -m meadowzoo.training.afterstate_selfplay --players 2 --first-games 20000 --games 1500 --explore 0.1 --buffer 2 \
    --hidden 128,128 --epochs 4 --td-rounds 2 --seed 0 --workers 2 --budget-minutes 60 --out runs/hb2_sp
# acceptance test, fixed before the run ended: the final value, 400 seat-balanced games against strong, seed 0 -> 47.8% [42.9, 52.6]
python -m meadowzoo.training.evaluate --game haste_bock --players 2 \
    --agents lookahead:runs/hb2_sp/value.pt:prior=none,strong --games 400 --seed 0 --workers 2
# exploratory curve (curve.csv): every round file against strong, 100 games, seed 7
for r in $(seq 0 11); do
  python -m meadowzoo.training.evaluate --game haste_bock --players 2 \
      --agents lookahead:runs/hb2_sp/round_$r.pt:prior=none,strong --games 100 --seed 7 --workers 2
done
# against greedy (100 games, seed 7): 95.5% [89.5, 98.1]
