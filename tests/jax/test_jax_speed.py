"""The JAX speed benchmark's own pieces: the random legal action it plays and how it splits a
batch over devices (its figures are recorded by running it, not asserted here)."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import jax.numpy as jnp  # noqa: E402

from benchmarks.jax_speed import split_count, uniform_legal  # noqa: E402


def test_random_action_is_always_legal_and_covers_every_legal_action():
    rng = np.random.default_rng(0)
    mask = rng.random((64, 1000)) < 0.01  # Haste Bock?-sized, a few legal actions per row
    mask[:, 999] = True  # the last action of the last (partial) block of 32
    mask[0] = False
    mask[0, 0] = True  # a single legal action
    picks = np.stack([np.asarray(uniform_legal(jax.random.PRNGKey(k), jnp.asarray(mask))) for k in range(200)])
    assert mask[np.arange(64)[None, :], picks].all()
    assert (picks[:, 0] == 0).all()
    for row in (1, 17, 63):
        assert set(picks[:, row]) == set(np.flatnonzero(mask[row]))


@pytest.mark.parametrize(("batch", "devices", "split"), [(1024, 2, 2), (1, 2, 1), (64, 1, 1), (6, 4, 1), (4096, 16, 16)])
def test_batch_splits_only_evenly_over_devices(batch, devices, split):
    assert split_count(batch, devices) == split
