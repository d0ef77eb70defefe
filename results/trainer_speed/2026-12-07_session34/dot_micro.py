"""Times the HB network's rollout and epoch products in one process (flags from XLA_FLAGS)."""
import time, sys, os, numpy as np
import jax, jax.numpy as jnp
obs, hid, act = 1036, 128, 996
k = jax.random.PRNGKey(0)
def mlp(p, x):
    h = jnp.tanh(x @ p[0] + p[1]); h = jnp.tanh(h @ p[2] + p[3]); return h @ p[4] + p[5]
def params(k, n_out):
    ks = jax.random.split(k, 3)
    return [jax.random.normal(ks[0], (obs, hid)) * .03, jnp.zeros(hid), jax.random.normal(ks[1], (hid, hid)) * .1,
            jnp.zeros(hid), jax.random.normal(ks[2], (hid, n_out)) * .1, jnp.zeros(n_out)]
slots = [params(kk, act) for kk in jax.random.split(k, 8)]
slot_p = [jnp.stack([s[i] for s in slots]) for i in range(6)]
x = (jax.random.uniform(k, (64, 128, obs)) < 0.07).astype(jnp.float32)
@jax.jit
def opp(sp, x):  # 64 passes, 8 slots x 16 rows
    def body(c, xx):
        l = jax.vmap(mlp)(sp, xx.reshape(8, 16, obs))
        return c + l.sum(), None
    return jax.lax.scan(body, 0.0, x)[0]
@jax.jit
def one(p, x):  # 64 passes, one params 128 rows
    def body(c, xx):
        return c + mlp(p, xx).sum(), None
    return jax.lax.scan(body, 0.0, x)[0]
xb = x.reshape(8, 1024, obs)
@jax.jit
def epoch(p, x):  # 8 minibatches of 1024 rows, forward + backward
    def body(p, xx):
        g = jax.grad(lambda p: jnp.sum(mlp(p, xx) ** 2))(p)
        return [a - 1e-6 * b for a, b in zip(p, g)], None
    return jax.lax.scan(body, p, x)[0]
res = {}
for name, f, args in (("opp8x16", opp, (slot_p, x)), ("one128", one, (slots[0], x)), ("epoch1024", epoch, (slots[0], xb))):
    jax.block_until_ready(f(*args))
    ts = []
    for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else 10):
        t = time.perf_counter(); jax.block_until_ready(f(*args)); ts.append(time.perf_counter() - t)
    res[name] = min(ts) * 1e3
print(os.environ.get("XLA_FLAGS", "-"), " ".join(f"{k} {v:.1f}ms" for k, v in res.items()), flush=True)
