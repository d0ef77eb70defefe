import time, numpy as np, jax, jax.numpy as jnp
B, A = 1024, 996
blocks = -(-A // 32)
def pack_shift(mask):
    padded = jnp.pad(mask, ((0, 0), (0, blocks * 32 - A))).reshape(B, blocks, 32)
    return (padded.astype(jnp.uint32) << jnp.arange(32, dtype=jnp.uint32)).sum(2, dtype=jnp.uint32)
def pack_bytes(mask):
    padded = jnp.pad(mask, ((0, 0), (0, blocks * 32 - A))).astype(jnp.uint8).reshape(B, blocks, 8, 4)
    x = jax.lax.bitcast_convert_type(padded, jnp.uint32)  # (B, blocks, 8)
    nib = (x * jnp.uint32(0x10204080)) >> 28
    return (nib << (4 * jnp.arange(8, dtype=jnp.uint32))).sum(2, dtype=jnp.uint32)
def pack_bytes2(mask):
    padded = jnp.pad(mask, ((0, 0), (0, blocks * 32 - A))).astype(jnp.uint8).reshape(B, blocks, 4, 8)
    x = jax.lax.bitcast_convert_type(padded, jnp.uint64) if False else None
    return x
def pack_dot(mask):
    padded = jnp.pad(mask, ((0, 0), (0, blocks * 32 - A))).reshape(B * blocks, 32).astype(jnp.float32)
    w = np.zeros((32, 2), np.float32); w[np.arange(16), 0] = 2.0 ** np.arange(16); w[16 + np.arange(16), 1] = 2.0 ** np.arange(16)
    lo_hi = (padded @ jnp.asarray(w)).astype(jnp.uint32).reshape(B, blocks, 2)
    return lo_hi[..., 0] | (lo_hi[..., 1] << 16)
masks = jnp.asarray(np.random.default_rng(0).random((B, A)) < 0.1)
ref = np.asarray(jax.jit(pack_shift)(masks))
for name, f in [("shift", pack_shift), ("bytes", pack_bytes), ("dot", pack_dot)]:
    out = np.asarray(jax.jit(f)(masks)); assert (out == ref).all(), name
    def loop(m):
        def body(i, c):
            m, acc = c
            w = f(m)
            return (m ^ (w[:, :1] & 1 == 0)[:, :1].astype(bool) & False) | m, acc ^ w.sum()
        return jax.lax.fori_loop(0, 32, body, (m, jnp.uint32(0)))
    run = jax.jit(loop).lower(masks).compile(); jax.block_until_ready(run(masks))
    ts = []
    for _ in range(20):
        t = time.perf_counter(); jax.block_until_ready(run(masks)); ts.append(time.perf_counter() - t)
    print(name, f"{min(ts) / 32 * 1e6:.1f} us per pack")
