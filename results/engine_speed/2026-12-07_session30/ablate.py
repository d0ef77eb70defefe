import sys; sys.path.insert(0, __import__('os').path.dirname(__file__))
import jax, jax.numpy as jnp
from ab import bench
import meadowzoo.jax as mjax
from envs.volle_wolle.jax_engine import VolleWolleJax
n = int(sys.argv[1])
class NoObs(VolleWolleJax):
    def _observe(self, state, player_id):
        return jnp.zeros(self.t.obs_size, jnp.float32)
class NoRew(VolleWolleJax):
    def scores_of(self, g):
        return jnp.zeros(self.t.n, jnp.int32) + g.wool
class NoTakes(VolleWolleJax):
    def _apply_takes(self, g, t):
        from envs.volle_wolle.jax_engine import _TURN_FIELDS
        return g.replace(**{k: getattr(t, k) for k in _TURN_FIELDS})
bench({"base": mjax.make("volle_wolle", num_players=n), "no_obs": NoObs(num_players=n), "no_rewards": NoRew(num_players=n),
       "no_apply_takes": NoTakes(num_players=n)})
