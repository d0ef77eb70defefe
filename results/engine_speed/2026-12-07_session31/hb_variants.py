"""Haste Bock? variants: ray bits packed per pair (two 32-bit words of 4 directions x 8 squares)
instead of a (9, 9, 8) sum; caravan lines by one LINE_MASK row gather per sheep."""
import jax, jax.numpy as jnp, numpy as np
import envs.haste_bock.jax_engine as H
from envs.haste_bock import jax_tables as T
D = H.D
i32 = jnp.int32

def ray_bits_packed(pos):
    row, col = pos // D.SIZE, pos % D.SIZE
    dr, dc = row[None, :] - row[:, None], col[None, :] - col[:, None]  # [sheep, other]
    adr, adc = jnp.abs(dr), jnp.abs(dc)
    dist = jnp.maximum(adr, adc)
    on = ((dr == 0) | (dc == 0) | (adr == adc)) & (dist > 0)
    # direction index of D.DIRS (N NE E SE S SW W NW) from the signs
    d = jnp.where(dr < 0, jnp.where(dc < 0, 7, jnp.where(dc == 0, 0, 1)),
                  jnp.where(dr == 0, jnp.where(dc > 0, 2, 6), jnp.where(dc > 0, 3, jnp.where(dc == 0, 4, 5))))
    bit = jnp.left_shift(jnp.uint32(1), (8 * (d % 4) + jnp.maximum(dist - 1, 0)).astype(jnp.uint32))
    lo = jnp.where(on & (d < 4), bit, jnp.uint32(0)).sum(1, dtype=jnp.uint32)  # distinct bits: the sum is their OR
    hi = jnp.where(on & (d >= 4), bit, jnp.uint32(0)).sum(1, dtype=jnp.uint32)
    shifts = jnp.asarray(np.array([0, 8, 16, 24], np.uint32))
    bits = jnp.concatenate([(lo[:, None] >> shifts) & 0xFF, (hi[:, None] >> shifts) & 0xFF], axis=1)
    return bits.astype(i32)

def caravans_rows(pos):
    mask = jnp.asarray(T.LINE_MASK)
    line_occupied = mask[pos[0]]
    for k in range(1, pos.shape[0]):
        line_occupied = line_occupied | mask[pos[k]]
    end_occupied = jnp.any(jnp.asarray(T.CARAVAN_END)[:, None] == pos[None, :], axis=1)
    return jnp.repeat(line_occupied, 2) & ~end_occupied

class Packed(H.HasteBockJax):
    _ray_bits = staticmethod(ray_bits_packed)

class Rows(H.HasteBockJax):
    _caravans = staticmethod(caravans_rows)

class Both(H.HasteBockJax):
    _ray_bits = staticmethod(ray_bits_packed)
    _caravans = staticmethod(caravans_rows)

def check(samples=100000, seed=0):
    rng = np.random.default_rng(seed)
    flocks = np.stack([rng.choice(D.SQUARES, D.NUM_SHEEP, replace=False) for _ in range(samples)]).astype(np.int32)
    a = jax.jit(jax.vmap(H.HasteBockJax._ray_bits))(flocks)
    b = jax.jit(jax.vmap(ray_bits_packed))(flocks)
    c = jax.jit(jax.vmap(H.HasteBockJax._caravans))(flocks)
    e = jax.jit(jax.vmap(caravans_rows))(flocks)
    print("ray bits equal:", bool((a == b).all()), "caravans equal:", bool((c == e).all()))

if __name__ == "__main__":
    check()
