"""A/B: Haste Bock?'s rank rewards (computed in every step, used where the game ends) from rank keys
behind an optimization barrier, so XLA materialises the keys once per game instead of fusing the
score chain into the per-seat, per-rival comparisons of rank_rewards (``barrier``), or the ranking
through rows_cond (``rows``: what b34b7da made the engine do; run before it, against the engine of
the time):

    PYTHONPATH=. .venv/bin/python results/engine_speed/2026-12-08_session37/ab_rank_barrier.py PLAYERS CALLS barrier|rows"""
import sys
sys.path.insert(0, "results/engine_speed/2026-12-07_session34")
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import jax
import benchmarks.jax_speed as js
from interleave import compare
from meadowzoo.envs.core.jax_core import rank_rewards
from meadowzoo.envs.haste_bock.jax_engine import HasteBockJax
players, calls = int(sys.argv[1]), int(sys.argv[2])

class Barrier(HasteBockJax):
    def rank_rewards(self, state):
        return rank_rewards(jax.lax.optimization_barrier(self.rank_keys(state)))

variant = sys.argv[3] if len(sys.argv) > 3 else "barrier"

from meadowzoo.envs.core.jax_rows import rows_cond
from meadowzoo.envs.haste_bock.jax_engine import OVER
import jax.numpy as jnp

class Rows(HasteBockJax):
    def rank_rewards(self, state):
        values = jnp.asarray(self.card_values)
        def fn(op):
            rewards, scores, hands = op
            return rank_rewards(scores * 1000 + hands @ values), scores, hands
        out, _, _ = rows_cond(state.pending == OVER, fn, (jnp.zeros(self.n, jnp.float32), state.scores, state.hands), share=1 / 16)
        return out

runners = {"base": js.JaxRunner(HasteBockJax(num_players=players), 1024, 32, devices=2),
           variant: js.JaxRunner({"barrier": Barrier, "rows": Rows}[variant](num_players=players), 1024, 32, devices=2)}
compare(runners, calls, "base")
