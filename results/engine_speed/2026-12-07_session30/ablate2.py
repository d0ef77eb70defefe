import sys, os; sys.path.insert(0, os.path.dirname(__file__))
import jax, jax.numpy as jnp
from ab import bench
import meadowzoo.jax as mjax
from envs.volle_wolle.jax_engine import VolleWolleJax, DONE
n = int(sys.argv[1])
class NoResolve(VolleWolleJax):  # not a valid game: the automatic work after an action is skipped
    def _resolve(self, t, context, uniforms):
        return t.replace(op=jnp.int32(DONE))
class NoNewRound(VolleWolleJax):  # not valid: a new round is never dealt inside step
    def _start_round(self, g):
        return g if getattr(self, "_in_init", False) is False and False else super()._start_round(g)
class DirectStep(VolleWolleJax):  # the same as step for the benchmark's legal actions on live games
    def step(self, state, action, key=None):
        s = self._step(state.replace(_step_count=state._step_count + 1), jnp.asarray(action), key)
        s = s.replace(legal_action_mask=s.legal_action_mask | s.terminated)
        return s.replace(observation=self._observe(s, s.current_player))
bench({"base": mjax.make("volle_wolle", num_players=n), "no_resolve": NoResolve(num_players=n),
       "direct_step": DirectStep(num_players=n)})
