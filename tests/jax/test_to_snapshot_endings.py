"""``MeadowJaxEnv.to_snapshot`` at the end of a game: a game cut by ``max_turns`` (scored by the
standing), a finished game stepped again (Pgx zeroes its rewards), a game ended by an illegal
action (Pgx's rule, no state of the rules) and a batch instead of one game."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("pgx")

import jax.numpy as jnp  # noqa: E402

import meadowzoo.jax as mjax  # noqa: E402


def _play(env, until, seed: int = 0, limit: int = 5000):
    """One game of random legal moves until ``until(state)``."""
    step = jax.jit(env.step)
    state = jax.jit(env.init)(jax.random.PRNGKey(seed))
    rng = np.random.default_rng(seed)
    for i in range(limit):
        if until(state):
            return state, step
        action = int(rng.choice(np.flatnonzero(np.asarray(state.legal_action_mask))))
        state = step(state, jnp.int32(action), jax.random.PRNGKey(1000 + i))
    raise AssertionError("the game did not get there")


@pytest.mark.parametrize("game,players,max_turns", [("haste_bock", 2, 3), ("hase_und_igel", 3, 12)])
def test_a_game_cut_with_standing_scoring_converts_with_its_rewards_even_after_another_step(game, players, max_turns):
    env = mjax.make(game, num_players=players, max_turns=max_turns, truncation_scoring="standing")
    state, step = _play(env, lambda s: bool(s.truncated))
    paid = np.asarray(state.rewards)
    assert np.abs(paid).sum() > 0  # the standing paid something
    again = step(state, jnp.int32(0), jax.random.PRNGKey(7))
    assert not np.asarray(again.rewards).any()  # Pgx: a finished game's step pays nothing
    for one in (state, again):
        snapshot = env.to_snapshot(one)
        assert list(snapshot["cumulative_rewards"].values()) == pytest.approx(paid, abs=1e-6)
        reference = env.reference_env()
        reference.restore(snapshot)  # refused before: zero rewards do not fit a standing cut
        assert all(reference.truncations.values())


def test_a_finished_game_stepped_again_converts_with_its_final_rewards():
    env = mjax.make("volle_wolle", num_players=2)
    state, step = _play(env, lambda s: bool(s.terminated))
    final = np.asarray(state.rewards)
    again = step(state, jnp.int32(0), jax.random.PRNGKey(7))
    snapshot = env.to_snapshot(again)
    assert list(snapshot["cumulative_rewards"].values()) == pytest.approx(final, abs=1e-6)
    env.reference_env().restore(snapshot)


def test_a_game_ended_by_an_illegal_action_and_a_batch_have_no_snapshot():
    env = mjax.make("volle_wolle", num_players=2)
    state = jax.jit(env.init)(jax.random.PRNGKey(0))
    illegal = int(np.flatnonzero(~np.asarray(state.legal_action_mask))[0])
    ended = jax.jit(env.step)(state, jnp.int32(illegal), jax.random.PRNGKey(1))
    assert bool(ended.terminated)
    with pytest.raises(ValueError, match="illegal action"):
        env.to_snapshot(ended)
    batch = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), 3))
    with pytest.raises(ValueError, match="one game's state"):
        env.to_snapshot(batch)
