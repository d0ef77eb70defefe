"""Learner steps/s of the compiled trainer (2 players, two cores, two devices) under pass schedules,
runs interleaved round by round so that the machine's load hurts every variant alike.

    python results/trainer_speed/2026-12-06_session21/interleave.py GAMES ROUNDS UPDATES "[true,2];[false,2]"

Each variant is [opponents_in_first_pass, passes_per_step]; each line printed: game, variant,
learner steps/s, learner steps counted, seconds.
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from benchmarks.train_speed import jax_speed, pin_with_devices  # noqa: E402

pin_with_devices(2, 2)
games, rounds, updates = sys.argv[1].split(","), int(sys.argv[2]), int(sys.argv[3])
variants = [tuple(json.loads(v)) for v in sys.argv[4].split(";")]
for _ in range(rounds):
    for game in games:
        for first, cap in variants:
            res = jax_speed(game, 2, updates, {"devices": 2, "opponents_in_first_pass": first, "passes_per_step": cap})
            print(f"{game} first={first} cap={cap}", res["steps_per_second"], res["learner_steps"], res["seconds"], flush=True)
