# Session 29 (2026-12-07): an AMD EPYC with AVX2 (no AVX-512, no bfloat16 units), two cores, so the
# trainer's matmul_dtype "auto" is float32. The sessions before ran on an Intel Xeon with AMX.
# First runs of the day, one per game (speed_<game>_first_run.json; 10 updates):
for g in haste_bock volle_wolle hase_und_igel; do
  python -m benchmarks.train_speed --game $g --players 2 --cores 2 --json speed_${g}_first_run.json
done
# the trainer table of README.md and docs/jax.md (trainer_tables.json, log trainer_table.log)
python -m benchmarks.jax_tables --trainer --json results/trainer_speed/2026-12-07_session29/trainer_tables.json
# Hase und Igel twice more, 25 updates each (its ratio lies around 50x on this CPU)
for i in 1 2; do
  python -m benchmarks.train_speed --game hase_und_igel --players 2 --cores 2 --jax-updates 25 \
    --json speed_hase_und_igel_25updates_$i.json
done
# sparse first layer in isolation, one core (docs/jax.md): dense product against top_k + gather
# (sparse.py) and against a gather at given indices (sparse2.py)
taskset -c 0 python sparse.py
taskset -c 0 python sparse2.py
