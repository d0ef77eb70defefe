"""A/B: the benchmark program with pgx's auto_reset vs sparse auto_reset (two devices, interleaved calls)."""
import sys, time
sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
import numpy as np
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import jax
import benchmarks.jax_speed as js
from sparse import auto_reset

game, players = sys.argv[1], int(sys.argv[2])
calls = int(sys.argv[3]) if len(sys.argv) > 3 else 60
share = float(sys.argv[4]) if len(sys.argv) > 4 else 1 / 16
env = mjax.make(game, num_players=players)
orig = js.rollout_program
runners = {}
for label, step in (("pgx", None), ("pgx2", None), ("sparse", auto_reset(env.step, env.init, share))):
    js.rollout_program = lambda e, b, u, step=step: orig(e, b, u, step=step)
    runners[label] = js.JaxRunner(env, 1024, 32, devices=2)
js.rollout_program = orig
leaves = {k: jax.tree_util.tree_leaves(r.states) for k, r in runners.items()}
ref = leaves["pgx"]
for k, v in leaves.items():
    print(k, "same states after warm-up:", all(bool((a == b).all()) for a, b in zip(ref, v)))
times = {k: [] for k in runners}
for _ in range(calls):
    for k, r in runners.items():
        t = time.perf_counter()
        r.states, r.key = jax.block_until_ready(r.run(r.states, r.key))
        times[k].append(time.perf_counter() - t)
for k, v in times.items():
    print(f"{k:8s} min {1024 * 32 / min(v):11,.0f} steps/s  x{min(times['pgx']) / min(v):.3f} by min, "
          f"x{np.percentile(times['pgx'], 10) / np.percentile(v, 10):.3f} p10, x{np.median(times['pgx']) / np.median(v):.3f} median", flush=True)
