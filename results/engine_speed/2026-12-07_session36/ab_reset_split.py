"""What the benchmark program's threefry costs: Pgx's auto_reset splits each game's step key in two
(a threefry per game and step) before the step; here the same auto_reset with the two keys taken
without threefry (the key and the key with its words swapped: other games, same program otherwise),
timed in the benchmark's program, single calls interleaved:

    PYTHONPATH=. .venv/bin/python results/engine_speed/2026-12-07_session36/ab_reset_split.py GAME PLAYERS CALLS"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session34"))
import meadowzoo.jax as mjax  # noqa: E402

mjax.use_cpu_devices(2)
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import benchmarks.jax_speed as js  # noqa: E402
from interleave import compare  # noqa: E402

game, players, calls = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])


def auto_reset_without_split(step_fn, init_fn):
    def step(state, action, key):
        key2 = key[::-1]  # a second key without threefry (pgx: key1, key2 = jax.random.split(key))
        state = jax.lax.cond(state.terminated | state.truncated,
                             lambda: state.replace(terminated=jnp.bool_(False), truncated=jnp.bool_(False),
                                                   rewards=jnp.zeros_like(state.rewards)),
                             lambda: state)
        state = step_fn(state, action, key)
        return jax.lax.cond(state.terminated | state.truncated,
                            lambda: init_fn(key2).replace(terminated=state.terminated, truncated=state.truncated,
                                                          rewards=state.rewards),
                            lambda: state)
    return step




env = mjax.make(game, num_players=players)
runners = {"pgx": js.JaxRunner(env, 1024, 32, devices=2)}
original = js.rollout_program
js.rollout_program = lambda env, batch, unroll: original(env, batch, unroll, step=auto_reset_without_split(env.step, env.init))
runners["nosplit"] = js.JaxRunner(mjax.make(game, num_players=players), 1024, 32, devices=2)
compare(runners, calls, "pgx")
