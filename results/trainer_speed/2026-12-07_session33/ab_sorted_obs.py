"""A/B: SparseObservation with every index in range and sorted (an out-of-range one-hot writes 0.0
into its own first entry) and a scatter told so, against the current one (drop mode)."""
import sys, importlib.util, os
sys.path.insert(0, "/work/main/results/engine_speed/2026-12-07_session31"); import ab2dev
import numpy as np, jax, jax.numpy as jnp
from meadowzoo.envs.core import jax_core

class SortedObservation(jax_core.SparseObservation):
    def one_hots(self, values, width):
        values = jnp.asarray(values, jnp.int32)
        start = self._block(np.zeros(width * values.shape[0], np.float32))
        first = start + width * jnp.arange(values.shape[0], dtype=jnp.int32)
        inside = (values >= 0) & (values < width)
        self._indices.append(jnp.where(inside, first + values, first))
        self._values.append(inside.astype(jnp.float32))
    def build(self):
        base = jnp.asarray(np.concatenate(self._base))
        return base.at[jnp.concatenate(self._indices)].set(jnp.concatenate(self._values), mode="promise_in_bounds",
                                                           unique_indices=True, indices_are_sorted=True)

game, n, calls = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
path = {"haste_bock": "envs/haste_bock/jax_engine.py", "hase_und_igel": "envs/hase_und_igel/jax_engine.py"}[game]
cls = {"haste_bock": "HasteBockJax", "hase_und_igel": "HaseUndIgelJax"}[game]
envs = {}
for label in ("base", "sorted", "base2"):
    spec = importlib.util.spec_from_file_location(f"ab_{label}", path)
    mod = importlib.util.module_from_spec(spec); sys.modules[spec.name] = mod; spec.loader.exec_module(mod)
    if label == "sorted":
        mod.SparseObservation = SortedObservation
    envs[label] = getattr(mod, cls)(num_players=n)
ab2dev.compare(envs, calls=calls)
