import time, numpy as np, jax, jax.numpy as jnp
B = 512
SQ = jnp.arange(65, dtype=jnp.int32)
COST = jnp.asarray((np.arange(70) * (np.arange(70) + 1)) // 2, jnp.int32)
IS_L = jnp.asarray(np.arange(65) % 7 == 3)

def per_game(pos, carrots, cur):
    occupied = jnp.any((pos[:, None] == SQ[None, :]) & (pos[:, None] > 0), axis=0)
    p = pos[cur * 2]
    dist = jnp.clip(SQ - p, 0, 69)
    ok = (SQ > p) & (COST[dist] <= carrots[cur]) & ~occupied & ~(IS_L & (carrots[cur] > 50))
    first = jnp.min(jnp.where(ok, SQ, 99))
    return ok, first

def batch_minor(pos, carrots, cur):  # pos (4, B), carrots (2, B), cur (B,)
    occupied = jnp.any((pos[:, None, :] == SQ[None, :, None]) & (pos[:, None, :] > 0), axis=0)  # (65, B)
    p = jnp.where(cur == 0, pos[0], pos[2])
    c = jnp.where(cur == 0, carrots[0], carrots[1])
    dist = jnp.clip(SQ[:, None] - p[None, :], 0, 69)
    ok = (SQ[:, None] > p[None]) & (COST[dist] <= c[None]) & ~occupied & ~(IS_L[:, None] & (c[None] > 50))
    first = jnp.min(jnp.where(ok, SQ[:, None], 99), axis=0)
    return ok, first

key = jax.random.PRNGKey(0)
pos = jax.random.randint(key, (B, 4), 0, 65)
carrots = jax.random.randint(key, (B, 2), 0, 120)
cur = jax.random.randint(key, (B,), 0, 2)
f1 = jax.jit(lambda a, b, c: jax.lax.fori_loop(0, 50, lambda i, acc: acc + jax.vmap(per_game)(a + i, b, c)[1].sum(), 0))
f2 = jax.jit(lambda a, b, c: jax.lax.fori_loop(0, 50, lambda i, acc: acc + batch_minor(a + i, b, c)[1].sum(), 0))
r1 = f1(pos, carrots, cur); r2 = f2(pos.T, carrots.T, cur)
print("same", int(r1), int(r2))
for name, f, args in (("vmap", f1, (pos, carrots, cur)), ("minor", f2, (pos.T, carrots.T, cur))) * 2:
    f(*args).block_until_ready()
    t = time.perf_counter()
    for _ in range(50): f(*args).block_until_ready()
    print(name, (time.perf_counter() - t) / 50 / 50 * 1e6, "us per batch step")
