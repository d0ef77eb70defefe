"""Shared by this folder's A/Bs: compiled runners (``benchmarks.jax_speed.JaxRunner``) timed by
single calls interleaved, A B C A B C …, as session 31's ``ab2dev.compare``, which builds its
runners from engines alone; these A/Bs also vary the step program around the engine."""
import time

import jax
import numpy as np


def compare(runners: dict, calls: int, base: str) -> None:
    """Say whether every runner's states equal ``base``'s after the warm-up, then time ``calls``
    rounds and print each runner's speed and its ratio to ``base`` by fastest, p10 and median call;
    returns the call times by runner."""
    leaves = {k: jax.tree_util.tree_leaves(r.states) for k, r in runners.items()}
    for k, v in leaves.items():
        print(k, "same states after warm-up:", all(bool((a == b).all()) for a, b in zip(leaves[base], v)))
    times = {k: [] for k in runners}
    for _ in range(calls):
        for k, r in runners.items():
            t = time.perf_counter()
            r.states, r.key = jax.block_until_ready(r.run(r.states, r.key))
            times[k].append(time.perf_counter() - t)
    b = times[base]
    for k, v in times.items():
        steps = runners[k].batch * runners[k].unroll
        print(f"{k:8s} min {steps / min(v):11,.0f} steps/s  x{min(b) / min(v):.3f} by min, "
              f"x{np.percentile(b, 10) / np.percentile(v, 10):.3f} p10, x{np.median(b) / np.median(v):.3f} median", flush=True)
    return times
