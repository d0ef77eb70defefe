import time, jax, jax.numpy as jnp, numpy as np
from meadowzoo.envs.volle_wolle import env as pz_env, data
table = jnp.asarray(pz_env.card_features(data.load_deck(None)))
def bench(f, slots, name, batch=1024):
    idx = jax.random.randint(jax.random.PRNGKey(0), (batch, slots), 0, 61)
    g = jax.jit(jax.vmap(f))
    jax.block_until_ready(g(idx)); ts = []
    for _ in range(300):
        t = time.perf_counter(); jax.block_until_ready(g(idx)); ts.append(time.perf_counter() - t)
    print(f"{name:16s} batch {batch} slots {slots}: min {1e6*min(ts):7.1f} us", flush=True)
for batch in (512, 1024, 2048):
    for slots in (3, 5, 7):
        bench(lambda i: table[i].reshape(-1), slots, "index", batch)
        bench(lambda i: table.T[:, i].T.reshape(-1), slots, "transposed", batch)
        bench(lambda i: jnp.concatenate([table[i[s]] for s in range(i.shape[0])]), slots, "per slot", batch)
