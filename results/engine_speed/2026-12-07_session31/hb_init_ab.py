"""A/B: Haste Bock?'s init finds whether each opening roll allows a ram by a gather from the
(layout, face) table instead of a one-hot any over its 288 entries (XLA's CPU compiler splits a
reduction over more than 32 elements into an unfused reduce-window + reduce)."""
import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__))); import ab2dev
import jax, jax.numpy as jnp
import envs.haste_bock.jax_engine as H
from envs.haste_bock.jax_engine import init_chance, T, D, NUM_LAYOUTS, i32

class Gather(H.HasteBockJax):
    def _init(self, key):
        layout, dice = init_chance(key)
        if self.fixed_layout:
            layout = i32(T.FIXED_LAYOUT_INDEX)
        varying, constant, ok, rolls = self._init_table()
        faces = len(D.DIE_FACES)
        oks = [jnp.asarray(ok)[layout * faces + dice[k]] for k in range(rolls)]
        none = i32(rolls * faces)
        entry = none
        for k in reversed(range(rolls)):
            entry = jnp.where(oks[k], k * faces + dice[k], entry)
        entry = layout * (none + 1) + entry
        fields = {name: jnp.asarray(table)[entry] for name, table in varying.items()}
        return constant.replace(**fields)

if __name__ == "__main__":
    n = int(sys.argv[1])
    ab2dev.compare({"main": H.HasteBockJax(num_players=n), "gather": Gather(num_players=n), "main2": H.HasteBockJax(num_players=n)}, calls=100)
