"""A/B: Hase und Igel's one-hot writes (_put, _add) with an optimization barrier on the per-game
index/value/flag, so XLA computes them once per game instead of once per entry of the array.

    PYTHONPATH=. .venv/bin/python results/engine_speed/2026-12-08_session37/ab_barrier.py PLAYERS CALLS put,add[,get]"""
import sys
sys.path.insert(0, "results/engine_speed/2026-12-07_session34")
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import jax, jax.numpy as jnp
import benchmarks.jax_speed as js
from interleave import compare
from meadowzoo.envs.hase_und_igel import jax_engine as E
game, players, calls = "hase_und_igel", int(sys.argv[1]), int(sys.argv[2])
which = sys.argv[3].split(",")
runners = {"base": js.JaxRunner(mjax.make(game, num_players=players), 1024, 32, devices=2)}
orig_put, orig_add, orig_get = E._put, E._add, E._get
def put(array, index, value, do=True):
    index, value, do = jax.lax.optimization_barrier((jnp.asarray(index), jnp.asarray(value), jnp.asarray(do)))
    return orig_put(array, index, value, do)
def add(array, index, amount):
    index, amount = jax.lax.optimization_barrier((jnp.asarray(index), jnp.asarray(amount)))
    return orig_add(array, index, amount)
def get(array, index):
    return orig_get(array, jax.lax.optimization_barrier(jnp.asarray(index)))
if "put" in which: E._put = put
if "add" in which: E._add = add
if "get" in which: E._get = get
runners["barrier"] = js.JaxRunner(mjax.make(game, num_players=players), 1024, 32, devices=2)
compare(runners, calls, "base")
