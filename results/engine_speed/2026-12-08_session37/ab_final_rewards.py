"""A/B: Haste Bock?'s final rewards through rows_cond (HasteBockJax._final_rewards, session 37)
against the select they replaced (rank rewards of every game at every step, zeros where the game
goes on), the benchmark's program, single calls interleaved, the same games:

    PYTHONPATH=. .venv/bin/python results/engine_speed/2026-12-08_session37/ab_final_rewards.py PLAYERS CALLS"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session34"))
import meadowzoo.jax as mjax  # noqa: E402

mjax.use_cpu_devices(2)
import jax.numpy as jnp  # noqa: E402

import benchmarks.jax_speed as js  # noqa: E402
from interleave import compare  # noqa: E402
from meadowzoo.envs.haste_bock.jax_engine import HasteBockJax  # noqa: E402

players, calls = int(sys.argv[1]), int(sys.argv[2])


class EveryGame(HasteBockJax):
    """The rewards as before session 37: a select of every game's rank rewards."""

    def _final_rewards(self, over, state):
        return jnp.where(over, self.rank_rewards(state), 0.0).astype(jnp.float32)


runners = {"select": js.JaxRunner(EveryGame(num_players=players), 1024, 32, devices=2),
           "rows": js.JaxRunner(HasteBockJax(num_players=players), 1024, 32, devices=2)}
compare(runners, calls, "select")
