import time, jax, jax.numpy as jnp, numpy as np
B, P, S, R, H = 2048, 9, 81, 307, 128
rng = np.random.default_rng(0)
pos = rng.integers(0, S, (B, P))
board = np.zeros((B, P, S), np.float32); np.put_along_axis(board, pos[..., None], 1.0, 2)
rest = rng.random((B, R)).astype(np.float32) * (rng.random((B, R)) < 0.2)
x = jnp.asarray(np.concatenate([board.reshape(B, -1), rest], 1))
W = jnp.asarray(rng.normal(size=(P * S + R, H)).astype(np.float32)); d = jnp.asarray(rng.normal(size=(B, H)).astype(np.float32))
def dense(W, x): return x @ W
def sparse(W, x):
    b = x[:, :P*S].reshape(B, P, S)
    idx = jnp.argmax(b, -1) + jnp.arange(P) * S
    on = jnp.max(b, -1)
    rows = W[idx] * on[..., None]          # (B, P, H)
    return rows.sum(1) + x[:, P*S:] @ W[P*S:]
def sparse2(W, x):  # one-hot weights by take
    b = x[:, :P*S].reshape(B, P, S)
    idx = jnp.argmax(b, -1) + jnp.arange(P) * S
    on = jnp.max(b, -1)
    rows = jnp.take(W, idx, axis=0, mode="clip") * on[..., None]
    return rows.sum(1) + x[:, P*S:] @ W[P*S:]
for name, f in [("dense", dense), ("sparse", sparse), ("sparse2", sparse2)]:
    fwd = jax.jit(f)
    grad = jax.jit(lambda W, x, f=f: jax.grad(lambda W: (f(W, x) * d).sum())(W))
    print(name, float(jnp.abs(fwd(W, x) - dense(W, x)).max()), float(jnp.abs(grad(W,x)-jax.grad(lambda W:(dense(W,x)*d).sum())(W)).max()))
    for g, lab in [(fwd, "fwd"), (grad, "grad")]:
        jax.block_until_ready(g(W, x))
        best = 1e9
        for r in range(5):
            t = time.perf_counter()
            for _ in range(50): out = g(W, x)
            jax.block_until_ready(out); best = min(best, (time.perf_counter() - t) / 50)
        print(f"  {lab} {best*1e3:.3f} ms")
print("---")
ar = jnp.arange(S, dtype=jnp.float32)
def sparse3(W, x):
    b = x[:, :P*S].reshape(B, P, S)
    idx = (b @ ar).astype(jnp.int32) + jnp.arange(P) * S
    on = b.sum(-1)
    return (W[idx] * on[..., None]).sum(1) + x[:, P*S:] @ W[P*S:]
idxc = jnp.asarray(pos + np.arange(P) * S)
def gather_only(W, x): return W[idxc].sum(1)
def rest_only(W, x): return x[:, P*S:] @ W[P*S:]
for name, f in [("sparse3", sparse3), ("gather_only", gather_only), ("rest_only", rest_only)]:
    fwd = jax.jit(f)
    grad = jax.jit(lambda W, x, f=f: jax.grad(lambda W: (f(W, x) * d).sum())(W))
    for g, lab in [(fwd, "fwd"), (grad, "grad")]:
        jax.block_until_ready(g(W, x))
        best = 1e9
        for r in range(5):
            t = time.perf_counter()
            for _ in range(50): out = g(W, x)
            jax.block_until_ready(out); best = min(best, (time.perf_counter() - t) / 50)
        print(f"  {name} {lab} {best*1e3:.3f} ms")
