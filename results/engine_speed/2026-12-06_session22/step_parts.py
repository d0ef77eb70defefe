import time, jax, jax.numpy as jnp, sys
import meadowzoo.jax as mjax
from benchmarks.jax_speed import uniform_legal
from pgx.experimental import auto_reset
game, n = sys.argv[1], int(sys.argv[2])
B, U = 1024, 8
def program(env, reset=True):
    step = jax.vmap(auto_reset(env.step, env.init) if reset else env.step)
    def one(_, carry):
        states, key = carry
        key, a, s = jax.random.split(key, 3)
        return step(states, uniform_legal(a, states.legal_action_mask), jax.random.split(s, B)), key
    return jax.jit(lambda st, k: jax.lax.fori_loop(0, U, one, (st, k)))
def variant(name):
    env = mjax.make(game, num_players=n)
    reset = True
    if name == "no_obs":
        size = env.observation_shape
        env._observe = lambda state, p: jnp.zeros(size, jnp.float32)
    if name == "no_reset":
        reset = False
    st = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), B))
    run = program(env, reset)
    c = jax.block_until_ready(run(st, jax.random.PRNGKey(1)))
    return run, c
runs = {k: variant(k) for k in ["full", "no_obs", "no_reset"]}
best = {k: 0 for k in runs}
for r in range(4):
    for k, (run, c) in runs.items():
        t = time.perf_counter(); calls = 0
        while time.perf_counter() - t < 1.5:
            c = jax.block_until_ready(run(*c)); calls += 1
        best[k] = max(best[k], calls * U * B / (time.perf_counter() - t)); runs[k] = (run, c)
print(game, n, {k: f"{v:,.0f}" for k, v in best.items()})
