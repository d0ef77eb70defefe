"""The Hase und Igel JAX engine against the reference engine (HUI-1 … HUI-30 through the harness).

Two configurations covering both turn loops and both deck variants (``hase_und_igel_cases.DEFAULT_CONFIGS``): masks,
every player's observation and the whole state at every decision, final places and rewards,
truncation, snapshot round trips, the set-up, pgx's illegal-action rule and, for one config,
hidden information. One test per configuration, so that it compiles the engine once even when
pytest-xdist spreads the tests over processes; one configuration also runs the games batched
(``check_batched``). The ≥ 300-game run per player count and variant
is ``test_hase_und_igel_slow.py``.
"""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import meadowzoo.jax
from meadowzoo.envs.core import jax_harness
from meadowzoo.envs.hase_und_igel import data, rules
from meadowzoo.envs.hase_und_igel import jax_engine as hui_jax
from meadowzoo.envs.hase_und_igel.jax_engine import HaseUndIgelJax, carrots_feature, deal
from meadowzoo.envs.hase_und_igel.rules import CARD_CARROTS, HaseUndIgelGame
from tests.hase_und_igel.helpers import position
from tests.jax.hase_und_igel_cases import DEFAULT_CONFIGS, SCRIPTED, Events, driver

GAMES = 3
HIDDEN_INFORMATION_CONFIG = "5p chain, max_turns 100"
BATCHED_CONFIG = "2p two runners, reshuffle"


class RoundTrips:
    """``on_state`` hook: every ``every``-th decision, JAX state -> env snapshot -> reference env
    -> JAX state must give the same state, observation and mask."""

    def __init__(self, env, inner, every: int = 40) -> None:
        self.env, self.inner, self.every, self.seen, self.done = env, inner, every, 0, 0

    def __call__(self, state, ref) -> None:
        env = self.env
        self.inner(state, ref)
        self.seen += 1
        if self.seen % self.every:
            return
        back = env.from_snapshot(env.to_snapshot(state))
        assert env.to_game_dict(back) == env.to_game_dict(state)
        assert np.array_equal(np.asarray(back.observation), np.asarray(env.observe_player(state, state.current_player)))
        if not bool(state.terminated):
            assert np.array_equal(np.asarray(back.legal_action_mask), np.asarray(state.legal_action_mask))
        self.done += 1


def _initial_states_match_the_reference(env: HaseUndIgelJax, functions) -> None:
    """HUI-4 … HUI-6: the set-up from the deal (deck order, start player) equals the reference
    engine's game built with the same deal."""
    for i in range(4):
        key = jax.random.PRNGKey(11 + i)
        state, _ = jax.device_get(functions.init(key))
        cards, start = deal(key, env.n, env.start_player)
        game = HaseUndIgelGame(env.n, two_runners=env.rpp == 2, teams=env.teams, chain_hare_cards=env.chain,
                               reshuffle_deck=env.reshuffle, start_player=int(start), rng=np.random.default_rng(0))
        game.deck = [int(c) for c in cards]
        expected = game.to_dict()
        expected.pop("rng")
        assert env.to_game_dict(state) == expected


def _scripted_positions_match_the_reference(env: HaseUndIgelJax, functions, label: str) -> None:
    """HUI-13: the scripted deck-order position of ``label`` (``hase_und_igel_cases.SCRIPTED``)
    played on both engines gives the same state after every action, and the deck order HUI-13
    asks for (the card drawn last goes under first)."""
    kwargs, prepare, actions = SCRIPTED[label]
    options = {k: v for k, v in env.options.items() if k not in ("num_players", "start_player", "max_turns")}
    game = position(env.n, **kwargs, **options)
    if prepare is not None:
        prepare(game)
        game._legal = None
    state = env.from_game(game)
    drawn = []
    for i, text in enumerate(actions + ["card: pass"]):
        if i == len(actions) and game.pending != CARD_CARROTS:
            break  # the last card drawn asks nothing: its resolution is over
        key = jax.random.PRNGKey(100 + i)
        action = game.string_to_action(text)
        state, _ = jax.device_get(functions.step(state, jnp.int32(action), key))
        env.feed_chance(game, key)
        game.apply(action)
        drawn += [event[2] for event in game.log if event[0] == "draw"]
        expected = game.to_dict()
        expected.pop("rng")
        assert env.to_game_dict(state) == expected, text
    assert len(drawn) >= 2 and game.unresolved == 0
    pile = game.discard if env.reshuffle else game.deck
    assert pile[-len(drawn):] == drawn[::-1]


def _illegal_action_and_finished_game_follow_pgx(env: HaseUndIgelJax, functions) -> None:
    key = jax.random.PRNGKey(1)
    state, _ = functions.init(key)
    mask = np.asarray(state.legal_action_mask)
    illegal = jnp.int32(np.argmin(mask))
    assert not mask[int(illegal)]
    ended, _ = functions.step(state, illegal, key)
    assert bool(ended.terminated)
    assert float(ended.rewards[int(state.current_player)]) == -1
    again, _ = functions.step(ended, illegal, key)  # a finished game does not change
    assert not np.asarray(again.rewards).any()
    assert np.array_equal(np.asarray(again.pos), np.asarray(ended.pos))


@pytest.mark.parametrize("label, options", DEFAULT_CONFIGS, ids=[label for label, _ in DEFAULT_CONFIGS])
def test_identical_to_reference(label, options):
    env = meadowzoo.jax.make("hase_und_igel", **options)
    events = Events()
    # snapshot round trips where the hidden-information check compiles from_game anyway
    hook = RoundTrips(env, events) if label == HIDDEN_INFORMATION_CONFIG else events
    figures = jax_harness.run_differential(env, GAMES, seed=7, on_state=hook, policy=driver(seed=7))
    assert figures.games == GAMES and figures.decisions > 20 * GAMES
    assert label != HIDDEN_INFORMATION_CONFIG or hook.done > 0
    counts = events.counts
    # the driver reaches hare cards, their decisions and the end of the race in every config
    assert sum(v for k, v in counts.items() if k.startswith("card ")) > 0, counts
    assert counts["decision card_carrots"] + counts["decision extra_move"] > 0, counts
    assert counts["finish"] > 0, counts
    if options.get("max_turns") == 100:
        assert figures.truncated > 0  # the short max_turns truncates games mid-race
    functions = jax_harness.compiled(env)  # compiled by the run above
    _initial_states_match_the_reference(env, functions)
    _scripted_positions_match_the_reference(env, functions, label)
    _illegal_action_and_finished_game_follow_pgx(env, functions)
    if label == HIDDEN_INFORMATION_CONFIG:
        # resampling the unseen hare-deck order never changes a player's observation (and it did
        # change the state: the check is not vacuous)
        assert jax_harness.check_hidden_information(env, 2, seed=3, policy=driver(seed=3)) > 0
    if label == BATCHED_CONFIG:
        # jit(vmap(...)) computes what each game computes alone (and the reshuffle keys stay apart)
        assert jax_harness.check_batched(env, batch=4, steps=80) == 4 * 80


@pytest.mark.parametrize("share", [1 / 16, 0.5])
def test_batched_games_equal_single_games_whatever_the_share(share):
    """Under vmap the hare-card draws and the turn loop's passes after the first run on the games
    that need them (``rows_cond``): gathered when they fit in the share of the batch (here a block
    of one game, or half), on every game otherwise. Either way every game of the batch equals the
    same game played alone (4 players, chained hare cards: draws in a loop, many skipped turns)."""
    env = meadowzoo.jax.make("hase_und_igel", num_players=4, chain_hare_cards=True)
    env.draw_share = env.turn_share = share
    assert jax_harness.check_batched(env, batch=16, steps=60, seed=2) == 16 * 60


def _random_race(rng, num_players: int, two_runners: bool) -> HaseUndIgelGame:
    """A game mid-race with runners on random distinct track squares (some on Start, some home),
    random carrots and lettuces: the occupancy the move rules read, set directly."""
    game = HaseUndIgelGame(num_players, two_runners=two_runners, start_player=0, rng=np.random.default_rng(0))
    runners = game.num_runners
    squares = rng.choice(np.arange(1, data.GOAL), size=runners, replace=False)
    game.occupant = [-1] * data.NUM_POSITIONS
    for runner in range(runners):
        roll = rng.random()
        square = 0 if roll < 0.1 else data.GOAL if roll < 0.15 else int(squares[runner])
        game.pos[runner] = square
        if square == data.GOAL:
            game.finished += 1
            game.place[runner] = game.finished
        elif square > 0:
            game.occupant[square] = runner
    for player in range(num_players):
        game.carrots[player] = int(rng.choice([0, 5, 10, 30, 65, 120, 400, 3000]) + rng.integers(0, 10))
        game.lettuces[player] = int(rng.integers(0, 3))
    return game


@pytest.mark.parametrize("num_players, two_runners", [(2, True), (4, False)])
def test_forward_moves_and_card_targets_match_the_reference_hui_9_hui_27_hui_28(num_players, two_runners):
    """HUI-9 (forward moves to free squares the carrots pay for, lettuce squares only with a
    lettuce, no hedgehogs), HUI-27 (fall back: the first free square behind the runner directly
    behind) and HUI-28 (move up: the first free square ahead of the runner directly ahead): the
    engine's runner moves and card targets, computed on the occupied squares as bits, against the
    reference engine's on 300 random races."""
    env = meadowzoo.jax.make("hase_und_igel", num_players=num_players, two_runners=two_runners)
    moves = jax.jit(lambda s, r: env.runner_moves(s, r, jnp.bool_(True)))
    occupied = lambda s: hui_jax._occupied_words(s.pos)  # noqa: E731
    fall_back = jax.jit(lambda s, r: env._fall_back_target(s, r, occupied(s)))
    move_up = jax.jit(lambda s, r: env._move_up_target(s, r, occupied(s)))
    rng = np.random.default_rng(35)
    seen = Counter()
    for _ in range(300):
        game = _random_race(rng, num_players, two_runners)
        state = env.from_game(game)
        for runner in range(game.num_runners):
            if game.place[runner]:
                continue
            slot = runner % game.rpp
            block = np.flatnonzero(np.asarray(moves(state, jnp.int32(runner))))
            expected = [a - slot * rules.SLOT_ACTIONS for a in game._runner_moves(runner, slot, True)]
            assert sorted(block.tolist()) == sorted(expected), (game.pos, runner)
            assert int(fall_back(state, jnp.int32(runner))) == game._fall_back_target(runner)
            assert int(move_up(state, jnp.int32(runner))) == game._move_up_target(runner)
            seen["forward"] += any(a < data.GOAL - 1 for a in expected)
            seen["fall back"] += game._fall_back_target(runner) > 0
            seen["fall back to start"] += game._fall_back_target(runner) == data.START
            seen["move up"] += 0 < game._move_up_target(runner) < data.GOAL
    assert min(seen.values()) > 5, seen


def test_make_and_spaces_match_the_env():
    for options, actions in (({"num_players": 2}, 139), ({"num_players": 3}, 70), ({"num_players": 2, "two_runners": False}, 70)):
        env = meadowzoo.jax.make("hase_und_igel", **options)
        ref = env.reference_env()
        assert isinstance(env, HaseUndIgelJax)
        assert env.num_actions == ref.action_space("player_0").n == actions
        assert env.obs_size == ref.observation_space("player_0")["observation"].shape[0]


@pytest.mark.parametrize("options, message", [
    ({"num_players": 7}, "num_players"),
    ({"num_players": 4, "teams": "3x2"}, "team layout"),
    ({"teams": "4x1"}, "teams"),
    ({"two_runners": 1}, "two_runners"),
    ({"chain_hare_cards": "yes"}, "chain_hare_cards"),
    ({"start_player": 4}, "start_player"),
    ({"max_turns": 0}, "max_turns"),
    ({"max_turns": (1 << 16) + 1}, "max_turns above"),
    ({"render_mode": "ansi"}, "render_mode"),
    ({"seed": 3}, "unsupported option"),
])
def test_bad_options_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        HaseUndIgelJax(**options)


def test_game_of_other_options_is_refused():
    env = HaseUndIgelJax(num_players=4, teams="2x2")
    with pytest.raises(ValueError, match="configuration"):
        env.from_game(HaseUndIgelGame(4, rng=np.random.default_rng(0)))


def test_carrots_feature_is_numpys():
    """carrots / 100 as the env's float32 of a float64 product, for all carrot counts a game can
    reach (XLA's own float32 division is off by an ulp for some)."""
    carrots = np.arange(0, 1 << 20, dtype=np.int32)
    got = np.asarray(jax.jit(carrots_feature)(jnp.asarray(carrots)))
    assert np.array_equal(got, (carrots.astype(np.int64) * 0.01).astype(np.float32))


def test_deck_cycle_order_is_public_after_a_round():
    """HUI-2: without reshuffling the drawn cards go under the deck, so after 12 draws the whole
    order is known: the deck block of the observation then shows every card's kind in order."""
    env = HaseUndIgelJax(num_players=3)
    # the deck block reads only these fields of a state
    state = SimpleNamespace(cards=jnp.asarray(data.DECK[::-1], jnp.int32), top=jnp.int32(5),
                            known_from=jnp.int32(0), last_card=jnp.int32(-1))
    block = np.asarray(env.deck_features(state))[: 12 * (len(data.CARD_KINDS) + 1)].reshape(12, -1)
    deck = list(data.DECK[::-1])
    assert block.argmax(1).tolist() == deck[5:] + deck[:5]
    assert block[:, len(data.CARD_KINDS)].sum() == 0  # nothing unknown


def test_deal_is_a_uniform_shuffle_of_the_deck_and_a_uniform_start_seat_hui_4_hui_6():
    """HUI-4 (the hare cards are shuffled face down), HUI-6 (a random start player): every deal is
    the rule data's deck in some order, and over 24,000 deals each kind's share of every slot and
    each seat's share of the start are what a uniform shuffle and draw give (chi-square statistics
    under their p = 1e-5 critical values: 37.33 with 8 degrees of freedom, 25.90 with 3)."""
    def chi_square(seen, expected):
        return float(((seen - expected) ** 2 / expected).sum())

    keys = jax.random.split(jax.random.PRNGKey(2026), 24_000)
    cards, start = jax.device_get(jax.jit(jax.vmap(lambda key: deal(key, 4)))(keys))
    deck = np.sort(np.asarray(data.DECK))
    assert (np.sort(cards, axis=1) == deck).all()
    kinds, counts = np.unique(deck, return_counts=True)
    assert len(kinds) == 9
    for slot in range(cards.shape[1]):
        seen = np.array([(cards[:, slot] == kind).sum() for kind in kinds])
        assert chi_square(seen, counts / counts.sum() * len(keys)) < 37.33, slot
    assert chi_square(np.bincount(start, minlength=4), np.full(4, len(keys) / 4)) < 25.90
    # whole orders differ from deal to deal (not a fixed rotation of the deck)
    assert len({tuple(row) for row in cards[:1000]}) > 990
