# --matmul-dtype float32: the trainer computed in float32 when this ran; since session 27 its default
# (auto) is bfloat16 products on a CPU with bfloat16 matrix instructions (see agents/trained/README.md)
# --loss-gradient autodiff: how the trainer differentiated its loss when this ran; since session 28 the
# default is a hand-written gradient (fused): the same function, other rounding (see docs/jax.md)
# --opponents-in-first-pass: the pass schedule of the trainer when this ran (before session 21; see docs/jax.md, "The pass cap")
# Session 15 (2026-12-05): four more Hase und Igel 2p probes from scratch, 15M learner steps each, two CPU
# devices, learning rate annealed over the run, Hase und Igel's settings otherwise, inverse-CDF sampler.
# <name>_evaluations.csv: the in-run ladder (50 seat-balanced games per rung, sampled play).
# Compare session 14's 256,256 tanh probe (seed 0): 49.5% [44.6, 54.4] (../hase_und_igel_2p_probes_s14).
# w512: hidden 512,512 (tanh), seed 0, 1,712 s (2.8x the 256-wide probe's time)
python -m meadowzoo.training.train_jax --game hase_und_igel --players 2 --matmul-dtype float32 --loss-gradient autodiff --opponents-in-first-pass --timesteps 15000000 --anneal-lr --hidden 512,512 --devices 2 --seed 0 --ladder greedy,strong --eval-every 5000000 --eval-games 50 --checkpoint-every 5000000 --quiet --out runs/hui2_w512
# relu: hidden 256,256 with relu instead of tanh, seed 0, 622 s
python -m meadowzoo.training.train_jax --game hase_und_igel --players 2 --matmul-dtype float32 --loss-gradient autodiff --opponents-in-first-pass --timesteps 15000000 --anneal-lr --hidden 256,256 --activation relu --devices 2 --seed 0 --ladder greedy,strong --eval-every 5000000 --eval-games 50 --checkpoint-every 5000000 --quiet --out runs/hui2_relu
# seed1: hidden 256,256 (tanh) as session 14's best probe, seed 1, 659 s
python -m meadowzoo.training.train_jax --game hase_und_igel --players 2 --matmul-dtype float32 --loss-gradient autodiff --opponents-in-first-pass --timesteps 15000000 --anneal-lr --hidden 256,256 --devices 2 --seed 1 --ladder greedy,strong --eval-every 5000000 --eval-games 50 --checkpoint-every 5000000 --quiet --out runs/hui2_w256_seed1
# seed2: the same with seed 2, 586 s
python -m meadowzoo.training.train_jax --game hase_und_igel --players 2 --matmul-dtype float32 --loss-gradient autodiff --opponents-in-first-pass --timesteps 15000000 --anneal-lr --hidden 256,256 --devices 2 --seed 2 --ladder greedy,strong --eval-every 5000000 --eval-games 50 --checkpoint-every 5000000 --quiet --out runs/hui2_w256_seed2
# each final network against strong, 400 seat-balanced games, seed 0, sampled (printed only):
#   sampled:runs/hui2_w512/policy.npz       42.2% [37.5, 47.1] ahead
#   sampled:runs/hui2_relu/policy.npz       42.9% [38.1, 47.8]
#   sampled:runs/hui2_w256_seed1/policy.npz 40.2% [35.6, 45.1]
#   sampled:runs/hui2_w256_seed2/policy.npz 51.1% [46.2, 56.0]
for net in w512 relu w256_seed1 w256_seed2; do
  python -m meadowzoo.training.evaluate --game hase_und_igel --players 2 --agents sampled:runs/hui2_$net/policy.npz,strong --games 400 --seed 0 --workers 2
done
