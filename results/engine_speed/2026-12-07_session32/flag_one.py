import sys, time
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import jax
from benchmarks.jax_speed import JaxRunner
game, n = sys.argv[1], int(sys.argv[2])
r = JaxRunner(mjax.make(game, num_players=n), 1024, 32, devices=2)
best = max(r.measure(1.5) for _ in range(3))
print(f"RESULT {best:.0f} compile {r.compile_seconds:.1f}")
