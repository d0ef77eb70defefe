# --matmul-dtype float32: the trainer computed in float32 when this ran; since session 27 its default
# (auto) is bfloat16 products on a CPU with bfloat16 matrix instructions (see agents/trained/README.md)
# --loss-gradient autodiff: how the trainer differentiated its loss when this ran; since session 28 the
# default is a hand-written gradient (fused): the same function, other rounding (see docs/jax.md)
# --opponents-in-first-pass: the pass schedule of the trainer when this ran (before session 21; see docs/jax.md, "The pass cap")
# Session 14 (2026-12-05): Hase und Igel 2p from scratch, hidden layers 256,256, 30M learner steps, learning
# rate annealed to 0, two CPU devices, Hase und Igel's settings otherwise, the inverse-CDF sampler (default
# since session 14); 1,286 s of wall time on the otherwise idle 2-core machine, under the 120 CPU-minute cap.
# Bar not reached: the final network is ahead of strong in 48.0% [43.1, 52.9] of 400 games. Nothing shipped.
ulimit -t 7200 && python -m meadowzoo.training.train_jax --game hase_und_igel --players 2 --matmul-dtype float32 --loss-gradient autodiff --opponents-in-first-pass --timesteps 30000000 --anneal-lr --hidden 256,256 --devices 2 --seed 0 --ladder random,greedy,strong --eval-every 5000000 --eval-games 50 --checkpoint-every 1000000 --quiet --out runs/hui2w30
# the final network, kept here as policy.npz: 400 seat-balanced games against strong, sampled as in training
# (the acceptance test, chosen before the run; results/hui_2p_scratch_w256_vs_strong)
python -m meadowzoo.training.evaluate --game hase_und_igel --players 2 --agents sampled:results/jax_from_scratch/hase_und_igel_2p_seed0_w256_30m/policy.npz,strong --games 400 --seed 0 --workers 2 --out results/hui_2p_scratch_w256_vs_strong
# the same network playing its most probable action (printed only): 49.6% [44.8, 54.5]
python -m meadowzoo.training.evaluate --game hase_und_igel --players 2 --agents policy:results/jax_from_scratch/hase_und_igel_2p_seed0_w256_30m/policy.npz,strong --games 400 --seed 0 --workers 2
