# --matmul-dtype float32: the trainer computed in float32 when this ran; since session 27 its default
# (auto) is bfloat16 products on a CPU with bfloat16 matrix instructions (see agents/trained/README.md)
# --loss-gradient autodiff: how the trainer differentiated its loss when this ran; since session 28 the
# default is a hand-written gradient (fused): the same function, other rounding (see docs/jax.md)
# --opponents-in-first-pass: the pass schedule of the trainer when this ran (before session 21; see docs/jax.md, "The pass cap")
# --sampler gumbel: how the trainer drew actions when this ran (its only way before session 14; see agents/trained/README.md)
# Session 12 (2026-12-04): Hase und Igel 4p from scratch, the shipped agents/trained/hase_und_igel_4p_scratch.npz.
# 12M learner steps, learning rate annealed to 0, two CPU devices, Hase und Igel's settings (pass cap 2, gamma 0.998,
# games cut after 600 decisions and scored by the race standing); 664 s of training wall time (11 min), under a
# 60 CPU-minute cap (= 30 minutes on two cores, half the budget), which was not hit.
ulimit -t 3600 && python -m meadowzoo.training.train_jax --game hase_und_igel --players 4 --matmul-dtype float32 --loss-gradient autodiff --sampler gumbel --opponents-in-first-pass --timesteps 12000000 --anneal-lr --devices 2 --seed 0 --ladder random,greedy,strong --eval-every 4000000 --eval-games 20 --checkpoint-every 1000000 --quiet --out runs/hui4_s12
python -m meadowzoo.training.ship runs/hui4_s12 agents/trained/hase_und_igel_4p_scratch
# acceptance (results/hui_4p_scratch_vs_strong: three strong seats) and the top rung (results/hui_4p_scratch_vs_mcts: one search seat, two strong)
python -m meadowzoo.training.evaluate --game hase_und_igel --players 4 --agents sampled:agents/trained/hase_und_igel_4p_scratch.npz,strong,strong,strong --games 400 --seed 0 --workers 2 --out results/hui_4p_scratch_vs_strong
python -m meadowzoo.training.evaluate --game hase_und_igel --players 4 --agents sampled:agents/trained/hase_und_igel_4p_scratch.npz,mcts:24:rollout=greedy:depth=4:leaf=strong:prior=strong:width=4:tree=1,strong,strong --games 100 --seed 0 --workers 2 --out results/hui_4p_scratch_vs_mcts
