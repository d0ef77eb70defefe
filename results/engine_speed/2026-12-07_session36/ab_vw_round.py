"""A/B: Volle Wolle's new round (`_start_round`, dealt once a step after the resolve loop) on every
game of the batch (`when`, as committed at 2d86e55) against `rows_cond` at several shares, the
benchmark's program, single calls interleaved:

    PYTHONPATH=. .venv/bin/python results/engine_speed/2026-12-07_session36/ab_vw_round.py PLAYERS CALLS 0.25,0.3125"""
import os
import sys
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session34"))
import meadowzoo.jax as mjax  # noqa: E402

mjax.use_cpu_devices(2)
import benchmarks.jax_speed as js  # noqa: E402
from interleave import compare  # noqa: E402

players, calls, shares = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].split(",")
source = open("envs/volle_wolle/jax_engine.py").read()
OLD = "        g = when(t.new_round, self._start_round, g)\n"


def load(name, text):
    module = types.ModuleType(name)
    module.__file__ = name
    sys.modules[name] = module  # dataclasses look their module up
    exec(compile(text, name, "exec"), module.__dict__)
    return module


engines = {"when": load("when", source).VolleWolleJax(num_players=players)}
if OLD in source:
    for share in shares:
        text = source.replace(OLD, f"        g = rows_cond(t.new_round, self._start_round, g, share={share})\n")
        text = text.replace("from __future__ import annotations\n",
                            "from __future__ import annotations\nfrom meadowzoo.envs.core.jax_rows import rows_cond\n", 1)
        engines[f"rows {share}"] = load(f"rows{share}", text).VolleWolleJax(num_players=players)
runners = {label: js.JaxRunner(engine, 1024, 32, devices=2) for label, engine in engines.items()}
compare(runners, calls, "when")
