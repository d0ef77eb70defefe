# --matmul-dtype float32: the trainer computed in float32 when this ran; since session 27 its default
# (auto) is bfloat16 products on a CPU with bfloat16 matrix instructions (see agents/trained/README.md)
# --loss-gradient autodiff: how the trainer differentiated its loss when this ran; since session 28 the
# default is a hand-written gradient (fused): the same function, other rounding (see docs/jax.md)
# --sampler gumbel: how the trainer drew actions when this ran (its only way before session 14; see agents/trained/README.md)
# Session 12 (2026-12-04): Volle Wolle 4p from scratch, the shipped agents/trained/volle_wolle_4p_scratch.npz.
# 100M learner steps, learning rate annealed to 0, two CPU devices, pass cap 2 (Volle Wolle's settings);
# 3,550 s of training wall time, under the 120 CPU-minute cap (= 60 minutes on two cores), which was not hit.
ulimit -t 7200 && python -m meadowzoo.training.train_jax --game volle_wolle --players 4 --matmul-dtype float32 --loss-gradient autodiff --sampler gumbel --timesteps 100000000 --anneal-lr --devices 2 --seed 0 --ladder random,greedy,strong --eval-every 3000000 --eval-games 50 --checkpoint-every 1000000 --quiet --out runs/vw4_s12b
python -m meadowzoo.training.ship runs/vw4_s12b agents/trained/volle_wolle_4p_scratch
# acceptance (results/vw_4p_scratch_vs_strong: three strong seats) and the top rung (results/vw_4p_scratch_vs_mcts: one search seat, two strong)
python -m meadowzoo.training.evaluate --game volle_wolle --players 4 --agents sampled:agents/trained/volle_wolle_4p_scratch.npz,strong,strong,strong --games 400 --seed 0 --workers 2 --out results/vw_4p_scratch_vs_strong
python -m meadowzoo.training.evaluate --game volle_wolle --players 4 --agents sampled:agents/trained/volle_wolle_4p_scratch.npz,mcts:12:rollout=strong:depth=4:leaf=strong:prior=strong:width=3:tree=1,strong,strong --games 100 --seed 0 --workers 1 --out results/vw_4p_scratch_vs_mcts
