"""Share of a batch's games that end in one random-play step (mean and the most in a step,
after 100 warm-up steps; 512 games, 600 steps):

    PYTHONPATH=. .venv/bin/python results/engine_speed/2026-12-08_session37/end_share.py GAME"""
import sys, jax, jax.numpy as jnp, numpy as np
import meadowzoo.jax as mjax
from benchmarks.jax_speed import rollout_program
game = sys.argv[1]
for players in (2, 3, 4):
    env = mjax.make(game, num_players=players)
    states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), 512))
    run = rollout_program(env, 512, 1)
    key = jax.random.PRNGKey(1); ends = []
    for _ in range(600):
        states, key = run(states, key)
        ends.append(float(np.mean(np.asarray(states.terminated))))  # before auto_reset? (auto_reset keeps terminated=True on the fresh state)
    e = np.array(ends[100:])
    print(game, players, f"mean {e.mean():.4f} max {e.max():.4f} (1/{1/e.mean():.0f} steps)")
