"""A/B: Haste Bock?'s jump masks with the (9, 8) bit-rank result materialised (optimization_barrier)
before it is expanded to (9, 8, 8) booleans, so that XLA does not redo the rank loop per bit."""
import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__))); import ab2dev
import jax, jax.numpy as jnp, numpy as np
import envs.haste_bock.jax_engine as H
from envs.haste_bock.jax_engine import D, T, i32

def jumps_barrier(pos, bits):
    row, col = (pos // D.SIZE)[:, None], (pos % D.SIZE)[:, None]
    dir_r, dir_c = jnp.asarray(T.DIR_R), jnp.asarray(T.DIR_C)
    room_r = jnp.where(dir_r > 0, D.SIZE - 1 - row, jnp.where(dir_r < 0, row, D.SIZE))
    room_c = jnp.where(dir_c > 0, D.SIZE - 1 - col, jnp.where(dir_c < 0, col, D.SIZE))
    length = jnp.minimum(room_r, room_c)
    behind_free = bits & ~(bits >> 1) & ((jnp.left_shift(1, length) >> 1) - 1)
    out = jnp.zeros_like(bits)
    for i in range(T.RAY_LEN):
        rank = jax.lax.population_count(bits & ((1 << i) - 1))
        out = out | jnp.left_shift((behind_free >> i) & 1, rank)
    out = jax.lax.optimization_barrier(out)
    return ((out[..., None] >> jnp.arange(T.RAY_LEN, dtype=i32)) & 1).astype(jnp.bool_)

class Barrier(H.HasteBockJax):
    _jumps = staticmethod(jumps_barrier)

if __name__ == "__main__":
    n = int(sys.argv[1])
    ab2dev.compare({"main": H.HasteBockJax(num_players=n), "barrier": Barrier(num_players=n), "main2": H.HasteBockJax(num_players=n)}, calls=100)
