"""The JAX engines' ``resample_hidden(state, observer, key)``: determinization for search players,
as the reference games' ``resample_hidden`` (``MeadowJaxEnv.resample_hidden``).

What each game hides in its state: Volle Wolle the order of the draw pile and, while bidding, the
bids of the others (VW-7: bids are secret until the reveal, VW-8); Hase und Igel the order of the
unseen top of the hare deck (HUI-13: drawn cards go under the deck, where everybody has seen them);
Haste Bock? nothing (only its future dice are unknown, and a step draws them from its key).

The harness (:func:`meadowzoo.envs.core.jax_harness.check_resample_hidden`) checks along seeded
games that a resample keeps what the observer sees, is a game of the rules, and depends only on
what the observer knows; the tests below add the distributions (uniform over what is possible)
and the batched, jitted form a search uses.
"""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("pgx")

import jax.numpy as jnp  # noqa: E402

import meadowzoo.jax as mjax  # noqa: E402
from meadowzoo.envs.core import jax_harness  # noqa: E402
from meadowzoo.envs.volle_wolle.data import BID_26_PLUS  # noqa: E402
from meadowzoo.envs.volle_wolle.rules import BID, NUM_BIDS  # noqa: E402
from tests.jax.hase_und_igel_cases import driver  # noqa: E402

#: keys per distribution test; a count's tolerance is five standard deviations of its binomial
DRAWS = 4000


def within_binomial(counts: np.ndarray, p: np.ndarray, draws: int) -> bool:
    sd = np.sqrt(draws * p * (1 - p))
    return bool(np.all(np.abs(counts - draws * p) <= 5 * sd + 1))


def resample_many(env, state, observer: int, draws: int = DRAWS):
    keys = jax.random.split(jax.random.PRNGKey(5), draws)
    return jax.device_get(jax.jit(jax.vmap(env.resample_hidden, in_axes=(None, None, 0)))(state, observer, keys))


# ---- along seeded games: keeps what the observer sees, a game of the rules, only the observer's knowledge ----
@pytest.mark.parametrize("players", [2, 4])
def test_volle_wolle_resample_along_games(players):
    """VW-7/VW-8 and the pile: see :func:`check_resample_hidden`."""
    env = mjax.make("volle_wolle", num_players=players)
    assert jax_harness.check_resample_hidden(env, games=1, seed=3, every=5) > 10


@pytest.mark.parametrize("options", [{"num_players": 2, "max_turns": 60},
                                     {"num_players": 3, "reshuffle_deck": True, "max_turns": 60}],
                         ids=["cycle", "reshuffle"])
def test_hase_und_igel_resample_along_games(options):
    """HUI-13 (the unseen top of the deck), both deck variants."""
    env = mjax.make("hase_und_igel", **options)
    assert jax_harness.check_resample_hidden(env, games=1, seed=4, every=4, policy=driver(seed=4)) > 0


def test_haste_bock_hides_nothing_in_its_state():
    """Haste Bock?'s reference ``resample_hidden`` changes nothing but the generator, and the JAX
    engine's returns the state as it is."""
    env = mjax.make("haste_bock", num_players=3)
    ref = env.reference_env()
    ref.reset(seed=2)
    for _ in range(5):
        ref.step(int(np.flatnonzero(ref.observe(ref.agent_selection)["action_mask"])[0]))
    twin = ref.game.clone()
    twin.resample_hidden(0, np.random.default_rng(1))
    assert jax_harness._game_dict(twin) == jax_harness._game_dict(ref.game)
    state = env.from_game(ref.game)
    assert jax_harness.equal_states(env.resample_hidden(state, 0, jax.random.PRNGKey(0)), state)


# ---- distributions ---------------------------------------------------------------------------------------
def volle_wolle_bidding_state(players: int = 3):
    """A Volle Wolle game in its first round, player 2 to bid after players 0 and 1 (player 1
    without wool): the engine and the reference env holding the game."""
    env = mjax.make("volle_wolle", num_players=players)
    ref = env.reference_env()
    ref.reset(seed=8)
    game = ref.game
    assert game.pending == BID and game.cur == 0
    game.supply += game.wool[1]
    game.wool[1] = 0
    ref.restore(ref.snapshot())  # re-validated
    ref.step(NUM_BIDS - 1)  # player 0 bids 26+ (has wool)
    ref.step(3)  # player 1
    assert ref.game.pending == BID and ref.game.cur == 2
    return env, ref


def test_volle_wolle_pile_order_is_uniform():
    """The reshuffled pile deals every card of the pile first equally often, whatever the true order."""
    env, ref = volle_wolle_bidding_state()
    pile = sorted(ref.game.pile)
    states = resample_many(env, env.from_game(ref.game), observer=2)
    g = states._x
    firsts = np.array([env.materialised_pile(jax.tree_util.tree_map(lambda x: x[i], g))[-1] for i in range(DRAWS)])
    assert set(firsts) <= set(pile)
    counts = np.array([(firsts == card).sum() for card in pile])
    assert within_binomial(counts, np.full(len(pile), 1 / len(pile)), DRAWS)
    # every resample holds the same cards in its pile, and the cards outside it stay where they are
    for i in range(0, DRAWS, 397):
        one = jax.tree_util.tree_map(lambda x: x[i], g)
        assert sorted(env.materialised_pile(one).tolist()) == pile
        np.testing.assert_array_equal(one.loc, np.asarray(env.from_game(ref.game)._x.loc))


def test_volle_wolle_secret_bids_are_redrawn_from_the_legal_bids():
    """VW-7: the others' bids before the reveal are redrawn uniformly among the bids open to them
    (26+ needs wool); the observer's own bid and a player yet to bid keep theirs."""
    env, ref = volle_wolle_bidding_state()
    true_bids = list(ref.game.bids)
    state = env.from_game(ref.game)
    bids = resample_many(env, state, observer=2)._x.bids
    for player, open_bids in ((0, NUM_BIDS), (1, BID_26_PLUS)):
        counts = np.bincount(bids[:, player], minlength=NUM_BIDS)
        assert counts[open_bids:].sum() == 0
        assert within_binomial(counts[:open_bids], np.full(open_bids, 1 / open_bids), DRAWS)
    np.testing.assert_array_equal(bids[:, 2], true_bids[2])  # not yet bid: -1
    # as seen by player 1: its own bid stays, player 0's is redrawn
    seen_by_1 = resample_many(env, state, observer=1)._x.bids
    np.testing.assert_array_equal(seen_by_1[:, 1], true_bids[1])
    assert len(set(seen_by_1[:, 0].tolist())) == NUM_BIDS


def test_hase_und_igel_unseen_deck_is_reshuffled_uniformly():
    """HUI-13: the unseen top of the deck (here all 12 cards at the start) is reshuffled: each kind
    comes first as often as it has cards; cards already seen keep their places."""
    env = mjax.make("hase_und_igel", num_players=2)
    ref = env.reference_env()
    ref.reset(seed=1)
    state = env.from_game(ref.game)
    assert int(state.known_from) == 12
    states = resample_many(env, state, observer=0)
    tops = states.cards[np.arange(DRAWS), states.top]
    kinds, per_kind = np.unique(np.asarray(state.cards), return_counts=True)
    counts = np.array([(tops == kind).sum() for kind in kinds])
    assert within_binomial(counts, per_kind / 12, DRAWS)
    assert all(sorted(row.tolist()) == sorted(np.asarray(state.cards).tolist()) for row in states.cards[:50])
    # with the top four cards seen (known_from 8: deck[8:] public), only the first eight move
    seen = state.replace(known_from=jnp.int32(8))
    order = (int(state.top) + np.arange(12)) % 12
    moved = resample_many(env, seen, observer=0, draws=200).cards[:, order]
    np.testing.assert_array_equal(moved[:, 8:], np.broadcast_to(np.asarray(state.cards)[order][8:], (200, 4)))
    assert len({tuple(row) for row in moved[:, :8].tolist()}) > 50


# ---- the batched form a search uses ----------------------------------------------------------------------
def test_batched_resample_with_traced_observers_equals_one_by_one():
    """``vmap`` over states, observers and keys (as ``examples/mctx_search.py`` calls it) computes
    what each game computes alone."""
    env = mjax.make("volle_wolle", num_players=3)
    keys = jax.random.split(jax.random.PRNGKey(0), 6)
    states = jax.vmap(env.init)(keys)
    observers = jnp.array([0, 1, 2, 0, 1, 2])
    batched = jax.device_get(jax.jit(jax.vmap(env.resample_hidden))(states, observers, keys))
    for i in range(6):
        one = env.resample_hidden(jax.tree_util.tree_map(lambda x: x[i], states), int(observers[i]), keys[i])
        assert jax_harness.equal_states(jax.tree_util.tree_map(lambda x: x[i], batched), one)
