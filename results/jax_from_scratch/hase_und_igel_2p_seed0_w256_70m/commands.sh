# --matmul-dtype float32: the trainer computed in float32 when this ran; since session 27 its default
# (auto) is bfloat16 products on a CPU with bfloat16 matrix instructions (see agents/trained/README.md)
# --loss-gradient autodiff: how the trainer differentiated its loss when this ran; since session 28 the
# default is a hand-written gradient (fused): the same function, other rounding (see docs/jax.md)
# --opponents-in-first-pass: the pass schedule of the trainer when this ran (before session 21; see docs/jax.md, "The pass cap")
# Session 16 (2026-12-05): Hase und Igel 2p from scratch, the full budget: 256,256 tanh (the best
# probe recipe of sessions 14/15), 70M learner steps, annealed, seed 0, two CPU devices,
# `ulimit -t 7200` (60 minutes of two cores; not hit: 2,753 s of wall time).
# Protocol fixed before the run: the final network playing its most probable legal action
# (policy:), 400 seat-balanced games against strong, seed 0.
# evaluations.csv: the in-run ladder (50 games per rung, policy play).
ulimit -t 7200 && python -m meadowzoo.training.train_jax --game hase_und_igel --players 2 --matmul-dtype float32 --loss-gradient autodiff --opponents-in-first-pass --timesteps 70000000 --anneal-lr --hidden 256,256 --devices 2 --seed 0 --ladder random,greedy,strong --eval-as policy --eval-every 5000000 --eval-games 50 --checkpoint-every 1000000 --quiet --out runs/hui2_70m_s0
# acceptance: 36.1% [31.6, 40.9] ahead of strong -> bar not reached, nothing shipped
python -m meadowzoo.training.evaluate --game hase_und_igel --players 2 --agents policy:results/jax_from_scratch/hase_und_igel_2p_seed0_w256_70m/policy.npz,strong --games 400 --seed 0 --workers 2 --out results/hui_2p_scratch_w256_70m_vs_strong
# exploratory (after their sampled figures were recorded; not acceptance tests): earlier networks
# playing their most probable action, 400 games vs strong, seed 0:
#   session 14 probe 256,256 seed 0 15M      55.2% [50.4, 60.0]  (sampled 49.5%)
#   session 15 probe 256,256 seed 1 15M      46.1% [41.3, 51.0]  (sampled 40.2%)
#   session 15 probe 256,256 seed 2 15M      52.5% [47.6, 57.3]  (sampled 51.1%)
#   session 14 run 256,256 seed 0 30M        49.6% [44.8, 54.5]  (sampled 48.0%)
