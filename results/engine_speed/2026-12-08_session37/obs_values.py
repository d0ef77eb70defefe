"""Which values the JAX engines' observations take in random play (256 games, 640 steps each),
and whether bfloat16 or float16 would hold them exactly.

    PYTHONPATH=. .venv/bin/python results/engine_speed/2026-12-08_session37/obs_values.py"""
import numpy as np, jax, jax.numpy as jnp, ml_dtypes, sys
import meadowzoo.jax as mjax
from benchmarks.jax_speed import rollout_program
for game in ["haste_bock", "hase_und_igel", "volle_wolle"]:
    for players in (2, 4):
        env = mjax.make(game, num_players=players)
        states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), 256))
        run = rollout_program(env, 256, 16)
        key = jax.random.PRNGKey(1)
        vals = set()
        for _ in range(40):
            states, key = run(states, key)
            vals |= set(np.unique(np.asarray(states.observation)).tolist())
        v = np.array(sorted(vals), np.float32)
        bf = v.astype(ml_dtypes.bfloat16).astype(np.float32); f16 = v.astype(np.float16).astype(np.float32)
        print(game, players, len(v), "bf16 exact:", bool((bf == v).all()), "f16 exact:", bool((f16 == v).all()), v[:6], v[-6:], "obs size", states.observation.shape)
