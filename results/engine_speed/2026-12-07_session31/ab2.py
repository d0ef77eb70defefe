"""Robust A/B timing on a noisy shared machine: single program calls interleaved across variants
(A B C A B C ...), many of them; each variant's cost is the minimum (and 10th percentile) of its
call times, which drop the calls that other tenants' load slowed down."""
import time, jax, numpy as np

def time_calls(runs, batch, unroll, calls=200):
    times = {k: [] for k in runs}
    for _ in range(calls):
        for k, (p, c) in runs.items():
            t = time.perf_counter()
            c = jax.block_until_ready(p(*c))
            times[k].append(time.perf_counter() - t)
            runs[k][1] = c
    base = next(iter(times))
    b_min, b_p10 = min(times[base]), np.percentile(times[base], 10)
    for k, v in times.items():
        mn, p10 = min(v), np.percentile(v, 10)
        print(f"{k:16s} min {batch * unroll / mn:11,.0f} steps/s ({1e9 * mn / (batch * unroll):6.0f} ns/step)  "
              f"x{b_min / mn:.3f} by min, x{b_p10 / p10:.3f} by p10, x{np.median(times[base]) / np.median(v):.3f} by median", flush=True)
    return times
