"""The opponent population of the compiled trainer: frozen, Elo-rated snapshots of the learner.

All functions are pure ``jnp`` code, run inside the compiled update:

* the population holds up to ``capacity`` frozen copies of the learner's actor (``params``, each
  leaf with a leading member axis), their Elo ``rating`` and a ``filled`` flag; it starts with the
  learner's initial network (member 0, rating 0; the learner also starts at 0);
* :func:`draw_slots`: each update the ``opponent_slots`` opponents are drawn from the filled members,
  weighted by ``(1 − E)^pfsp_power + 0.001`` where ``E`` is the learner's expected score against the
  member (prioritised fictitious self-play: members that still beat the learner play it more);
* :func:`rate`: after the rollout every finished game is a result ``s = (reward + 1) / 2`` of the
  learner against its game's member (1 a win, ½ a tie, 0 a loss; with more players the rank reward
  mapped to [0, 1]); the learner's rating moves by ``elo_k`` times its mean ``s − E`` over all
  finished games, each member's by minus ``elo_k`` times the mean over its own games;
* :func:`promote`: when the learner's expected score against the best-rated member reaches
  ``snapshot_threshold`` (and ``snapshot_min_updates`` have passed since the last snapshot) the
  learner's actor joins the population with the learner's rating, in the first empty place or,
  when full, in place of the lowest-rated member.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class Population:
    params: dict  # actor parameters, leading axis = member
    rating: jax.Array  # (capacity,) float32 Elo
    filled: jax.Array  # (capacity,) bool
    learner_rating: jax.Array  # () float32
    since_snapshot: jax.Array  # () int32: updates since the last snapshot
    snapshots: jax.Array  # () int32: snapshots taken so far (including the initial member)


def expected_score(rating: jax.Array, opponent: jax.Array) -> jax.Array:
    """Elo's expected score of ``rating`` against ``opponent``."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def create(actor_params: dict, capacity: int) -> Population:
    params = jax.tree_util.tree_map(lambda leaf: jnp.zeros((capacity,) + leaf.shape, leaf.dtype).at[0].set(leaf),
                                    actor_params)
    return Population(params=params, rating=jnp.zeros(capacity, jnp.float32),
                      filled=jnp.zeros(capacity, bool).at[0].set(True), learner_rating=jnp.float32(0.0),
                      since_snapshot=jnp.int32(0), snapshots=jnp.int32(1))


def draw_slots(population: Population, key: jax.Array, slots: int, pfsp_power: float) -> jax.Array:
    """Members (indices) for the update's opponent slots."""
    expected = expected_score(population.learner_rating, population.rating)
    weight = jnp.where(population.filled, (1.0 - expected) ** pfsp_power + 1e-3, 0.0)
    return jax.random.categorical(key, jnp.log(weight), shape=(slots,))


def member_params(population: Population, members: jax.Array) -> dict:
    """The actor parameters of ``members``, stacked."""
    return jax.tree_util.tree_map(lambda leaf: leaf[members], population.params)


def rate(population: Population, game_member: jax.Array, reward: jax.Array, done: jax.Array,
         elo_k: float) -> Population:
    """Elo update from the rollout's finished games (arrays of one shape: the member each game
    played, the learner's reward, whether the game ended at that step)."""
    capacity = population.rating.shape[0]
    member = game_member.reshape(-1)
    finished = done.reshape(-1).astype(jnp.float32)
    expected = expected_score(population.learner_rating, population.rating[member])
    surprise = ((reward.reshape(-1) + 1.0) / 2.0 - expected) * finished
    learner = population.learner_rating + elo_k * surprise.sum() / jnp.maximum(finished.sum(), 1.0)
    per_member = jax.ops.segment_sum(surprise, member, num_segments=capacity)
    games = jax.ops.segment_sum(finished, member, num_segments=capacity)
    rating = population.rating - elo_k * per_member / jnp.maximum(games, 1.0)
    return population.replace(rating=rating, learner_rating=learner)


def promote(population: Population, actor_params: dict, threshold: float, min_updates: int) -> tuple[Population, jax.Array]:
    """Add the learner's actor when it has earned it (see the module docstring); also returns
    whether it did."""
    best = jnp.max(jnp.where(population.filled, population.rating, -jnp.inf))
    earned = (expected_score(population.learner_rating, best) >= threshold) & (population.since_snapshot >= min_updates)
    full = jnp.all(population.filled)
    place = jnp.where(full, jnp.argmin(jnp.where(population.filled, population.rating, jnp.inf)),
                      jnp.argmin(population.filled))
    params = jax.tree_util.tree_map(
        lambda stack, leaf: stack.at[place].set(jnp.where(earned, leaf, stack[place])), population.params, actor_params)
    population = population.replace(
        params=params,
        rating=population.rating.at[place].set(jnp.where(earned, population.learner_rating, population.rating[place])),
        filled=population.filled.at[place].set(population.filled[place] | earned),
        since_snapshot=jnp.where(earned, 0, population.since_snapshot + 1),
        snapshots=population.snapshots + earned.astype(jnp.int32),
    )
    return population, earned
