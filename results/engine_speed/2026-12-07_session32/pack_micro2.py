import time, numpy as np, jax, jax.numpy as jnp
from benchmarks.jax_speed import pack_mask
B, A = 1024, 996
blocks = -(-A // 32)
def pack_bytes(mask):
    padded = jnp.pad(mask, ((0, 0), (0, blocks * 32 - A))).astype(jnp.uint8).reshape(B, blocks, 8, 4)
    x = jax.lax.bitcast_convert_type(padded, jnp.uint32)
    nib = (x * jnp.uint32(0x10204080)) >> 28
    return (nib << (4 * jnp.arange(8, dtype=jnp.uint32))).sum(2, dtype=jnp.uint32)
def only_pad(mask):
    padded = jnp.pad(mask, ((0, 0), (0, blocks * 32 - A))).astype(jnp.uint8).reshape(B, blocks, 8, 4)
    return jax.lax.bitcast_convert_type(padded, jnp.uint32)[..., 0]
def bytes_u16(mask):
    # pairs of bytes -> u16 -> ... no: two-level: u32 words of 4 bytes, nibbles, then combine 8 nibbles by shifts as a dot-free OR tree
    padded = jnp.pad(mask, ((0, 0), (0, blocks * 32 - A))).astype(jnp.uint8).reshape(B, blocks, 8, 4)
    x = jax.lax.bitcast_convert_type(padded, jnp.uint32)
    nib = (x * jnp.uint32(0x10204080)) >> 28
    w = nib[..., 0]
    for k in range(1, 8):
        w = w | (nib[..., k] << (4 * k))
    return w
def no_pad_split(mask):
    full = (A // 32) * 32
    head = mask[:, :full].astype(jnp.uint8).reshape(B, A // 32, 8, 4)
    x = jax.lax.bitcast_convert_type(head, jnp.uint32)
    nib = (x * jnp.uint32(0x10204080)) >> 28
    wh = (nib << (4 * jnp.arange(8, dtype=jnp.uint32))).sum(2, dtype=jnp.uint32)
    tail = mask[:, full:].astype(jnp.uint32)
    wt = (tail << jnp.arange(A - full, dtype=jnp.uint32)).sum(1, dtype=jnp.uint32)
    return jnp.concatenate([wh, wt[:, None]], axis=1)
masks = jnp.asarray(np.random.default_rng(0).random((B, A)) < 0.1)
ref = np.asarray(jax.jit(pack_mask)(masks))
for name, f in [("bytes", pack_bytes), ("only_pad", only_pad), ("or_tree", bytes_u16), ("no_pad_split", no_pad_split)]:
    out = np.asarray(jax.jit(f)(masks))
    if name != "only_pad": assert (out == ref).all(), name
    def loop(m):
        def body(i, c):
            m, acc = c
            w = f(m)
            return m, acc ^ w.sum()
        return jax.lax.fori_loop(0, 32, body, (m, jnp.uint32(0)))
    run = jax.jit(loop).lower(masks).compile(); jax.block_until_ready(run(masks))
    ts = []
    for _ in range(20):
        t = time.perf_counter(); jax.block_until_ready(run(masks)); ts.append(time.perf_counter() - t)
    print(name, f"{min(ts) / 32 * 1e6:.1f} us per pack")
