# --matmul-dtype float32: the trainer computed in float32 when this ran; since session 27 its default
# (auto) is bfloat16 products on a CPU with bfloat16 matrix instructions (see agents/trained/README.md)
# --loss-gradient autodiff: how the trainer differentiated its loss when this ran; since session 28 the
# default is a hand-written gradient (fused): the same function, other rounding (see docs/jax.md)
# --sampler gumbel: how the trainer drew actions when this ran (its only way before session 14; see agents/trained/README.md)
# --passes-per-step 0: the trainer had no pass cap when this ran (it came in session 11, 2607aa8)
# Session 10 (2026-12-04): Volle Wolle 2p from scratch, 30M learner steps, learning rate annealed to 0,
# two CPU devices; 2,353 s of wall time on an otherwise idle 2-core machine (under the 120 CPU-minute cap).
ulimit -t 7200 && python -m meadowzoo.training.train_jax --game volle_wolle --players 2 --matmul-dtype float32 --loss-gradient autodiff --sampler gumbel --passes-per-step 0 --timesteps 30000000 --anneal-lr --devices 2 --seed 0 --ladder random,greedy,strong --eval-every 2000000 --eval-games 50 --checkpoint-every 1000000 --quiet --out runs/vw2_s10
# the acceptance tournaments of the final network (400 seat-balanced games each, seed 0): sampled (pre-registered), then argmax
python -m meadowzoo.training.evaluate --game volle_wolle --players 2 --agents sampled:runs/vw2_s10/policy.npz,strong --games 400 --seed 0 --workers 2
python -m meadowzoo.training.evaluate --game volle_wolle --players 2 --agents policy:runs/vw2_s10/policy.npz,strong --games 400 --seed 0 --workers 2
