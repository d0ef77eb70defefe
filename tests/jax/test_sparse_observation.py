"""SparseObservation (envs/core/jax_core.py) writes exactly the concatenation of its blocks."""

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

from meadowzoo.envs.core.jax_core import SparseObservation  # noqa: E402


def _sparse(values, squares, flag, dense):
    obs = SparseObservation()
    obs.one_hots(squares, 9)
    obs.one_hot(values[0], 4)
    obs.flag(flag)
    obs.dense(dense, 6)
    obs.constant(np.array([0.5, -2.0], np.float32))
    obs.one_hot(values[1], 3)
    return obs.build()


def _reference(values, squares, flag, dense):
    def hot(v, width):
        return (np.arange(width) == v).astype(np.float32)  # out of range: all zero
    return np.concatenate([
        *[hot(s, 9) for s in squares], hot(values[0], 4), np.array([float(flag)], np.float32),
        np.concatenate([dense.astype(np.float32), np.zeros(6 - dense.size, np.float32)]),
        np.array([0.5, -2.0], np.float32), hot(values[1], 3),
    ])


def test_sparse_observation_equals_the_concatenated_blocks_under_vmap():
    rng = np.random.default_rng(0)
    batch = 256
    values = rng.integers(-2, 6, size=(batch, 2)).astype(np.int32)  # some out of range: no 1 written
    squares = rng.integers(-1, 11, size=(batch, 3)).astype(np.int32)
    flags = rng.random(batch) < 0.5
    dense = rng.normal(size=(batch, 4)).astype(np.float32)
    got = np.asarray(jax.jit(jax.vmap(_sparse))(values, squares, flags, dense))
    want = np.stack([_reference(*args) for args in zip(values, squares, flags, dense)])
    assert got.shape == (batch, 3 * 9 + 4 + 1 + 6 + 2 + 3)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, want)


def test_sparse_observation_size_counts_every_block():
    obs = SparseObservation()
    obs.one_hot(jnp.int32(1), 5)
    obs.constant(np.ones(3))
    obs.dense(jnp.arange(2), 4)
    assert obs.size == 12
    np.testing.assert_array_equal(np.asarray(obs.build()), [0, 1, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0])
