"""The compiled trainer's action sampler (training/jax_sampling.py): the inverse-CDF draw from one
uniform per game follows softmax(logits) as jax.random.categorical does, never draws a masked
action, and the trainer's ``sampler`` setting is checked and kept by resumed runs."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

from meadowzoo.training.jax_config import LEGACY_SETTINGS, JaxTrainConfig, as_recorded  # noqa: E402
from meadowzoo.training.jax_network import MASKED  # noqa: E402
from meadowzoo.training.jax_sampling import _first_exceeding, inverse_cdf, sample  # noqa: E402

DRAWS = 200_000


def frequencies(sampler: str, logits: np.ndarray, seed: int = 0) -> np.ndarray:
    """Share of each action over DRAWS draws from one row of logits (repeated as a batch, in chunks)."""
    chunk = 20_000
    draw = jax.jit(lambda k, l: sample(sampler, k, l))
    batch = jnp.asarray(np.broadcast_to(logits, (chunk, logits.size)))
    counts = np.zeros(logits.size, np.int64)
    for i in range(DRAWS // chunk):
        actions = np.asarray(draw(jax.random.fold_in(jax.random.PRNGKey(seed), i), batch))
        counts += np.bincount(actions, minlength=logits.size)
    return counts / DRAWS


def softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max())
    return e / e.sum()


@pytest.mark.parametrize("actions", [1, 2, 7, 27, 100, 996])
def test_inverse_cdf_follows_the_softmax(actions):
    rng = np.random.default_rng(actions)
    logits = rng.normal(0, 1.5, actions).astype(np.float32)
    legal = rng.random(actions) < 0.6
    legal[rng.integers(actions)] = True
    logits = np.where(legal, logits, MASKED).astype(np.float32)
    want = softmax(logits.astype(np.float64))
    got = frequencies("inverse_cdf", logits)
    # every action within 5 standard errors of its probability; masked ones never
    tolerance = 5 * np.sqrt(want * (1 - want) / DRAWS) + 1e-9
    assert np.all(np.abs(got - want) <= tolerance), np.max(np.abs(got - want) - tolerance)
    assert got[~legal].sum() == 0


def test_inverse_cdf_and_gumbel_draw_the_same_distribution():
    logits = np.array([2.0, MASKED, 0.0, -1.0, 1.0, MASKED, 0.5], np.float32)
    a, b = frequencies("inverse_cdf", logits, 1), frequencies("gumbel", logits, 2)
    assert np.abs(a - b).max() < 0.01


def test_masked_actions_are_never_drawn_even_at_the_edges():
    """Legal actions only at the ends of blocks and of the row, tiny and huge weights side by side,
    and a row with a single legal action: no draw may land on a masked action."""
    actions = 996
    rows = []
    for legal_at in ([0], [actions - 1], [31, 32], [0, actions - 1], list(range(0, actions, 97))):
        row = np.full(actions, MASKED, np.float32)
        row[legal_at] = np.linspace(-30.0, 30.0, len(legal_at))  # weights from e^-60 to 1
        rows.append(row)
    logits = jnp.asarray(np.repeat(np.stack(rows), 4000, axis=0))
    drawn = np.asarray(inverse_cdf(jax.random.PRNGKey(3), logits))
    assert np.all(np.take_along_axis(np.asarray(logits), drawn[:, None], 1) > MASKED)


def test_a_target_at_the_very_top_takes_the_last_legal_action(monkeypatch):
    """Rounding can put u·total at the total: the draw then takes the last action of positive
    weight, not the padding or a masked action after it."""
    logits = jnp.asarray(np.array([[0.0, 0.0, MASKED, 0.0, MASKED, MASKED]], np.float32))
    monkeypatch.setattr(jax.random, "uniform", lambda key, shape, dtype=jnp.float32: jnp.ones(shape, dtype))
    assert int(inverse_cdf(jax.random.PRNGKey(0), logits)[0]) == 3


def test_a_target_at_zero_skips_leading_masked_actions(monkeypatch):
    """u = 0 draws the first action of positive weight, not a masked one before it."""
    logits = jnp.asarray(np.array([[MASKED, MASKED, 0.0, 0.0]], np.float32))
    monkeypatch.setattr(jax.random, "uniform", lambda key, shape, dtype=jnp.float32: jnp.zeros(shape, dtype))
    assert int(inverse_cdf(jax.random.PRNGKey(0), logits)[0]) == 2


def test_rounding_below_zero_or_past_the_total_never_picks_a_zero_weight():
    weights = jnp.asarray([[0.0, 0.0, 0.5, 0.0, 0.5, 0.0]])
    totals = jnp.cumsum(weights, -1)
    assert int(_first_exceeding(totals, jnp.asarray([-1e-7]), weights)[0]) == 2
    assert int(_first_exceeding(totals, jnp.asarray([1.0 + 1e-7]), weights)[0]) == 4


def test_sampler_setting_is_checked_and_old_records_mean_gumbel():
    assert JaxTrainConfig().sampler == "inverse_cdf"
    with pytest.raises(ValueError, match="sampler"):
        JaxTrainConfig(sampler="softmax")
    with pytest.raises(ValueError, match="sampler"):
        sample("softmax", jax.random.PRNGKey(0), jnp.zeros((1, 3)))
    # settings recorded before the field existed drew with Gumbel noise; a recorded value stands
    assert as_recorded({"num_envs": 8})["sampler"] == LEGACY_SETTINGS["sampler"] == "gumbel"
    assert as_recorded({"sampler": "inverse_cdf"})["sampler"] == "inverse_cdf"
