# the benchmarks below measured float32 products (the only kind then); to measure as then on a
# CPU with bfloat16 matrix instructions, give train_speed and train_breakdown --matmul-dtype float32
# (and, since session 28, --loss-gradient autodiff)
# --matmul-dtype float32: the trainer computed in float32 when this ran; since session 27 its default
# (auto) is bfloat16 products on a CPU with bfloat16 matrix instructions (see agents/trained/README.md)
# --loss-gradient autodiff: how the trainer differentiated its loss when this ran; since session 28 the
# default is a hand-written gradient (fused): the same function, other rounding (see docs/jax.md)
# Session 21 (2026-12-06), two cores of the shared vm, the repository root as working directory.
# The trainer table, twice (README and docs/jax.md hold the second; the first is trainer_tables_1.*):
python -m benchmarks.jax_tables --trainer --json trainer_tables_1.json
python -m benchmarks.jax_tables --trainer --json trainer_tables_2.json
# Hase und Igel, the old schedule then the new, each with SB3 in the same run:
python -m benchmarks.train_speed --game hase_und_igel --players 2 --cores 2 --jax-updates 25 --opponents-in-first-pass --json hui_train_speed_old_schedule.json
python -m benchmarks.train_speed --game hase_und_igel --players 2 --cores 2 --jax-updates 25 --no-opponents-in-first-pass --json hui_train_speed_learners_first.json
# interleaved rounds: interleaved_hui_vw.log (3 rounds, 4 variants; the third shared the cores with test runs), interleaved_hui.log (4 rounds,
# the two schedules), interleaved_hb.log (one round of 12 updates):
python results/trainer_speed/2026-12-06_session21/interleave.py hase_und_igel,volle_wolle 3 25 "[true,2];[false,2];[false,3];[true,3]"
python results/trainer_speed/2026-12-06_session21/interleave.py hase_und_igel 4 25 "[true,2];[false,2]"
python results/trainer_speed/2026-12-06_session21/interleave.py haste_bock 1 12 "[true,2];[false,2];[false,3]"
# learning check, Hase und Igel 2p, 4M learner steps each, the new schedule then the old (hui_learn_*_evaluations.csv):
for sched in --no-opponents-in-first-pass --opponents-in-first-pass; do
  python -m meadowzoo.training.train_jax --game hase_und_igel --players 2 --matmul-dtype float32 --loss-gradient autodiff --timesteps 4000000 --devices 2 --seed 0 \
    --ladder greedy --eval-every 2000000 --eval-games 50 --checkpoint-every 4000000 --quiet --fresh $sched --out runs/hui_learn$sched
done
# Haste Bock? at half the network width, then as configured, each with SB3 (hb_breakdown_hidden*.json):
python -m benchmarks.train_breakdown --game haste_bock --cores 2 --hidden 64,64 --sb3 --rounds 3 --json hb_breakdown_hidden64.json
python -m benchmarks.train_breakdown --game haste_bock --cores 2 --rounds 3 --sb3 --json hb_breakdown_hidden128.json
