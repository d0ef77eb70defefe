# --matmul-dtype float32: the trainer computed in float32 when this ran; since session 27 its default
# (auto) is bfloat16 products on a CPU with bfloat16 matrix instructions (see agents/trained/README.md)
# --loss-gradient autodiff: how the trainer differentiated its loss when this ran; since session 28 the
# default is a hand-written gradient (fused): the same function, other rounding (see docs/jax.md)
# --opponents-in-first-pass: the pass schedule of the trainer when this ran (before session 21; see docs/jax.md, "The pass cap")
# Session 14 (2026-12-05): three short Hase und Igel 2p probes from scratch, 15M learner steps each, seed 0,
# two CPU devices, Hase und Igel's settings, the inverse-CDF sampler (the trainer's default since session 14).
# <name>_evaluations.csv: the in-run ladder (50 seat-balanced games per rung, sampled play).
# base: annealed learning rate, 296 s
python -m meadowzoo.training.train_jax --game hase_und_igel --players 2 --matmul-dtype float32 --loss-gradient autodiff --opponents-in-first-pass --timesteps 15000000 --devices 2 --seed 0 --ladder greedy,strong --eval-every 5000000 --eval-games 50 --checkpoint-every 5000000 --quiet --out runs/hui2_base --anneal-lr
# ent03: constant learning rate, entropy bonus 0.03, 305 s
python -m meadowzoo.training.train_jax --game hase_und_igel --players 2 --matmul-dtype float32 --loss-gradient autodiff --opponents-in-first-pass --timesteps 15000000 --devices 2 --seed 0 --ladder greedy,strong --eval-every 5000000 --eval-games 50 --checkpoint-every 5000000 --quiet --out runs/hui2_ent03 --ent-coef 0.03
# w256: annealed, hidden layers 256,256, 609 s
python -m meadowzoo.training.train_jax --game hase_und_igel --players 2 --matmul-dtype float32 --loss-gradient autodiff --opponents-in-first-pass --timesteps 15000000 --devices 2 --seed 0 --ladder greedy,strong --eval-every 5000000 --eval-games 50 --checkpoint-every 5000000 --quiet --out runs/hui2_w256 --anneal-lr --hidden 256,256
# each final network against strong, 400 seat-balanced games, seed 0 (printed only):
#   sampled:runs/hui2_base/policy.npz  30.0% [25.7, 34.7] ahead
#   sampled:runs/hui2_ent03/policy.npz 33.2% [28.8, 38.0]
#   sampled:runs/hui2_w256/policy.npz  49.5% [44.6, 54.4]
#   policy:runs/hui2_w256/policy.npz   55.2% [50.4, 60.0] (most probable action; measured after the sampled figure, so not taken as the bar's test)
for net in base ent03 w256; do
  python -m meadowzoo.training.evaluate --game hase_und_igel --players 2 --agents sampled:runs/hui2_$net/policy.npz,strong --games 400 --seed 0 --workers 2
done
python -m meadowzoo.training.evaluate --game hase_und_igel --players 2 --agents policy:runs/hui2_w256/policy.npz,strong --games 400 --seed 0 --workers 2
