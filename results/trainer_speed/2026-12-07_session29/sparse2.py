import time
import jax, jax.numpy as jnp, numpy as np
K, H, N = 1036, 128, 64
for M in (128, 1024):
    rng = np.random.default_rng(0)
    idx = jnp.asarray(np.stack([rng.choice(K, N, replace=False) for _ in range(M)]).astype(np.int32))
    val = jnp.ones((M, N))
    W = jax.random.normal(jax.random.PRNGKey(0), (K, H))
    def g1(idx, val, W): return jnp.einsum("mn,mnh->mh", val, W[idx])
    def g2(idx, val, W): return (W[idx] * val[..., None]).sum(1)
    def g3(idx, val, W): return jnp.take(W, idx, axis=0).sum(1)
    for name, f in (("einsum", g1), ("mulsum", g2), ("takesum", g3)):
        def many(idx, val, W, f=f):
            def body(c, _):
                y = f(idx, val + c, W)
                return c + y.sum() * 1e-9, None
            return jax.lax.scan(body, 0.0, None, length=50)[0]
        j = jax.jit(many); j(idx, val, W).block_until_ready()
        best = 1e9
        for _ in range(5):
            t = time.perf_counter(); j(idx, val, W).block_until_ready(); best = min(best, time.perf_counter() - t)
        print(f"M={M} {name:8s} {best/50*1e6:8.1f} us")
