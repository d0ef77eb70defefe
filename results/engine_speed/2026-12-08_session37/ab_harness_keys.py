"""A/B (measurement): the benchmark program with its own threefry (split of the loop key, the
action bits, the per-game step keys) replaced by counter hashes; Pgx's auto_reset unchanged.
Other games (other keys), same program otherwise.

    PYTHONPATH=. .venv/bin/python results/engine_speed/2026-12-08_session37/ab_harness_keys.py GAME PLAYERS CALLS"""
import sys
sys.path.insert(0, "results/engine_speed/2026-12-07_session34")
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import jax, jax.numpy as jnp
import benchmarks.jax_speed as js
from interleave import compare
from meadowzoo.envs.core.jax_core import _mix32
game, players, calls = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

def hashed_program(env, batch, unroll, step=None):
    from pgx.experimental import auto_reset
    step = jax.vmap(step or auto_reset(env.step, env.init))
    games = jnp.arange(batch, dtype=jnp.uint32)
    def one(_, carry):
        states, key = carry
        c = jax.random.key_data(key).reshape(-1)[0].astype(jnp.uint32)
        base = _mix32(c * jnp.uint32(0x9E3779B9) + jnp.uint32(0x7F4A7C15))
        h1 = _mix32(base ^ (games * jnp.uint32(0x85EBCA6B)))
        h2 = _mix32(h1 + jnp.uint32(0x68E31DA4))
        h3 = _mix32(h2 + jnp.uint32(0x1B873593))
        u = (h1 >> 8).astype(jnp.int32)
        words = js.pack_mask(states.legal_action_mask)
        per_block = jax.lax.population_count(words).astype(jnp.int32)
        count = per_block.sum(1)
        k = ((u >> 12) * count + (((u & 0xFFF) * count) >> 12)) >> 12
        blocks = words.shape[1]
        if blocks == 1:
            actions = js.kth_set_bit(words[:, 0], k)
        else:
            earlier = jnp.triu(jnp.ones((blocks, blocks), jnp.float32), 1)
            before = (per_block.astype(jnp.float32) @ earlier).astype(jnp.int32)
            block = (before <= k[:, None]).sum(1) - 1
            rest = k - jnp.take_along_axis(before, block[:, None], 1)[:, 0]
            word = jnp.take_along_axis(words, block[:, None], 1)[:, 0]
            actions = (block * 32 + js.kth_set_bit(word, rest)).astype(jnp.int32)
        keys = jax.random.wrap_key_data(jnp.stack([h2, h3], 1))
        keys = jax.random.key_data(keys) if not jnp.issubdtype(key.dtype, jax.dtypes.prng_key) else keys
        key = jax.random.wrap_key_data(jnp.stack([c + 1, c + 1]).astype(jnp.uint32)) if jnp.issubdtype(key.dtype, jax.dtypes.prng_key) else jnp.stack([c + 1, c + 1]).astype(jnp.uint32)
        return step(states, actions, keys), key
    return jax.jit(lambda states, key: jax.lax.fori_loop(0, unroll, one, (states, key)))

env = mjax.make(game, num_players=players)
runners = {"threefry": js.JaxRunner(env, 1024, 32, devices=2)}
orig = js.rollout_program
js.rollout_program = hashed_program
runners["hashed"] = js.JaxRunner(mjax.make(game, num_players=players), 1024, 32, devices=2)
js.rollout_program = orig
compare(runners, calls, "threefry")
