"""One engine's benchmark program timed alone (40 calls, best / p10 / median), for A/Bs of XLA_FLAGS in separate processes: XLA_FLAGS=... isa.py GAME PLAYERS."""
import os, sys, time
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import jax
import benchmarks.jax_speed as js
game, players = sys.argv[1], int(sys.argv[2])
r = js.JaxRunner(mjax.make(game, num_players=players), 1024, 32, devices=2)
for _ in range(3): r.states, r.key = jax.block_until_ready(r.run(r.states, r.key))
ts = []
for _ in range(40):
    t = time.perf_counter(); r.states, r.key = jax.block_until_ready(r.run(r.states, r.key)); ts.append(time.perf_counter() - t)
ts.sort()
print(os.environ.get("XLA_FLAGS"), game, players, f"best {1024*32/ts[0]:,.0f} p10 {1024*32/ts[4]:,.0f} median {1024*32/ts[20]:,.0f}")
