"""A/B: rows_cond as first committed (26cad1b: fn closed over its tables) against the working tree's
(fn traced to a jaxpr, its constants passed as arguments, so that a batched lax.cond around it works),
the engines of GAME, the benchmark's program, single calls interleaved:

    PYTHONPATH=. .venv/bin/python results/engine_speed/2026-12-07_session36/ab_rows_consts.py GAME PLAYERS CALLS"""
import importlib
import os
import subprocess
import sys
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session34"))
import meadowzoo.jax as mjax  # noqa: E402

mjax.use_cpu_devices(2)
import benchmarks.jax_speed as js  # noqa: E402
from interleave import compare  # noqa: E402

game, players, calls = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
old = types.ModuleType("rows_old")
text = subprocess.run(["git", "show", "26cad1b:envs/core/jax_rows.py"], capture_output=True, text=True, check=True).stdout
exec(compile(text, "rows_old", "exec"), old.__dict__)
engine_module = importlib.import_module(f"meadowzoo.envs.{game}.jax_engine")
runners = {"new": js.JaxRunner(mjax.make(game, num_players=players), 1024, 32, devices=2)}
engine_module.rows_cond = old.rows_cond  # the engine looks the name up at trace time
runners["old"] = js.JaxRunner(mjax.make(game, num_players=players), 1024, 32, devices=2)
compare(runners, calls, "old")
