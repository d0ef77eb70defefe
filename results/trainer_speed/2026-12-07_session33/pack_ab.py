import time, numpy as np, jax, jax.numpy as jnp
from benchmarks.jax_speed import pack_mask, _NIBBLE_GATHER
def bench(f,*a,n=400):
    jax.block_until_ready(f(*a)); ts=[]
    for _ in range(n):
        t=time.perf_counter(); jax.block_until_ready(f(*a)); ts.append(time.perf_counter()-t)
    return round(np.min(ts)*1e6,1), round(np.median(ts)*1e6,1)
def pack_b(mask):
    batch, actions = mask.shape
    blocks = -(-actions // 32)
    if actions % 4:
        mask = jnp.pad(mask, ((0, 0), (0, 4 - actions % 4)))
    quads = jax.lax.bitcast_convert_type(mask.astype(jnp.uint8).reshape(batch, -1, 4), jnp.uint32)
    nibbles = (quads * jnp.uint32(_NIBBLE_GATHER)) >> 28
    nibbles = jnp.pad(nibbles, ((0, 0), (0, blocks * 8 - nibbles.shape[1]))).reshape(batch, blocks, 8)
    return (nibbles << (4 * jnp.arange(8, dtype=jnp.uint32))).sum(2, dtype=jnp.uint32)
def pack_d(mask):
    batch, actions = mask.shape
    blocks = -(-actions // 32)
    b = jnp.packbits(mask, axis=1, bitorder="little")
    b = jnp.pad(b, ((0,0),(0, blocks*4 - b.shape[1]))).reshape(batch, blocks, 4)
    return jax.lax.bitcast_convert_type(b, jnp.uint32)
def pack_e(mask):  # 8 bytes per u64 multiply? use two u32 halves: nibbles then bytes by multiply
    batch, actions = mask.shape
    blocks = -(-actions // 32)
    if actions % 4:
        mask = jnp.pad(mask, ((0, 0), (0, 4 - actions % 4)))
    quads = jax.lax.bitcast_convert_type(mask.astype(jnp.uint8).reshape(batch, -1, 4), jnp.uint32)
    nibbles = (quads * jnp.uint32(_NIBBLE_GATHER)) >> 28
    nibbles = jnp.pad(nibbles, ((0, 0), (0, blocks * 8 - nibbles.shape[1]))).reshape(batch, blocks, 8)
    out = nibbles[..., 0]
    for i in range(1, 8):
        out = out | (nibbles[..., i] << (4 * i))
    return out
rng=np.random.default_rng(0)
for A in (996, 139, 27):
    m=jnp.asarray(rng.random((512,A))<0.05)
    ref=np.asarray(pack_mask(m))
    for name,f in (("a",pack_mask),("b",pack_b),("d",pack_d),("e",pack_e)):
        g=jax.jit(f); assert (np.asarray(g(m))==ref).all(), name
        print(A,name,bench(g,m))
def pack_f(mask):
    batch, actions = mask.shape
    blocks = -(-actions // 32)
    m = jnp.pad(mask, ((0, 0), (0, blocks * 32 - actions))).reshape(batch, blocks * 2, 16).astype(jnp.float32)
    halves = (m * (2.0 ** jnp.arange(16, dtype=jnp.float32))).sum(2).astype(jnp.uint32).reshape(batch, blocks, 2)
    return halves[..., 0] | (halves[..., 1] << 16)
def pack_g(mask):
    batch, actions = mask.shape
    blocks = -(-actions // 32)
    m = jnp.pad(mask, ((0, 0), (0, blocks * 32 - actions))).reshape(batch, blocks, 32).astype(jnp.uint32)
    return (m << jnp.arange(32, dtype=jnp.uint32)).sum(2, dtype=jnp.uint32)
def pack_h(mask):  # select-based or
    batch, actions = mask.shape
    blocks = -(-actions // 32)
    m = jnp.pad(mask, ((0, 0), (0, blocks * 32 - actions))).reshape(batch, blocks, 32)
    return jnp.where(m, jnp.uint32(1) << jnp.arange(32, dtype=jnp.uint32), jnp.uint32(0)).sum(2, dtype=jnp.uint32)
def pack_i(mask):  # transpose-major: blocks along minor axis
    batch, actions = mask.shape
    blocks = -(-actions // 32)
    m = jnp.pad(mask, ((0, 0), (0, blocks * 32 - actions))).reshape(batch, blocks, 32)
    out = jnp.zeros((batch, blocks), jnp.uint32)
    for i in range(32):
        out = out | (m[:, :, i].astype(jnp.uint32) << i)
    return out
for A in (996, 139):
    m=jnp.asarray(rng.random((512,A))<0.05)
    ref=np.asarray(pack_mask(m))
    for name,f in (("a",pack_mask),("f",pack_f),("g",pack_g),("h",pack_h),("i",pack_i)):
        g=jax.jit(f); assert (np.asarray(g(m))==ref).all(), name
        print(A,name,bench(g,m))
