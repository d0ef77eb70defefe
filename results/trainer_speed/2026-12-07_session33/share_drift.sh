#!/bin/bash
# the valid share of a capped rollout as training goes on (epoch_share 1: every row, no fallback)
cd /work/main
for spec in "haste_bock 2 3000000" "hase_und_igel 4 4000000" "haste_bock 4 2000000"; do
  set -- $spec
  out=/work/runs/s33/drift_$1_$2p
  start=$(date +%s)
  .venv/bin/python -m meadowzoo.training.train_jax --game $1 --players $2 --timesteps $3 --devices 2 --seed 0 \
    --ladder random --eval-every 100000000 --eval-games 2 --checkpoint-every 100000000 --quiet --fresh --epoch-share 1 --out $out > $out.log 2>&1
  echo "$1 $2p: $(( $(date +%s) - start )) s rc $?" >> /work/runs/s33/share_drift.log
done
