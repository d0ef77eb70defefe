# --matmul-dtype float32: the trainer computed in float32 when this ran; since session 27 its default
# (auto) is bfloat16 products on a CPU with bfloat16 matrix instructions (see agents/trained/README.md)
# --loss-gradient autodiff: how the trainer differentiated its loss when this ran; since session 28 the
# default is a hand-written gradient (fused): the same function, other rounding (see docs/jax.md)
# --sampler gumbel: how the trainer drew actions when this ran (its only way before session 14; see agents/trained/README.md)
# --passes-per-step 0: the trainer had no pass cap when this ran (it came in session 11, 2607aa8)
cd /work/main && timeout 3600 nice -n 10 .venv/bin/python -m meadowzoo.training.train_jax --game volle_wolle --players 2 --matmul-dtype float32 --loss-gradient autodiff --sampler gumbel --passes-per-step 0 --timesteps 40000000 --seed 0 --ladder random,greedy,strong --eval-every 2000000 --eval-games 50 --checkpoint-every 1000000 --quiet --out /work/runs/vw2_s0
# resume of /work/runs/vw2_s0.cmd (stopped by its 3600 s wall timeout after 31 CPU-minutes at load ~10);
# capped so that the whole run uses at most 120 CPU-minutes (= 60 minutes on two cores)
cd /work/main && ulimit -t 5300 && nice -n 10 .venv/bin/python -m meadowzoo.training.train_jax --game volle_wolle --players 2 --matmul-dtype float32 --loss-gradient autodiff --sampler gumbel --passes-per-step 0 --timesteps 80000000 --seed 0 --ladder random,greedy,strong --eval-every 2000000 --eval-games 50 --checkpoint-every 1000000 --quiet --out /work/runs/vw2_s0
