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


def test_rows_at_puts_each_row_at_its_slot_under_vmap():
    """``rows_at``: row i of the rows lands as block row slots[i]; unwritten block rows stay zero
    (three rows in a block of four, as three seats in Haste Bock?'s four-row player blocks)."""
    rng = np.random.default_rng(1)
    batch = 64
    rows = rng.normal(size=(batch, 3, 5)).astype(np.float32)
    slots = np.stack([rng.permutation(4)[:3] for _ in range(batch)]).astype(np.int32)

    def sparse(rows, slots):
        obs = SparseObservation()
        obs.one_hot(jnp.int32(2), 3)
        obs.rows_at(rows, slots, 4)
        obs.constant(np.array([7.0], np.float32))
        return obs.build()

    got = np.asarray(jax.jit(jax.vmap(sparse))(rows, slots))
    want = np.zeros((batch, 3 + 4 * 5 + 1), np.float32)
    want[:, 2] = 1.0
    want[:, -1] = 7.0
    for g in range(batch):
        for i in range(3):
            want[g, 3 + 5 * slots[g, i]: 3 + 5 * (slots[g, i] + 1)] = rows[g, i]
    np.testing.assert_array_equal(got, want)
