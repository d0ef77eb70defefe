import os, sys, time
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import jax
if os.environ.get("UNROLL_THREEFRY"):
    from jax._src.random import threefry2x32 as T
    from jax._src.interpreters import mlir
    mlir.register_lowering(T.threefry2x32_p, T._threefry2x32_lowering_rule, platform="cpu")
from benchmarks.jax_speed import JaxRunner
game, n = sys.argv[1], int(sys.argv[2])
r = JaxRunner(mjax.make(game, num_players=n), 1024, 32, devices=2)
best = max(r.measure(1.5) for _ in range(3))
print(f"RESULT {best:.0f} compile {r.compile_seconds:.1f}")
