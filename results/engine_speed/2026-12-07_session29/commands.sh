# Session 29 (2026-12-07): an AMD EPYC with AVX2 (no AVX-512, no bfloat16 units), two cores; the
# sessions before ran on an Intel Xeon with AMX. Both program shapes, one after the other:
# engines_two_devices.json (the table in README.md and docs/jax.md; log engines_2dev.log) and
# engines_one_program.json (compared in the prose; log engines_1dev.log)
python -m benchmarks.jax_tables --engines --devices 2 --json results/engine_speed/2026-12-07_session29/engines_two_devices.json
python -m benchmarks.jax_tables --engines --no-write --json results/engine_speed/2026-12-07_session29/engines_one_program.json
