"""Volle Wolle env: the deck option, rules invariants over random games, observation caches, hidden
information and rendering content. What every game must do (API, random games, snapshots, clones,
bad input, rendering) is in tests/core/test_conformance.py."""

from __future__ import annotations

import json

import numpy as np
import pytest

import meadowzoo  # noqa: F401  (registers the games)
from meadowzoo.envs import volle_wolle_v0
from meadowzoo.envs.volle_wolle import data, rules
from meadowzoo.envs.volle_wolle.env import GLOBAL, PLAYER
from tests.volle_wolle.helpers import check_game

PLAYERS = [2, 3, 4, 5, 6]


def random_action(env, rng):
    mask = env.action_mask()
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def advanced_env(n, seed, steps, rng_seed=0):
    """A raw env ``steps`` random decisions into a game."""
    env = volle_wolle_v0.raw_env(num_players=n)
    env.reset(seed=seed)
    rng = np.random.default_rng(rng_seed)
    for _ in range(steps):
        env.step(random_action(env, rng))
    return env


# ---- API ----------------------------------------------------------------------------------------------
def test_spaces_and_action_strings():
    env = volle_wolle_v0.raw_env(num_players=4)
    env.reset(seed=0)
    assert env.action_space("player_0").n == rules.NUM_ACTIONS == 27
    size = GLOBAL + 11 * 5 + 19 + PLAYER * 4
    assert env.observation_space("player_2")["observation"].shape == (size,) == (176,)
    for a in range(27):
        text = env.action_to_string(a)
        assert env.string_to_action(text) == a and env.string_to_action(text.upper()) == a
    assert env.string_to_action("bid 26+") == 12 and env.string_to_action("keep d8") == 17
    with pytest.raises(ValueError):
        env.string_to_action("shear the sheep")


def test_deck_option_and_bad_deck_file(tmp_path):
    cards = json.load(open(data.DECK_PATH))["cards"]
    cards[0] = {"kind": "white", "points": 9, "modifier": "+4", "number": 7}
    env = volle_wolle_v0.raw_env(num_players=2, deck=cards)
    env.reset(seed=0)
    assert env.game.deck.points[0] == 9
    cards[7] = {"kind": "white", "points": 2, "modifier": "plus two", "number": 14}
    path = tmp_path / "deck.json"
    path.write_text(json.dumps({"cards": cards}))
    with pytest.raises(ValueError, match="deck card 7"):
        volle_wolle_v0.raw_env(deck=str(path))


# ---- random simulation --------------------------------------------------------------------------------
@pytest.mark.parametrize("n", PLAYERS)
def test_random_games_invariants(n):
    """1,000 random games in all (200 per player count) through the raw game; the env checks the
    same at every AEC step in the other tests."""
    rng = np.random.default_rng(n)
    from meadowzoo.envs.volle_wolle.rules import VolleWolleGame

    for seed in range(200):
        game = VolleWolleGame(n, rng=np.random.default_rng(seed * 7 + n))
        while not game.is_over:
            assert sum(game.wool) + game.supply == data.WOOL_TOTAL and min(game.wool) >= 0
            legal = game.legal_actions()
            game.apply(legal[int(rng.integers(len(legal)))])
        check_game(game)


# ---- snapshots and clones -----------------------------------------------------------------------------
def _observations(env):
    return {a: env.observe(a) for a in env.possible_agents}


def _same_obs(a, b):
    return all(np.array_equal(a[k]["observation"], b[k]["observation"]) and
               np.array_equal(a[k]["action_mask"], b[k]["action_mask"]) for k in a)


def test_observations_right_when_observed_only_now_and_then():
    """The observation caches follow the game even when many steps (rounds, picks) go unobserved."""
    for n in (2, 4):
        env = volle_wolle_v0.raw_env(num_players=n)
        twin = volle_wolle_v0.raw_env(num_players=n)
        rng = np.random.default_rng(n)
        env.reset(seed=n)
        while not env.game.is_over:
            for _ in range(int(rng.integers(1, 12))):
                if env.game.is_over:
                    break
                env.step(random_action(env, rng))
            twin.restore(env.snapshot())  # a fresh game object: observations built from scratch
            assert _same_obs(_observations(env), _observations(twin))


# ---- hidden information -------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 4, 6])
def test_VW_7_bidding_player_cannot_see_earlier_bids(n):
    """At every bidding step the bidder's observation is the same whatever the earlier bids were."""
    env = volle_wolle_v0.raw_env(num_players=n)
    histories = ([0] * n, [12] * n, list(range(n)), [5, 12, 3, 0, 11, 7][:n])
    for k in range(n):
        views = []
        for bids in histories:
            env.reset(seed=11)
            for b in bids[:k]:
                env.step(b)
            assert env.agent_selection == f"player_{k}"
            views.append(env.observe(f"player_{k}"))
        for view in views[1:]:
            assert np.array_equal(view["observation"], views[0]["observation"])
            assert np.array_equal(view["action_mask"], views[0]["action_mask"])


def test_VW_7_own_bid_known_others_revealed_after_all():
    env = volle_wolle_v0.raw_env(num_players=3)
    env.reset(seed=4)
    env.step(7)  # player_0 bids 21
    own = env.observe("player_0")["observation"]
    other = env.observe("player_1")["observation"]
    at = env._players_at
    assert own[at + 1 : at + 4].tolist() == [1, 1, 21]  # has bid, known, 21
    assert other[at + 2 * PLAYER + 1 : at + 2 * PLAYER + 4].tolist() == [1, 0, 0]  # player_0 seen from player_1
    env.step(3)
    env.step(0)
    assert env.game.revealed  # revealed to everybody once all have bid
    obs = env.observe("player_2")["observation"]
    assert obs[at + PLAYER + 2 : at + PLAYER + 4].tolist() == [1, 21]  # player_0 follows player_2


def test_pile_order_is_never_observable():
    env = advanced_env(4, seed=8, steps=40, rng_seed=1)
    before = _observations(env)
    twin = env.clone()
    twin.game.pile.reverse()
    assert _same_obs(before, _observations(twin))
    snap = env.snapshot()
    snap["game"]["pile"] = sorted(snap["game"]["pile"])
    twin.restore(snap)
    assert _same_obs(before, _observations(twin))


def test_resample_hidden_keeps_what_the_observer_saw():
    env = volle_wolle_v0.raw_env(num_players=4)
    env.reset(seed=6)
    env.step(4)
    env.step(9)
    observer = 2
    before = env.observe("player_2")["observation"]
    game = env.game.clone()
    changed = False
    for seed in range(10):
        g = env.game.clone()
        g.resample_hidden(observer, np.random.default_rng(seed))
        assert sorted(g.pile) == sorted(game.pile) and g.bids[2:] == game.bids[2:]
        assert all(0 <= b <= 12 for b in g.bids[:2])
        changed |= g.pile != game.pile or g.bids != game.bids
        env2 = env.clone()
        env2.game = g
        env2._refresh()
        assert np.array_equal(env2.observe("player_2")["observation"], before)
    assert changed


# ---- rendering ----------------------------------------------------------------------------------------
def test_render_ansi_and_rgb():
    env = volle_wolle_v0.raw_env(num_players=5, render_mode="ansi")
    env.reset(seed=1)
    rng = np.random.default_rng(2)
    while env.game.pending != rules.ROLL:
        env.step(random_action(env, rng))
    text = env.render()
    assert "display:" in text and "dice: d12=" in text and text.count("player_") >= 5
    picture = volle_wolle_v0.raw_env(num_players=5, render_mode="rgb_array")
    picture.restore(env.snapshot())
    image = picture.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 10  # a picture, not a blob


def test_clones_sharing_the_observation_tables_each_observe_their_own_game():
    """A clone shares the env's observation tables and what ``_track`` keeps: observing the two
    in turn must give each the observation a freshly restored env gives."""
    for n in (2, 4):
        rng = np.random.default_rng(n)
        env = advanced_env(n, seed=n, steps=15)
        twin = env.clone()
        fresh = volle_wolle_v0.raw_env(num_players=n)
        while not (env.game.is_over or twin.game.is_over):
            for e in (env, twin) if rng.random() < 0.5 else (twin, env):
                e.step(random_action(e, rng))
                fresh.restore(e.snapshot())
                assert _same_obs(_observations(e), _observations(fresh))
