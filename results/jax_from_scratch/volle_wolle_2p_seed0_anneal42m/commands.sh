# --matmul-dtype float32: the trainer computed in float32 when this ran; since session 27 its default
# (auto) is bfloat16 products on a CPU with bfloat16 matrix instructions (see agents/trained/README.md)
# --loss-gradient autodiff: how the trainer differentiated its loss when this ran; since session 28 the
# default is a hand-written gradient (fused): the same function, other rounding (see docs/jax.md)
# --sampler gumbel: how the trainer drew actions when this ran (its only way before session 14; see agents/trained/README.md)
# --passes-per-step 0: the trainer had no pass cap when this ran (it came in session 11, 2607aa8)
# Session 10 (2026-12-04): Volle Wolle 2p from scratch, the shipped agents/trained/volle_wolle_2p_scratch.npz.
# 42M learner steps, learning rate annealed to 0, two CPU devices; 3,306 s of wall time, under the
# 120 CPU-minute cap (= 60 minutes on two cores), which was not hit.
ulimit -t 7200 && python -m meadowzoo.training.train_jax --game volle_wolle --players 2 --matmul-dtype float32 --loss-gradient autodiff --sampler gumbel --passes-per-step 0 --timesteps 42000000 --anneal-lr --devices 2 --seed 0 --ladder random,greedy,strong --eval-every 3000000 --eval-games 50 --checkpoint-every 1000000 --quiet --out runs/vw2_s10b
python -m meadowzoo.training.ship runs/vw2_s10b agents/trained/volle_wolle_2p_scratch
# acceptance (results/vw_2p_scratch_vs_strong) and the top rung (results/vw_2p_scratch_vs_mcts)
python -m meadowzoo.training.evaluate --game volle_wolle --players 2 --agents sampled:agents/trained/volle_wolle_2p_scratch.npz,strong --games 400 --seed 0 --workers 2 --out results/vw_2p_scratch_vs_strong
python -m meadowzoo.training.evaluate --game volle_wolle --players 2 --agents sampled:agents/trained/volle_wolle_2p_scratch.npz,mcts:12:rollout=strong:depth=4:leaf=strong:prior=strong:width=3:tree=1 --games 200 --seed 0 --workers 2 --out results/vw_2p_scratch_vs_mcts
