# --matmul-dtype float32: the trainer computed in float32 when this ran; since session 27 its default
# (auto) is bfloat16 products on a CPU with bfloat16 matrix instructions (see agents/trained/README.md)
# --loss-gradient autodiff: how the trainer differentiated its loss when this ran; since session 28 the
# default is a hand-written gradient (fused): the same function, other rounding (see docs/jax.md)
# --opponents-in-first-pass: the pass schedule of the trainer when this ran (before session 21; see docs/jax.md, "The pass cap")
# --sampler gumbel: how the trainer drew actions when this ran (its only way before session 14; see agents/trained/README.md)
# Session 11 (2026-12-04): Hase und Igel 2p from scratch, 30M learner steps, learning rate annealed to 0,
# two CPU devices, the pass cap of 2 (Hase und Igel's settings); 2,802 s of wall time (the first ~8 minutes
# shared with the last configuration of the slow identity run), under the 120 CPU-minute cap, not hit.
# Bar not reached: the final network is ahead of strong in 18.5% [15.0, 22.6] of 400 games. Nothing shipped.
ulimit -t 7200 && python -m meadowzoo.training.train_jax --game hase_und_igel --players 2 --matmul-dtype float32 --loss-gradient autodiff --sampler gumbel --opponents-in-first-pass --timesteps 30000000 --anneal-lr --devices 2 --seed 0 --ladder random,greedy,strong --eval-every 3000000 --eval-games 50 --checkpoint-every 1000000 --quiet --out runs/hui2_s11
# the acceptance tournament of the final network (400 seat-balanced games, seed 0, sampled as in training)
python -m meadowzoo.training.evaluate --game hase_und_igel --players 2 --agents sampled:runs/hui2_s11/policy.npz,strong --games 400 --seed 0 --workers 2
# the same network, kept here as policy.npz, in the results tables (results/hui_2p_scratch_vs_strong): the same 400 games
python -m meadowzoo.training.evaluate --game hase_und_igel --players 2 --agents sampled:results/jax_from_scratch/hase_und_igel_2p_seed0_anneal30m/policy.npz,strong --games 400 --seed 0 --workers 2 --out results/hui_2p_scratch_vs_strong
