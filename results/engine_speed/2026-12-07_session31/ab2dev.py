"""Robust A/B over two CPU devices (the README table's program shape, jax_speed.JaxRunner):
single calls interleaved across variants, min / p10 / median of the call times per variant."""
import sys, time
import numpy as np
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import jax
from benchmarks.jax_speed import JaxRunner


def compare(envs, calls=200, batch=1024, unroll=32, devices=2):
    runners = {k: JaxRunner(env, batch, unroll, devices=devices) for k, env in envs.items()}
    leaves = {k: jax.tree_util.tree_leaves(r.states) for k, r in runners.items()}
    ref = next(iter(leaves.values()))
    for k, v in leaves.items():
        print(k, "same states after warm-up:", all(bool((a == b).all()) for a, b in zip(ref, v)))
    times = {k: [] for k in runners}
    for _ in range(calls):
        for k, r in runners.items():
            t = time.perf_counter()
            r.states, r.key = jax.block_until_ready(r.run(r.states, r.key))
            times[k].append(time.perf_counter() - t)
    base = next(iter(times))
    for k, v in times.items():
        mn = min(v)
        print(f"{k:16s} min {batch * unroll / mn:11,.0f} steps/s  x{min(times[base]) / mn:.3f} by min, "
              f"x{np.percentile(times[base], 10) / np.percentile(v, 10):.3f} by p10, "
              f"x{np.median(times[base]) / np.median(v):.3f} by median", flush=True)
    return times
