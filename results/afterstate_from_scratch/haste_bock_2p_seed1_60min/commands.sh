#!/usr/bin/env bash
# Second seed of the shipped Haste Bock? 2p run (session 20): the same command with --seed 1. The 60-minute budget
# stopped it after 16 rounds (0-15) in 3,462 s: about 25 of its minutes shared the two cores with two clean-clone
# CI runs and a benchmark. Nothing shipped; value.pt here is the run's value. To replay it exactly on a machine of
# another speed, add --rounds 16.
set -euo pipefail
ulimit -t 10000
python -m meadowzoo.training.afterstate_selfplay --players 2 --first-games 20000 --games 2500 --explore 0.1 --buffer 3 \
    --hidden 128,128 --epochs 4 --td-rounds 2 --keep-best --holdout 0.1 --seed 1 --workers 2 --budget-minutes 60 \
    --out runs/hb2_seed1
# the test fixed before the run started (preregistration.md): 400 seat-balanced games against strong, seed 0
# -> 92.0% [88.9, 94.3] (seed 0: 88.9% [85.4, 91.6]); results/hb_2p_scratch_afterstate_seed1_vs_strong/
python -m meadowzoo.training.evaluate --game haste_bock --players 2 \
    --agents lookahead:runs/hb2_seed1/value.pt:prior=none,strong --games 400 --seed 0 --workers 2
