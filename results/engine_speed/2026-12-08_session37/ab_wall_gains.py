"""A/B: Haste Bock?'s wall scorings (HB-21 row points, phase 2 and 4) through rows_cond on the
games that score in the step, against computing them for every game at every step (not kept):

    PYTHONPATH=. .venv/bin/python results/engine_speed/2026-12-08_session37/ab_wall_gains.py PLAYERS CALLS SHARE"""
import sys, inspect, textwrap
sys.path.insert(0, "results/engine_speed/2026-12-07_session34")
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import jax, jax.numpy as jnp
import benchmarks.jax_speed as js
from interleave import compare
from meadowzoo.envs.core.jax_rows import rows_cond
from meadowzoo.envs.haste_bock import jax_engine as H
players, calls, share = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
src = textwrap.dedent(inspect.getsource(H.HasteBockJax._finish_turn))
old = """    rows2, rows4 = self._row_points(state.pos, state.facing)
    owner = jnp.asarray(self.owner)
    gains = owner @ (rows2 * twice2 + rows4 * twice4)
"""
assert old in src
src = src.replace(old, """    def wall_gains(operand):
        _, pos, facing, twice2, twice4 = operand
        rows2, rows4 = self._row_points(pos, facing)
        return jnp.asarray(self.owner) @ (rows2 * twice2 + rows4 * twice4), pos, facing, twice2, twice4
    gains = rows_cond((twice2 + twice4) > 0, wall_gains,
                      (jnp.zeros(self.n, i32), state.pos, state.facing, twice2, twice4), share=SHARE)[0]
""")
ns = dict(vars(H)); ns["rows_cond"] = rows_cond; ns["SHARE"] = share
exec(src, ns)
class Rows(H.HasteBockJax):
    _finish_turn = ns["_finish_turn"]
runners = {"every": js.JaxRunner(H.HasteBockJax(num_players=players), 1024, 32, devices=2),
           "rows": js.JaxRunner(Rows(num_players=players), 1024, 32, devices=2)}
compare(runners, calls, "every")
