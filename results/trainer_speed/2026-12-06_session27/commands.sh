# --loss-gradient autodiff: how the trainer differentiated its loss when this ran; since session 28 the
# default is a hand-written gradient (fused): the same function, other rounding (see docs/jax.md)
# Session 27 (2026-12-06), this machine's two cores (Intel Xeon with AMX-BF16): the trainer's table with
# bfloat16 products (the default, auto, on this CPU), then float32 and bfloat16 one after the other for
# each game (JAX only, 25 updates each); figures in docs/jax.md, "Mixed precision".
python -m benchmarks.jax_tables --trainer --json trainer_tables.json
for g in hase_und_igel haste_bock volle_wolle; do for d in float32 bfloat16; do
  python -m benchmarks.train_speed --game $g --players 2 --cores 2 --jax-updates 25 --skip-sb3 --matmul-dtype $d --loss-gradient autodiff --json ${g}_${d}.json
done; done
# the precision probe: Volle Wolle 2p, 8M learner steps, seeds 0-2, each precision, then 400 games against strong
for seed in 0 1 2; do for d in float32 bfloat16; do
  python -m meadowzoo.training.train_jax --game volle_wolle --players 2 --timesteps 8000000 --seed $seed --devices 2 \
    --eval-every 2000000 --eval-games 100 --ladder greedy,strong --matmul-dtype $d --loss-gradient autodiff --out runs/vw2_${d}_s$seed --quiet
  python -m meadowzoo.training.evaluate --game volle_wolle --players 2 --agents sampled:runs/vw2_${d}_s$seed/policy.npz,strong \
    --games 400 --seed 0 --workers 2
done; done
# the same probe on Hase und Igel 2p, seeds 0-1
for seed in 0 1; do for d in float32 bfloat16; do
  python -m meadowzoo.training.train_jax --game hase_und_igel --players 2 --timesteps 8000000 --seed $seed --devices 2 \
    --eval-every 4000000 --eval-games 100 --ladder greedy,strong --matmul-dtype $d --loss-gradient autodiff --out runs/hui2_${d}_s$seed --quiet
  python -m meadowzoo.training.evaluate --game hase_und_igel --players 2 --agents sampled:runs/hui2_${d}_s$seed/policy.npz,strong \
    --games 400 --seed 0 --workers 2
done; done
# a longer budget: Volle Wolle 2p, 24M learner steps, seed 0, each precision
for d in bfloat16 float32; do
  python -m meadowzoo.training.train_jax --game volle_wolle --players 2 --timesteps 24000000 --seed 0 --devices 2 \
    --eval-every 8000000 --eval-games 100 --ladder greedy,strong --matmul-dtype $d --loss-gradient autodiff --out runs/vw2long_$d --quiet
  python -m meadowzoo.training.evaluate --game volle_wolle --players 2 --agents sampled:runs/vw2long_$d/policy.npz,strong \
    --games 400 --seed 0 --workers 2
done
