#!/usr/bin/env bash
# Ablation of the shipped Hase und Igel 2p run (session 20): the same command with --no-rule-terms (each runner's
# two HUI-18 Goal inputs left at zero). 20 rounds in 2,041 s on 2 cores. Nothing shipped; value.pt here is the
# run's value.
set -euo pipefail
ulimit -t 10000
python -m meadowzoo.training.afterstate_selfplay --game hase_und_igel --players 2 --first-games 200 --games 800 \
    --explore 0.1 --buffer 3 --hidden 128,128 --epochs 2 --td-rounds 1 --keep-best --holdout 0.1 --seed 0 --workers 2 \
    --budget-minutes 60 --no-rule-terms --out runs/hui2_norule
# the test fixed before the run started (preregistration.md): 400 seat-balanced games against strong, seed 0
# -> 85.0% [81.2, 88.2] (with the terms: 95.5% [93.0, 97.1]); results/hui_2p_scratch_no_rule_terms_vs_strong/
python -m meadowzoo.training.evaluate --game hase_und_igel --players 2 \
    --agents lookahead:runs/hui2_norule/value.pt:prior=none,strong --games 400 --seed 0 --workers 2
