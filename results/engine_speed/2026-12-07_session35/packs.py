"""pack_mask variants: uint32 (batch, ceil(A/32)), bit i of word w = mask[:, 32w + i]."""
import jax, jax.numpy as jnp, numpy as np

def _padded(mask, dtype):
    batch, actions = mask.shape
    blocks = -(-actions // 32)
    return jnp.pad(mask, ((0, 0), (0, blocks * 32 - actions))).astype(dtype).reshape(batch, blocks, 32), blocks

def pack_shift32(mask):
    """one OR-reduce over the 32 bits of a word (contiguous minor axis)"""
    bits, _ = _padded(mask, jnp.uint32)
    return (bits << jnp.arange(32, dtype=jnp.uint32)).sum(2, dtype=jnp.uint32)

def pack_dot16(mask):
    """two 16-bit halves as float32 products with powers of two (exact below 2**24)"""
    bits, blocks = _padded(mask, jnp.float32)
    halves = bits.reshape(mask.shape[0], blocks, 2, 16) @ jnp.asarray(2.0 ** np.arange(16), jnp.float32)
    h = halves.astype(jnp.uint32)
    return h[:, :, 0] | (h[:, :, 1] << 16)

def pack_bytes_tree(mask):
    """8 bits per byte by a shift tree over the minor axis, then 4 bytes per word"""
    bits, _ = _padded(mask, jnp.uint32)
    w = bits
    for width in (1, 2, 4, 8, 16):
        w = w[..., 0::2] | (w[..., 1::2] << width)
    return w[..., 0]

VARIANTS = {"shift32": pack_shift32, "dot16": pack_dot16, "tree": pack_bytes_tree}
