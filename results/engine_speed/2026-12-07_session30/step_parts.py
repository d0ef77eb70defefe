import sys, os; sys.path.insert(0, os.path.dirname(__file__))
import jax, jax.numpy as jnp
from ab import bench
import meadowzoo.jax as mjax
from envs.core.jax_core import select_tree
from envs.volle_wolle.jax_engine import VolleWolleJax
from hold_ab import Hold
n = int(sys.argv[1])
class Direct(VolleWolleJax):
    def step(self, state, action, key=None):
        s = self._step(state.replace(_step_count=state._step_count + 1), jnp.asarray(action), key)
        s = s.replace(legal_action_mask=s.legal_action_mask | s.terminated)
        return s.replace(observation=self._observe(s, s.current_player))
class DirectIllegal(VolleWolleJax):  # Pgx's rules for an illegal action, none for a finished game
    def step(self, state, action, key=None):
        action = jnp.asarray(action)
        size = state.legal_action_mask.shape[-1]
        in_range = (action >= 0) & (action < size)
        action = jnp.clip(action, 0, size - 1)
        is_illegal = ~(in_range & state.legal_action_mask[action])
        s = self._step(state.replace(_step_count=state._step_count + 1), action, key)
        s = select_tree(is_illegal, self._step_with_illegal_action(s, state.current_player), s)
        s = s.replace(legal_action_mask=s.legal_action_mask | s.terminated)
        return s.replace(observation=self._observe(s, s.current_player))
bench({"base": mjax.make("volle_wolle", num_players=n), "direct": Direct(num_players=n),
       "direct_illegal": DirectIllegal(num_players=n), "hold": Hold(num_players=n)}, rounds=12)
