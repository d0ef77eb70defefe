# --matmul-dtype float32: the trainer computed in float32 when this ran; since session 27 its default
# (auto) is bfloat16 products on a CPU with bfloat16 matrix instructions (see agents/trained/README.md)
# --loss-gradient autodiff: how the trainer differentiated its loss when this ran; since session 28 the
# default is a hand-written gradient (fused): the same function, other rounding (see docs/jax.md)
# --sampler gumbel: how the trainer drew actions when this ran (its only way before session 14; see agents/trained/README.md)
# Session 12 (2026-12-04): Haste Bock? 2p from scratch, bar not reached, nothing shipped.
# 13M learner steps, learning rate annealed to 0, two CPU devices, Haste Bock?'s settings (pass cap 2, ent_coef 0.005);
# 2,253 s of wall time (its first ~15 min shared the cores with a clean-clone CI run), under the
# 120 CPU-minute cap (= 60 minutes on two cores), of which it used about half.
ulimit -t 7200 && python -m meadowzoo.training.train_jax --game haste_bock --players 2 --matmul-dtype float32 --loss-gradient autodiff --sampler gumbel --timesteps 13000000 --anneal-lr --devices 2 --seed 0 --ladder random,greedy,strong --eval-every 1000000 --eval-games 50 --checkpoint-every 500000 --quiet --out runs/hb2_s12
# the final network, kept here as policy.npz, in the results tables (results/hb_2p_scratch_vs_strong)
python -m meadowzoo.training.evaluate --game haste_bock --players 2 --agents sampled:results/jax_from_scratch/haste_bock_2p_seed0_anneal13m/policy.npz,strong --games 400 --seed 0 --workers 2 --out results/hb_2p_scratch_vs_strong
