"""A/B: SparseObservation with every scatter index in bounds (an absent one-hot writes 0.0 at its
block's first entry, which is 0 anyway) and the scatter told so (mode promise_in_bounds), against
out-of-range indices dropped by the scatter (as committed; not kept):

    PYTHONPATH=. .venv/bin/python results/engine_speed/2026-12-08_session37/ab_obs_inbounds.py GAME PLAYERS CALLS [MODE]"""
import sys
sys.path.insert(0, "results/engine_speed/2026-12-07_session34")
import numpy as np
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import jax.numpy as jnp
import benchmarks.jax_speed as js
from interleave import compare
from meadowzoo.envs.core import jax_core
game, players, calls = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
mode = sys.argv[4] if len(sys.argv) > 4 else "promise_in_bounds"
Sparse = jax_core.SparseObservation
runners = {"drop": js.JaxRunner(mjax.make(game, num_players=players), 1024, 32, devices=2)}

class InBounds(Sparse):
    def one_hots(self, values, width):
        values = jnp.asarray(values, jnp.int32)
        start = self._block(np.zeros(width * values.shape[0], np.float32))
        valid = (values >= 0) & (values < width)
        self._indices.append(start + width * jnp.arange(values.shape[0], dtype=jnp.int32) + jnp.where(valid, values, 0))
        self._values.append(valid.astype(jnp.float32))

    def build(self):
        base = jnp.asarray(np.concatenate(self._base) if self._base else np.zeros(0, np.float32))
        if not self._indices:
            return base
        return base.at[jnp.concatenate(self._indices)].set(jnp.concatenate(self._values), mode=mode, unique_indices=True)

for module in list(sys.modules.values()):
    if getattr(module, "SparseObservation", None) is Sparse:
        module.SparseObservation = InBounds
runners["inbounds"] = js.JaxRunner(mjax.make(game, num_players=players), 1024, 32, devices=2)
compare(runners, calls, "drop")
