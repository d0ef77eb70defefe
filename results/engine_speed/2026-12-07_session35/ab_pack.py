"""A/B in the benchmark program (batch 1024 over two CPU devices): benchmarks.jax_speed.pack_mask vs variants."""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session34"))
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import numpy as np, jax, jax.numpy as jnp
import benchmarks.jax_speed as js
from interleave import compare
from packs import VARIANTS
game, players = sys.argv[1], int(sys.argv[2])
calls = int(sys.argv[3]) if len(sys.argv) > 3 else 60
names = sys.argv[4].split(",") if len(sys.argv) > 4 else list(VARIANTS)
rng = np.random.default_rng(0)
for A in (7, 139, 996, 70):
    m = jnp.asarray(rng.random((64, A)) < 0.3)
    for n in names:
        assert (np.asarray(VARIANTS[n](m)) == np.asarray(js.pack_mask(m))).all(), (n, A)
env = mjax.make(game, num_players=players)
orig = js.pack_mask
runners = {}
for label in ["base", "base2"] + names:
    js.pack_mask = orig if label.startswith("base") else VARIANTS[label]
    runners[label] = js.JaxRunner(env, 1024, 32, devices=2)
js.pack_mask = orig
compare(runners, calls, "base")
