"""A/B: Haste Bock?'s sheep move (`_moved`) on every game (as committed) against `rows_cond` on the
games whose action moves sheep, at several shares, the benchmark's program, single calls interleaved:

    PYTHONPATH=. .venv/bin/python results/engine_speed/2026-12-07_session36/ab_hb_moved.py PLAYERS CALLS 0.5,0.625"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session34"))
import meadowzoo.jax as mjax  # noqa: E402

mjax.use_cpu_devices(2)
import jax.numpy as jnp  # noqa: E402

import benchmarks.jax_speed as js  # noqa: E402
from interleave import compare  # noqa: E402
from meadowzoo.envs.core.jax_rows import rows_cond  # noqa: E402
from meadowzoo.envs.haste_bock.jax_engine import HasteBockJax  # noqa: E402

players, calls, shares = int(sys.argv[1]), int(sys.argv[2]), [float(x) for x in sys.argv[3].split(",")]


def sparse_moves(share):
    class SparseMoves(HasteBockJax):
        def _moved(self, state, t, m, panic):
            bare = state.replace(observation=jnp.zeros((0,), jnp.float32), legal_action_mask=jnp.zeros((0,), bool))

            def move(operand):
                _, s, t, m, panic = operand
                return HasteBockJax._moved(self, s, t, m, panic), s, t, m, panic

            return rows_cond(t >= 0, move, (state.pos, bare, t, m, panic), share=share)[0]
    return SparseMoves


engines = {"all": HasteBockJax(num_players=players)}
engines.update({f"rows {s:g}": sparse_moves(s)(num_players=players) for s in shares})
runners = {label: js.JaxRunner(engine, 1024, 32, devices=2) for label, engine in engines.items()}
compare(runners, calls, "all")
