"""A/B: Haste Bock?'s observation planes by static slices and selects per seat (the engine now)
against a gather of each plane's sheep square per game (before)."""
import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__))); import ab2dev
import jax, jax.numpy as jnp, numpy as np
import envs.haste_bock.jax_engine as H
from envs.haste_bock.jax_engine import D, i32

class Gathered(H.HasteBockJax):
    def _planes(self, state, seat):
        squares = state.pos[jnp.asarray(self.plane_sheep)[seat]]
        return (jnp.arange(D.SQUARES, dtype=i32)[None, :] == squares[:, None]).reshape(-1)

if __name__ == "__main__":
    n = int(sys.argv[1])
    ab2dev.compare({"gathered (before)": Gathered(num_players=n), "static": H.HasteBockJax(num_players=n),
                    "gathered 2": Gathered(num_players=n)}, calls=100)
