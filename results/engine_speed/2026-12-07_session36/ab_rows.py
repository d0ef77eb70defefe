"""A/B: Hase und Igel's engine at a commit against the working tree's with several
``draw_share`` / ``turn_share`` settings (``_on_rows``), the benchmark's program (batch 1024 over two
CPU devices), single calls interleaved:

    PYTHONPATH=. .venv/bin/python results/engine_speed/2026-12-07_session36/ab_rows.py PLAYERS CALLS REV draw:turn[,draw:turn…]

A share of 1 runs that part on every game with a select (what vmap of cond does)."""
import os
import subprocess
import sys
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session34"))
import meadowzoo.jax as mjax

mjax.use_cpu_devices(2)
import benchmarks.jax_speed as js  # noqa: E402
from interleave import compare  # noqa: E402

players, calls, rev, settings = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4].split(",")
path = "envs/hase_und_igel/jax_engine.py"


def load(name, text):
    module = types.ModuleType(name)
    module.__file__ = name
    exec(compile(text, name, "exec"), module.__dict__)
    return module


old = load("old", subprocess.run(["git", "show", f"{rev}:{path}"], capture_output=True, text=True, check=True).stdout)
new = load("new", open(path).read())
engines = {"old": old.HaseUndIgelJax(num_players=players)}
for setting in settings:
    draw, turn = (float(x) for x in setting.split(":"))
    engine = new.HaseUndIgelJax(num_players=players)
    engine.draw_share, engine.turn_share = draw, turn
    engines[f"d{draw:g}:t{turn:g}"] = engine
runners = {label: js.JaxRunner(engine, 1024, 32, devices=2) for label, engine in engines.items()}
compare(runners, calls, "old")
