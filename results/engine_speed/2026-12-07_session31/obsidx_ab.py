"""A/B: the observation's display-feature gather with its index materialised first
(optimization_barrier), so XLA does not recompute the index's select chain per gathered value."""
import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ab2dev import compare
import jax, jax.numpy as jnp
import envs.volle_wolle.jax_engine as E
n = int(sys.argv[1]); devices = int(sys.argv[2]) if len(sys.argv) > 2 else 2

class Barrier(E.VolleWolleJax):
    def _observe(self, state, player_id):
        g = state._x
        display = jax.lax.optimization_barrier(g.display)
        return super()._observe(state.replace(_x=g.replace(display=display)), player_id)

compare({"main": E.VolleWolleJax(num_players=n), "barrier": Barrier(num_players=n), "main2": E.VolleWolleJax(num_players=n)},
        calls=150, devices=devices)
