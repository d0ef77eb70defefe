# --matmul-dtype float32: the trainer computed in float32 when this ran; since session 27 its default
# (auto) is bfloat16 products on a CPU with bfloat16 matrix instructions (see agents/trained/README.md)
# --loss-gradient autodiff: how the trainer differentiated its loss when this ran; since session 28 the
# default is a hand-written gradient (fused): the same function, other rounding (see docs/jax.md)
# Session 16 (2026-12-05): two Haste Bock? 2p probes from scratch on the session's new trainer
# settings, seed 0, two CPU devices, learning rate annealed over --timesteps, the in-run ladder
# playing the network's most probable action (50 seat-balanced games per rung).
# shaping: score shaping 0.03 (e55312f), planned as a 36M-step run, stopped at 12M (902 s) because its
# curve matched the earlier runs' (shaping_evaluations.csv)
python -m meadowzoo.training.train_jax --game haste_bock --players 2 --matmul-dtype float32 --loss-gradient autodiff --timesteps 36000000 --anneal-lr --score-shaping 0.03 --devices 2 --seed 0 --ladder random,greedy,strong --eval-as policy --eval-every 3000000 --eval-games 50 --checkpoint-every 1000000 --quiet --out runs/hb2_shape
# conv_shaping: 3x3 convolutions 8,8 over the sheep planes plus score shaping 0.03, 8M steps, 1,967 s
# (shared the machine with test runs; conv_shaping_evaluations.csv)
python -m meadowzoo.training.train_jax --game haste_bock --players 2 --matmul-dtype float32 --loss-gradient autodiff --timesteps 8000000 --anneal-lr --conv 8,8 --score-shaping 0.03 --devices 2 --seed 0 --ladder random,greedy,strong --eval-as policy --eval-every 2000000 --eval-games 50 --checkpoint-every 1000000 --quiet --out runs/hb2_conv
