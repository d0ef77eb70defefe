import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jax, numpy as np
from hb_variants import H, D, ray_bits_packed
import envs.haste_bock.jax_tables as T
rng = np.random.default_rng(1)
flocks = np.stack([rng.choice(D.SQUARES, D.NUM_SHEEP, replace=False) for _ in range(200000)]).astype(np.int32)
a = np.asarray(jax.jit(jax.vmap(H.HasteBockJax._ray_bits))(flocks))
# the pair table: RAY_BITS[a * 81 + b, d] = 1 << i when b is the i-th square from a towards d
tab = T.RAY_BITS.reshape(D.SQUARES, D.SQUARES, 8) if T.RAY_BITS.shape[0] == D.SQUARES * D.SQUARES else None
ref = np.zeros_like(a)
for k in range(D.NUM_SHEEP):
    ref[:, k] = T.RAY_BITS[flocks[:, k, None] * D.SQUARES + flocks, :].sum(1)
print("engine ray bits equal the pair table on 200,000 flocks:", bool((a == ref).all()))
