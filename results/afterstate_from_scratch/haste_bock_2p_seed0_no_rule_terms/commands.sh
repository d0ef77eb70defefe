#!/usr/bin/env bash
# Ablation of the shipped Haste Bock? 2p run (session 19): the same command with --no-rule-terms (the HB-19..21
# "if scored now" inputs left at zero). 20 rounds in 3,494 s on 2 cores (about 13 minutes of it shared with a
# CI run). Nothing shipped; value.pt here is the run's value.
set -euo pipefail
ulimit -t 10000
python -m meadowzoo.training.afterstate_selfplay --players 2 --first-games 20000 --games 2500 --explore 0.1 --buffer 3 \
    --hidden 128,128 --epochs 4 --td-rounds 2 --keep-best --holdout 0.1 --seed 0 --workers 2 --budget-minutes 60 \
    --no-rule-terms --out runs/hb2_norule
# the test fixed before the run started (preregistration.md): 400 seat-balanced games against strong, seed 0
# -> 86.8% [83.1, 89.7] (with the terms: 88.9% [85.4, 91.6]); results/hb_2p_scratch_no_rule_terms_vs_strong/
python -m meadowzoo.training.evaluate --game haste_bock --players 2 \
    --agents lookahead:runs/hb2_norule/value.pt:prior=none,strong --games 400 --seed 0 --workers 2
