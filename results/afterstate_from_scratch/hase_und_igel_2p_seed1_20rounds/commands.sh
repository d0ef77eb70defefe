#!/usr/bin/env bash
# Hase und Igel 2p from the rules alone, a second seed of the shipped run (session 19): the same command with
# --seed 1. 20 rounds in 1,637 s on 2 cores, 15,400 games. Nothing shipped; value.pt here is the run's value.
set -euo pipefail
ulimit -t 10000
python -m meadowzoo.training.afterstate_selfplay --game hase_und_igel --players 2 --first-games 200 --games 800 \
    --explore 0.1 --buffer 3 --hidden 128,128 --epochs 2 --td-rounds 1 --keep-best --holdout 0.1 --seed 1 --workers 2 \
    --budget-minutes 60 --out runs/hui2_selfplay_seed1
# the test fixed before the run started (preregistration.md): 400 seat-balanced games against strong, seed 0
# -> 94.0% [91.2, 95.9] (results/hui_2p_scratch_afterstate_seed1_vs_strong/)
python -m meadowzoo.training.evaluate --game hase_und_igel --players 2 \
    --agents lookahead:runs/hui2_selfplay_seed1/value.pt:prior=none,strong --games 400 --seed 0 --workers 2
