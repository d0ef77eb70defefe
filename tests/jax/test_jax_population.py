"""The Elo-rated snapshot population of the compiled trainer (training/jax_population.py)."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

from meadowzoo.training import jax_population as jp  # noqa: E402


def actor(value: float) -> dict:
    return {"0": {"kernel": jnp.full((2, 3), value), "bias": jnp.full((3,), value)}}


def test_starts_with_the_initial_network_only():
    population = jp.create(actor(1.0), capacity=3)
    assert np.asarray(population.filled).tolist() == [True, False, False]
    assert float(population.params["0"]["bias"][0, 0]) == 1.0
    members = jp.draw_slots(population, jax.random.PRNGKey(0), slots=16, pfsp_power=2.0)
    assert set(np.asarray(members).tolist()) == {0}


def test_wins_raise_the_learner_and_lower_the_member():
    population = jp.create(actor(0.0), capacity=2)
    member = jnp.zeros((4, 8), jnp.int32)
    done = jnp.zeros((4, 8), bool).at[3].set(True)
    reward = jnp.ones((4, 8))  # wins, but only the finished games count
    rated = jp.rate(population, member, reward.at[0].set(-1.0), done, elo_k=16.0)
    assert float(rated.learner_rating) == pytest.approx(8.0)  # 16 × (1 − 0.5)
    assert float(rated.rating[0]) == pytest.approx(-8.0)
    assert float(rated.rating[1]) == 0.0  # played no game
    unchanged = jp.rate(population, member, reward, jnp.zeros((4, 8), bool), elo_k=16.0)
    assert float(unchanged.learner_rating) == 0.0


def test_promotion_needs_the_threshold_and_replaces_the_weakest_when_full():
    population = jp.create(actor(0.0), capacity=2).replace(since_snapshot=jnp.int32(5))
    kept, earned = jp.promote(population, actor(1.0), threshold=0.6, min_updates=1)
    assert not bool(earned) and int(kept.filled.sum()) == 1
    strong = population.replace(learner_rating=jnp.float32(200.0))
    grown, earned = jp.promote(strong, actor(1.0), threshold=0.6, min_updates=1)
    assert bool(earned) and np.asarray(grown.filled).tolist() == [True, True]
    assert float(grown.params["0"]["bias"][1, 0]) == 1.0 and float(grown.rating[1]) == 200.0
    assert int(grown.snapshots) == 2 and int(grown.since_snapshot) == 0
    # too soon after the last snapshot
    _, earned = jp.promote(grown.replace(learner_rating=jnp.float32(900.0)), actor(2.0), 0.6, min_updates=3)
    assert not bool(earned)
    # full: the lowest-rated member (the initial one, rating 0) makes way
    later = grown.replace(learner_rating=jnp.float32(900.0), since_snapshot=jnp.int32(3))
    replaced, earned = jp.promote(later, actor(2.0), 0.6, min_updates=3)
    assert bool(earned)
    assert np.asarray(replaced.params["0"]["bias"][:, 0]).tolist() == [2.0, 1.0]
    assert np.asarray(replaced.rating).tolist() == [900.0, 200.0]


def test_slot_draws_favour_members_the_learner_does_not_beat():
    population = jp.create(actor(0.0), capacity=2)
    population = population.replace(filled=jnp.array([True, True]), rating=jnp.array([-400.0, 400.0]))
    members = np.asarray(jp.draw_slots(population, jax.random.PRNGKey(1), slots=2000, pfsp_power=2.0))
    assert 0.9 < (members == 1).mean() < 1.0
