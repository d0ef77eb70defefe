"""order_ab.py split over two CPU devices (the README table's program shape): jax_speed's
JaxRunner for both engines, interleaved rounds, median of the per-round ratios."""
import sys, os, statistics; sys.path.insert(0, os.path.dirname(__file__))
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
from benchmarks.jax_speed import JaxRunner
from order_ab import NextFirst

n = int(sys.argv[1])
runners = {"next_first (before)": JaxRunner(NextFirst(num_players=n), 1024, 32, devices=2),
           "roll_first (engine)": JaxRunner(mjax.make("volle_wolle", num_players=n), 1024, 32, devices=2)}
speeds = {k: [] for k in runners}
for _ in range(10):
    for k, r in runners.items():
        speeds[k].append(r.measure(1.0))
base = speeds["next_first (before)"]
for k, v in speeds.items():
    ratios = [a / b for a, b in zip(v, base)]
    print(f"{k:22s} best {max(v):12,.0f} steps/s  median x{statistics.median(ratios):.3f} ({min(ratios):.2f}-{max(ratios):.2f})")
