#!/bin/bash
# learning check: epoch_share at the game's setting against every row (1.0), same seed, same steps
cd /work/main
for players in 2 4; do
  for share in default 1; do
    extra=""; [ "$share" = "1" ] && extra="--epoch-share 1"
    out=/work/runs/s33/learn_vw${players}p_share_${share}
    start=$(date +%s)
    .venv/bin/python -m meadowzoo.training.train_jax --game volle_wolle --players $players --timesteps 4000000 --devices 2 \
      --seed 0 --ladder greedy --eval-every 2000000 --eval-games 100 --checkpoint-every 4000000 --quiet --fresh $extra --out $out \
      > $out.log 2>&1
    echo "vw ${players}p share $share: $(( $(date +%s) - start )) s rc $?" >> /work/runs/s33/learn_check.log
  done
done
