"""A/B of benchmark harness variants over two CPU devices (jax_speed's program shape):
single calls interleaved, min / p10 / median per variant. usage: ab_harness.py GAME PLAYERS [calls]"""
import sys, time
import numpy as np
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import jax, jax.numpy as jnp
from benchmarks import jax_speed as js

FALSE = jnp.bool_(False)

def uniform_legal_bits(bits, mask):
    """js.uniform_legal with the 32-bit draw given."""
    batch, actions = mask.shape
    blocks = -(-actions // 32)
    words = js.pack_mask(mask)
    per_block = jax.lax.population_count(words).astype(jnp.int32)
    u = (bits >> 8).astype(jnp.int32)
    count = per_block.sum(1)
    k = ((u >> 12) * count + (((u & 0xFFF) * count) >> 12)) >> 12
    if blocks == 1:
        return js.kth_set_bit(words[:, 0], k)
    earlier = jnp.triu(jnp.ones((blocks, blocks), jnp.float32), 1)
    before = (per_block.astype(jnp.float32) @ earlier).astype(jnp.int32)
    block = (before <= k[:, None]).sum(1) - 1
    rest = k - jnp.take_along_axis(before, block[:, None], 1)[:, 0]
    word = jnp.take_along_axis(words, block[:, None], 1)[:, 0]
    return (block * 32 + js.kth_set_bit(word, rest)).astype(jnp.int32)

def one_draw_program(env, batch, unroll):
    def reset_step(state, action, step_key, init_key):
        state = jax.lax.cond(state.terminated | state.truncated,
                             lambda: state.replace(terminated=FALSE, truncated=FALSE, rewards=jnp.zeros_like(state.rewards)),
                             lambda: state)
        state = env.step(state, action, step_key)
        return jax.lax.cond(state.terminated | state.truncated,
                            lambda: env.init(init_key).replace(terminated=state.terminated, truncated=state.truncated, rewards=state.rewards),
                            lambda: state)
    step = jax.vmap(reset_step)
    def one(_, carry):
        states, key = carry
        words = jax.random.bits(key, (5 * batch + 2,), jnp.uint32)
        keys = words[2:2 + 4 * batch].reshape(batch, 2, 2)
        actions = uniform_legal_bits(words[2 + 4 * batch:], states.legal_action_mask)
        return step(states, actions, keys[:, 0], keys[:, 1]), words[:2]
    return jax.jit(lambda states, key: jax.lax.fori_loop(0, unroll, one, (states, key)))

VARIANTS = {"base": js.rollout_program, "one_draw": one_draw_program}

def runner(env, make, batch=1024, unroll=32, devices=2):
    share = batch // devices
    keys = jax.random.split(jax.random.PRNGKey(0), batch)
    used = jax.local_devices()[:devices]
    states = jax.pmap(jax.vmap(env.init), devices=used)(keys.reshape((devices, share) + keys.shape[1:]))
    key = jax.random.split(jax.random.PRNGKey(1), devices)
    run = jax.pmap(make(env, share, unroll), devices=used)
    states, key = jax.block_until_ready(run(states, key))
    return [run, states, key]

if __name__ == "__main__":
    game, players = sys.argv[1], int(sys.argv[2]); calls = int(sys.argv[3]) if len(sys.argv) > 3 else 150
    names = sys.argv[4].split(",") if len(sys.argv) > 4 else list(VARIANTS)
    env = mjax.make(game, num_players=players)
    rs = {n: runner(env, VARIANTS[n.split("#")[0]]) for n in names}
    times = {n: [] for n in rs}
    for _ in range(calls):
        for n, r in rs.items():
            t = time.perf_counter(); r[1], r[2] = jax.block_until_ready(r[0](r[1], r[2])); times[n].append(time.perf_counter() - t)
    base = names[0]
    for n, v in times.items():
        print(f"{game} {players}p {n:12s} min {1024*32/min(v):11,.0f} steps/s x{min(times[base])/min(v):.3f} by min, "
              f"x{np.percentile(times[base],10)/np.percentile(v,10):.3f} by p10, x{np.median(times[base])/np.median(v):.3f} by median", flush=True)
