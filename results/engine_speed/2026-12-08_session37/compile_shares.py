"""Compile time of the benchmark program (batch 1024 over 2 devices) with rows_cond's gathered
path (the engine's shares) against every share set to 1 (a select only: one compiled copy of each
branch):

    PYTHONPATH=. .venv/bin/python results/engine_speed/2026-12-08_session37/compile_shares.py GAME PLAYERS"""
import sys, time
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import jax
import benchmarks.jax_speed as js
game, players = sys.argv[1], int(sys.argv[2])
attrs = {"hase_und_igel": ("draw_share", "turn_share"), "volle_wolle": ("new_round_share",)}[game]
for rep in range(3):
    for label in ("shares", "select"):
        env = mjax.make(game, num_players=players)
        if label == "select":
            for a in attrs: setattr(env, a, 1.0)
        keys = jax.random.split(jax.random.PRNGKey(0), 1024).reshape(2, 512, -1)
        states = jax.pmap(jax.vmap(env.init))(keys)
        key = jax.random.split(jax.random.PRNGKey(1), 2)
        program = jax.pmap(js.rollout_program(env, 512, 32))
        t = time.perf_counter(); lowered = program.lower(states, key); t1 = time.perf_counter()
        lowered.compile(); t2 = time.perf_counter()
        print(f"{label}: trace+lower {t1-t:.1f} s, compile {t2-t1:.1f} s", flush=True)
