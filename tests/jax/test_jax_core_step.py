"""The shared engine base's step (``MeadowJaxEnv._pgx_step``: Pgx's ``Env.step`` with its
``lax.cond``s written as selects, so that ``vmap`` does not broadcast the engine's tables) gives
exactly what Pgx's own ``Env.step`` gives: legal moves, illegal moves (Pgx's rule: the game ends,
the mover is penalised) and moves on finished games (nothing changes, zero rewards), one game at a
time and in a batch."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pgx = pytest.importorskip("pgx")

import jax.numpy as jnp  # noqa: E402

import meadowzoo.jax as mjax  # noqa: E402
from meadowzoo.envs.core.jax_core import select_tree  # noqa: E402

BATCH = 32


def _assert_same(a, b):
    for (path, x), y in zip(jax.tree_util.tree_leaves_with_path(a), jax.tree_util.tree_leaves(b)):
        assert np.array_equal(np.asarray(x), np.asarray(y)), jax.tree_util.keystr(path)


@pytest.mark.parametrize("game,players", [("volle_wolle", 3), ("haste_bock", 2), ("hase_und_igel", 2)])
def test_step_equals_pgx_step_for_legal_illegal_and_finished_games(game, players):
    env = mjax.make(game, num_players=players)
    ours = jax.jit(jax.vmap(env.step))
    theirs = jax.jit(jax.vmap(lambda s, a, k: pgx.core.Env.step(env, s, a, k)))
    one_ours = jax.jit(env.step)
    one_theirs = jax.jit(lambda s, a, k: pgx.core.Env.step(env, s, a, k))
    states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), BATCH))
    rng = np.random.default_rng(1)
    kinds = set()
    for step in range(40):
        mask = np.asarray(states.legal_action_mask)
        # mostly legal moves; every few steps one game in four tries an illegal one (if it has any)
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        if step % 5 == 4:
            for row in range(0, BATCH, 4):
                if not mask[row].all():
                    actions[row] = rng.choice(np.flatnonzero(~mask[row]))
        finished = np.asarray(states.terminated | states.truncated)
        legal = mask[np.arange(BATCH), actions]
        kinds |= {"finished" if f else ("legal" if ok else "illegal") for f, ok in zip(finished, legal)}
        keys = jax.random.split(jax.random.PRNGKey(100 + step), BATCH)
        actions = jnp.asarray(actions, jnp.int32)
        expected = theirs(states, actions, keys)
        _assert_same(ours(states, actions, keys), expected)
        if step % 20 == 0:  # unbatched too (a lax.cond there takes one branch only)
            first = jax.tree_util.tree_map(lambda leaf: leaf[0], states)
            _assert_same(one_ours(first, actions[0], keys[0]), one_theirs(first, actions[0], keys[0]))
        states = expected
    assert kinds == {"legal", "illegal", "finished"}


def test_select_tree_selects_leaf_by_leaf_and_passes_shared_leaves_through():
    shared = jnp.arange(3)
    a = {"x": jnp.ones(2), "y": shared}
    b = {"x": jnp.zeros(2), "y": shared}
    assert select_tree(jnp.bool_(True), a, b)["y"] is shared
    np.testing.assert_array_equal(select_tree(jnp.bool_(False), a, b)["x"], np.zeros(2))
    batched = jax.vmap(lambda p: select_tree(p, a, b)["x"])(jnp.array([True, False]))
    np.testing.assert_array_equal(batched, [[1, 1], [0, 0]])


@pytest.mark.parametrize("game,players", [("volle_wolle", 2), ("haste_bock", 2), ("hase_und_igel", 2)])
def test_an_action_out_of_range_is_illegal_and_leaves_a_finished_game_alone(game, players):
    """A traced mask lookup would wrap −1 to the last action and clamp a large index to it, so the
    engine would play a move no mask allows (Haste Bock?'s time track went to −990): an index
    outside 0..num_actions-1 ends the game as an illegal action does (−1 for the mover)."""
    env = mjax.make(game, num_players=players)
    step = jax.jit(env.step)
    state = jax.jit(env.init)(jax.random.PRNGKey(0))
    key = jax.random.PRNGKey(1)
    mover = int(state.current_player)
    # a negative index that a lookup would wrap to a legal action, then the end of the range and beyond
    wraps_to_legal = int(np.flatnonzero(np.asarray(state.legal_action_mask))[-1]) - env.num_actions
    for action in (wraps_to_legal, -1, env.num_actions, 10**6):
        after = step(state, jnp.int32(action), key)
        assert bool(after.terminated), action
        assert float(after.rewards[mover]) == -1.0, action
        again = step(after, jnp.int32(action), key)  # a finished game: nothing changes, zero rewards
        assert bool(again.terminated) and not np.asarray(again.rewards).any()
        _assert_same(again.replace(rewards=after.rewards, _step_count=after._step_count), after)
