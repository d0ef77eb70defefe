"""A/B: the observation's display features gathered one slot at a time (the engine now) against
one gather of all slots (before): XLA's CPU gather of 4+ table rows per game under vmap is ~5x slower."""
import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ab2dev import compare
import jax, jax.numpy as jnp
import envs.volle_wolle.jax_engine as E
n = int(sys.argv[1]); devices = int(sys.argv[2]) if len(sys.argv) > 2 else 2

class OneGather(E.VolleWolleJax):
    def _display_features(self, g):
        return jnp.asarray(self.t.card_features)[jnp.where(g.display >= 0, g.display, E.NUM_CARDS)].reshape(-1)

compare({"one gather (before)": OneGather(num_players=n), "per slot": E.VolleWolleJax(num_players=n),
         "one gather 2": OneGather(num_players=n)}, calls=150, devices=devices)
