"""A/B (not kept): Volle Wolle's final rewards through rows_cond at share 1/16 (the game state
gathered), as Haste Bock?'s in session 37, against the select; the variant's _step is the
engine's own source with that one line replaced:

    PYTHONPATH=. .venv/bin/python results/engine_speed/2026-12-08_session37/ab_vw_rewards.py PLAYERS CALLS"""
import sys
sys.path.insert(0, "results/engine_speed/2026-12-07_session34")
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import jax, jax.numpy as jnp
import benchmarks.jax_speed as js
from interleave import compare
from meadowzoo.envs.core.jax_rows import rows_cond
from meadowzoo.envs.core.jax_core import rank_rewards
from meadowzoo.envs.volle_wolle import jax_engine as V
players, calls = int(sys.argv[1]), int(sys.argv[2])
import inspect, textwrap


class Rows(V.VolleWolleJax):
    pass



src = textwrap.dedent(inspect.getsource(V.VolleWolleJax._step))
assert "rewards = jnp.where(over, rank_rewards(self.scores_of(g)), 0.0).astype(jnp.float32)" in src
src = src.replace("rewards = jnp.where(over, rank_rewards(self.scores_of(g)), 0.0).astype(jnp.float32)",
                  "rewards = rows_cond(over, lambda op: (rank_rewards(self.scores_of(op[1])).astype(jnp.float32), op[1]), (jnp.zeros(self.t.n, jnp.float32), g), share=1 / 16)[0]")
ns = dict(vars(V)); ns["rows_cond"] = rows_cond
exec(src, ns)
Rows._step = ns["_step"]
runners = {"select": js.JaxRunner(V.VolleWolleJax(num_players=players), 1024, 32, devices=2),
           "rows": js.JaxRunner(Rows(num_players=players), 1024, 32, devices=2)}
compare(runners, calls, "select")
