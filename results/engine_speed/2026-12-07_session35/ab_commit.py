"""A/B of one engine file at two commits (the second defaults to the working tree), in the
benchmark's program (batch 1024 over two CPU devices), single calls interleaved:

    PYTHONPATH=. .venv/bin/python results/engine_speed/2026-12-07_session35/ab_commit.py GAME PLAYERS CALLS REV [REV2]

e.g. ``hase_und_igel 2 50 63fd599 269b391`` (the squares as bits), ``haste_bock 4 40 269b391 6863d14``
(the observation's rows at their places), ``haste_bock 2 40 87a0e5f 63fd599`` (the jump table; that
commit also changed ``jax_tables.JUMP_TABLE``, which both sides read from the working tree, where it
covers the older lookups too). An older engine file runs against today's shared core."""
import os
import subprocess
import sys
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session34"))
import meadowzoo.jax as mjax

mjax.use_cpu_devices(2)
import benchmarks.jax_speed as js  # noqa: E402
from interleave import compare  # noqa: E402

game, players, calls, rev = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rev2 = sys.argv[5] if len(sys.argv) > 5 else None
path = f"envs/{game}/jax_engine.py"
CLASS = {"hase_und_igel": "HaseUndIgelJax", "haste_bock": "HasteBockJax"}[game]


def source(revision):
    if revision is None:
        return open(path).read()
    return subprocess.run(["git", "show", f"{revision}:{path}"], capture_output=True, text=True, check=True).stdout


def load(name, text):
    module = types.ModuleType(name)
    module.__file__ = name
    exec(compile(text, name, "exec"), module.__dict__)
    return module


old, new = load("old", source(rev)), load("new", source(rev2))
runners = {label: js.JaxRunner(getattr(module, CLASS)(num_players=players), 1024, 32, devices=2)
           for label, module in (("old", old), ("old2", old), ("new", new))}
compare(runners, calls, "old")
