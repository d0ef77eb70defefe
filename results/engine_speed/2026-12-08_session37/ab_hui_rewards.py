"""A/B (not kept): Hase und Igel's final rewards (_publish) through rows_cond at share 1/16, as
Haste Bock?'s in session 37, against the select:

    PYTHONPATH=. .venv/bin/python results/engine_speed/2026-12-08_session37/ab_hui_rewards.py PLAYERS CALLS"""
import sys
sys.path.insert(0, "results/engine_speed/2026-12-07_session34")
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import jax, jax.numpy as jnp
import benchmarks.jax_speed as js
from interleave import compare
from meadowzoo.envs.core.jax_rows import rows_cond
from meadowzoo.envs.hase_und_igel.jax_engine import HaseUndIgelJax, OVER
players, calls = int(sys.argv[1]), int(sys.argv[2])

class Rows(HaseUndIgelJax):
    def _publish(self, s, was_over):
        ended = s.over & ~was_over
        s = s.replace(pending=jnp.where(s.over, OVER, s.pending))
        def rank(op):
            _, places = op
            return self._rank_rewards(places).astype(jnp.float32), places
        rewards = rows_cond(ended, rank, (jnp.zeros(self.n, jnp.float32), s.final_places), share=1 / 16)[0]
        return s.replace(current_player=jnp.where(s.over, 0, s.cur), legal_action_mask=self.legal_mask(s),
                         terminated=s.over, truncated=~s.over & (s.turn >= self.max_turns), rewards=rewards)

runners = {"select": js.JaxRunner(HaseUndIgelJax(num_players=players), 1024, 32, devices=2),
           "rows": js.JaxRunner(Rows(num_players=players), 1024, 32, devices=2)}
compare(runners, calls, "select")
