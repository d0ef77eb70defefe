"""A/B: SparseObservation.build as one scatter into the constant base (as committed) against the
same blocks built densely (one-hot blocks as comparisons with an iota, dense blocks in place, the
whole vector one concatenate), the benchmark's program, single calls interleaved:

    PYTHONPATH=. .venv/bin/python results/engine_speed/2026-12-07_session36/ab_dense_obs.py GAME PLAYERS CALLS"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session34"))
import numpy as np  # noqa: E402

import meadowzoo.jax as mjax  # noqa: E402

mjax.use_cpu_devices(2)
import jax.numpy as jnp  # noqa: E402

import benchmarks.jax_speed as js  # noqa: E402
from interleave import compare  # noqa: E402
from meadowzoo.envs.core import jax_core  # noqa: E402

game, players, calls = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
Sparse = jax_core.SparseObservation
runners = {"scatter": js.JaxRunner(mjax.make(game, num_players=players), 1024, 32, devices=2)}


class Dense(Sparse):
    """The same blocks, recorded as dense pieces."""

    def __init__(self):
        super().__init__()
        self._pieces = []

    def one_hots(self, values, width):
        values = jnp.asarray(values, jnp.int32)
        self._block(np.zeros(width * values.shape[0], np.float32))
        self._pieces.append((values[:, None] == jnp.arange(width, dtype=jnp.int32)).astype(jnp.float32).reshape(-1))

    def dense(self, values, width=None):
        values = jnp.asarray(values).reshape(-1).astype(jnp.float32)
        self._block(np.zeros(values.shape[0] if width is None else width, np.float32))
        pad = 0 if width is None else width - values.shape[0]
        self._pieces.append(jnp.concatenate([values, jnp.zeros(pad, jnp.float32)]) if pad else values)

    def entries_at(self, offsets, values, width):
        self._block(np.zeros(width, np.float32))
        offsets = jnp.asarray(offsets, jnp.int32).reshape(-1)
        values = jnp.asarray(values).reshape(-1).astype(jnp.float32)
        hit = offsets[:, None] == jnp.arange(width, dtype=jnp.int32)
        self._pieces.append(jnp.sum(jnp.where(hit, values[:, None], 0.0), axis=0))

    def constant(self, values):
        self._block(np.asarray(values, np.float32).reshape(-1))
        self._pieces.append(jnp.asarray(np.asarray(values, np.float32).reshape(-1)))

    def build(self):
        return jnp.concatenate(self._pieces) if self._pieces else jnp.zeros(0, jnp.float32)


for module in list(sys.modules.values()):  # the engines imported the class by name
    if getattr(module, "SparseObservation", None) is Sparse:
        module.SparseObservation = Dense
runners["dense"] = js.JaxRunner(mjax.make(game, num_players=players), 1024, 32, devices=2)
compare(runners, calls, "scatter")
