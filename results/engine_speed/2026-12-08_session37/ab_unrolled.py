"""A/B: JAX's CPU lowering of threefry (a rolled fori_loop of 5 rounds) against its unrolled
lowering (the one JAX uses on other platforms): the same keys, the same games.

    PYTHONPATH=. .venv/bin/python results/engine_speed/2026-12-08_session37/ab_unrolled.py GAME PLAYERS CALLS"""
import os, sys
sys.path.insert(0, "results/engine_speed/2026-12-07_session34")
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import jax
import benchmarks.jax_speed as js
from interleave import compare
from jax._src.interpreters import mlir
from jax._src.random import threefry2x32 as tf
game, players, calls = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
env = mjax.make(game, num_players=players)
runners = {"rolled": js.JaxRunner(env, 1024, 32, devices=2)}
mlir.register_lowering(tf.threefry2x32_p, tf._threefry2x32_lowering_rule, platform="cpu")
runners["unrolled"] = js.JaxRunner(mjax.make(game, num_players=players), 1024, 32, devices=2)
compare(runners, calls, "rolled")
