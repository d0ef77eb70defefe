# --matmul-dtype float32: the trainer computed in float32 when this ran; since session 27 its default
# (auto) is bfloat16 products on a CPU with bfloat16 matrix instructions (see agents/trained/README.md)
# --loss-gradient autodiff: how the trainer differentiated its loss when this ran; since session 28 the
# default is a hand-written gradient (fused): the same function, other rounding (see docs/jax.md)
# --sampler gumbel: how the trainer drew actions when this ran (its only way before session 14; see agents/trained/README.md)
# Session 13 (2026-12-05): Haste Bock? 4p from scratch, bar not reached, nothing shipped.
# 9M learner steps, learning rate annealed to 0, two CPU devices, Haste Bock?'s settings (pass cap 2, ent_coef 0.005);
# 2,424 s of wall time to its last evaluation (its first ~7 minutes shared the cores with engine profiling),
# under the 120 CPU-minute cap (= 60 minutes on two cores), not hit.
ulimit -t 7200 && python -m meadowzoo.training.train_jax --game haste_bock --players 4 --matmul-dtype float32 --loss-gradient autodiff --sampler gumbel --timesteps 9000000 --anneal-lr --devices 2 --seed 0 --ladder random,greedy,strong --eval-every 2000000 --eval-games 50 --checkpoint-every 1000000 --quiet --out runs/hb4_s13
# the final network, kept here as policy.npz: 400 tables with three strong seats (results/hb_4p_scratch_vs_strong)
python -m meadowzoo.training.evaluate --game haste_bock --players 4 --agents sampled:results/jax_from_scratch/haste_bock_4p_seed0_anneal9m/policy.npz,strong,strong,strong --games 400 --seed 0 --workers 2 --out results/hb_4p_scratch_vs_strong
