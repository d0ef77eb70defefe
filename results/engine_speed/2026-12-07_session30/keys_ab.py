import sys, os, time; sys.path.insert(0, os.path.dirname(__file__))
from ab import time_programs, report
import jax, jax.numpy as jnp, numpy as np
import meadowzoo.jax as mjax
from benchmarks.jax_speed import rollout_program, kth_set_bit
from envs.core.jax_core import _mix32
from pgx.experimental import auto_reset
import pgx
game, n = sys.argv[1], int(sys.argv[2])
batch, unroll = 1024, 32
def uniform_legal_u(u, mask):
    batch, actions = mask.shape
    assert actions <= 32
    padded = jnp.pad(mask, ((0, 0), (0, 32 - actions)))
    words = (padded.astype(jnp.uint32) << jnp.arange(32, dtype=jnp.uint32)).sum(1, dtype=jnp.uint32)
    count = jax.lax.population_count(words).astype(jnp.int32)
    k = ((u >> 12) * count + (((u & 0xFFF) * count) >> 12)) >> 12
    return kth_set_bit(words, k)
def counter_program(env):
    def reset_step(state, action, key):
        st = env.step(state.replace(terminated=state.terminated & False), action, key) if False else None
        return None
    def step_one(state, action, key):
        fresh = state.terminated | state.truncated
        state = jax.tree_util.tree_map(lambda a, b: jnp.where(fresh, a, b),
                    state.replace(terminated=jnp.bool_(False), truncated=jnp.bool_(False), rewards=jnp.zeros_like(state.rewards)), state)
        state = env.step(state, action, key)
        init = env.init(key ^ jnp.uint32(0x5851F42D)).replace(terminated=state.terminated, truncated=state.truncated, rewards=state.rewards)
        return jax.tree_util.tree_map(lambda a, b: jnp.where(state.terminated | state.truncated, a, b), init, state)
    step = jax.vmap(step_one)
    games = jnp.arange(batch, dtype=jnp.uint32)
    def one(i, carry):
        states, seed = carry
        base = seed + jnp.uint32(i) * jnp.uint32(0x9E3779B9)
        h = _mix32(base ^ (games * jnp.uint32(0x85EBCA6B)))
        u = (_mix32(h ^ jnp.uint32(1)) >> 8).astype(jnp.int32)
        keys = jnp.stack([_mix32(h ^ jnp.uint32(2)), _mix32(h ^ jnp.uint32(3))], axis=1)
        actions = uniform_legal_u(u, states.legal_action_mask)
        return step(states, actions, keys), seed
    def run(states, seed):
        states, _ = jax.lax.fori_loop(0, unroll, one, (states, seed))
        return states, _mix32(seed + jnp.uint32(12345))
    return jax.jit(run)
runs = {}
for name, env in {"vw": mjax.make(game, num_players=n), "c4": pgx.make("connect_four")}.items():
    states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), batch))
    p0 = rollout_program(env, batch, unroll); c0 = jax.block_until_ready(p0(states, jax.random.PRNGKey(1)))
    p1 = counter_program(env); c1 = jax.block_until_ready(p1(states, jnp.uint32(7)))
    runs[name + "_threefry"] = [p0, c0]; runs[name + "_counter"] = [p1, c1]
report(*time_programs(runs, batch, unroll, seconds=2, rounds=3))
