"""Volle Wolle env: PettingZoo API, random simulation invariants, snapshots, clones, hidden
information, bad input and rendering."""

from __future__ import annotations

import copy
import json

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import meadowzoo  # noqa: F401  (registers the games)
from meadowzoo.envs import volle_wolle_v0
from meadowzoo.envs.volle_wolle import data, rules
from meadowzoo.envs.volle_wolle.env import GLOBAL, PLAYER

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


def play(env, rng, each_step=None):
    """Random legal play to the end through the AEC loop; returns the final rewards."""
    final = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = reward
            env.step(None)
            continue
        assert obs["action_mask"].sum() > 0
        if each_step is not None:
            each_step(env)
        env.step(random_action(env, rng))
    return final


# ---- API ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", PLAYERS)
def test_pettingzoo_api(n):
    api_test(volle_wolle_v0.env(num_players=n), num_cycles=400)
    api_test(volle_wolle_v0.raw_env(num_players=n), num_cycles=400)


def test_pettingzoo_seed_and_render():
    seed_test(lambda: volle_wolle_v0.env(num_players=3), num_cycles=300)
    render_test(lambda render_mode=None: volle_wolle_v0.env(num_players=3, render_mode=render_mode))


def test_registered_with_pettingzoo():
    assert "volle_wolle" in meadowzoo.envs.GAMES
    env = pettingzoo.make("aec", "meadowzoo/volle_wolle-v0", num_players=5)
    env.reset(seed=1)
    assert env.unwrapped.metadata["name"] == "volle_wolle_v0" and len(env.agents) == 5


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


@pytest.mark.parametrize("bad", [{"num_players": 1}, {"num_players": 7}, {"num_players": "4"}, {"colour": 1}])
def test_bad_options(bad):
    with pytest.raises(ValueError):
        volle_wolle_v0.raw_env(**bad)


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
def _check_game(game, n):
    assert sum(game.wool) + game.supply == data.WOOL_TOTAL
    held = sorted(c for p in range(n) for c in game.cards_of(p))
    assert held == list(range(60))
    recount = []
    deck = game.deck
    dogs = [len(d) for d in game.dogs]
    for p in range(n):
        herd = game.herd[p]
        whites = sorted(deck.points[c] for c in herd if deck.kind[c] == data.WHITE)
        blacks = sum(deck.points[c] for c in herd if deck.kind[c] == data.BLACK)
        n370 = sum(deck.kind[c] == data.K370 for c in herd)
        n007 = sum(deck.kind[c] == data.K007 for c in herd)
        total = sum(whites) + blacks + (0, 3, 14)[n370 % 3] + 21 * (n007 // 3) + game.wool[p]
        total += 9 if dogs[p] == 1 else (-sum(whites[:2]) if dogs[p] == 0 else 0)
        total += -5 if dogs[p] == max(dogs) else 0
        total += 4 * dogs[p] if game.bone == p else 0
        recount.append(total)
    assert game.scores() == recount


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
        _check_game(game, n)


@pytest.mark.parametrize("n", PLAYERS)
def test_random_env_games_rewards_and_observations(n):
    env = volle_wolle_v0.raw_env(num_players=n)
    rng = np.random.default_rng(100 + n)
    space = env.observation_space("player_0")
    for seed in range(12):
        env.reset(seed=seed)

        def check(e):
            for agent in e.agents:
                obs = e.observe(agent)
                assert space.contains(obs)
                assert (obs["action_mask"].sum() > 0) == (agent == e.agent_selection)
            mask = e.observe(e.agent_selection)["action_mask"]
            assert list(np.flatnonzero(mask)) == e.game.legal_actions()

        final = play(env, rng, check)
        _check_game(env.game, n)
        assert set(final) == set(env.possible_agents) and abs(sum(final.values())) < 1e-9
        places = env.game.places()
        rewards = [final[a] for a in env.possible_agents]
        best = [p for p in range(n) if places[p] == 0]
        assert all(rewards[p] == max(rewards) for p in best)


# ---- snapshots and clones -----------------------------------------------------------------------------
def _observations(env):
    return {a: env.observe(a) for a in env.possible_agents}


def _same_obs(a, b):
    return all(np.array_equal(a[k]["observation"], b[k]["observation"]) and
               np.array_equal(a[k]["action_mask"], b[k]["action_mask"]) for k in a)


def test_snapshot_round_trip_every_step_of_100_games():
    for game_index in range(100):
        n = PLAYERS[game_index % 5]
        env = volle_wolle_v0.raw_env(num_players=n)
        twin = volle_wolle_v0.raw_env(num_players=n)
        env.reset(seed=game_index)
        rng = np.random.default_rng(game_index)
        while True:
            snap = json.loads(json.dumps(env.snapshot()))
            twin.restore(snap)
            assert twin.snapshot() == snap and _same_obs(_observations(env), _observations(twin))
            assert twin.agent_selection == env.agent_selection
            if env.game.is_over:
                break
            env.step(random_action(env, rng))
        # a restored game continues identically (the generator is in the snapshot)
    env.reset(seed=5)
    for _ in range(30):
        env.step(random_action(env, np.random.default_rng(0)))
    twin.restore(env.snapshot())
    rng_a, rng_b = np.random.default_rng(9), np.random.default_rng(9)
    while not env.game.is_over:
        env.step(random_action(env, rng_a))
        twin.step(random_action(twin, rng_b))
        assert env.game.to_dict() == twin.game.to_dict()


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


def test_clone_is_independent():
    env = advanced_env(4, seed=3, steps=25)
    before = env.snapshot()
    obs_before = _observations(env)
    twin = env.clone()
    assert twin.snapshot() == before and _same_obs(_observations(twin), obs_before)
    play(twin, np.random.default_rng(1))
    assert twin.game.is_over
    assert env.snapshot() == before and _same_obs(_observations(env), obs_before)
    game_twin = env.game.clone()
    game_twin.apply(game_twin.legal_actions()[0])
    assert env.snapshot() == before


@pytest.mark.parametrize("field, value, words", [
    ("wool", [9, 2, 2, 2], "supply"),
    ("pile", [0, 0], "every card once"),
    ("display", [1, 2], "'display' must have 5"),
    ("pending", 9, "pending"),
    ("pending", "dance", "pending"),
    ("dice", [13, 1, 1], "dice"),
    ("herd", [[59], [], [], []], "not a sheep"),
    ("rng", {"bit_generator": "MT"}, "rng"),
    ("deck", [], "deck"),
    ("bids", "x", "bids"),
])
def test_bad_snapshot_names_field_and_leaves_env_untouched(field, value, words):
    env = advanced_env(4, seed=2, steps=10)
    snap = env.snapshot()
    bad = copy.deepcopy(snap)
    bad["game"][field] = value
    with pytest.raises(ValueError, match=words):
        env.restore(bad)
    assert env.snapshot() == snap
    for top, value in (("version", 99), ("options", {"num_players": 3, "deck": None})):
        bad = copy.deepcopy(snap)
        bad[top] = value
        with pytest.raises(ValueError, match=top):
            env.restore(bad)
    assert env.snapshot() == snap


def test_illegal_action_raises_naming_legal_and_changes_nothing():
    env = volle_wolle_v0.raw_env(num_players=3)
    env.reset(seed=0)
    snap = env.snapshot()
    with pytest.raises(ValueError, match=r"illegal action 13 \(claim\).*legal actions: \[0 \(bid 14\)"):
        env.step(13)
    with pytest.raises(ValueError, match="out of range"):
        env.step(99)
    with pytest.raises(ValueError, match="integer"):
        env.step("bid 14")
    assert env.snapshot() == snap
    wrapped = volle_wolle_v0.env(num_players=3)
    wrapped.reset(seed=0)
    wrapped.step(13)  # TerminateIllegalWrapper: the offender loses
    assert wrapped.rewards["player_0"] == -1


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


def test_dice_come_from_the_seeded_generator():
    a = volle_wolle_v0.raw_env(num_players=3)
    b = volle_wolle_v0.raw_env(num_players=3)
    for env in (a, b):
        env.reset(seed=42)
        play(env, np.random.default_rng(3))
    assert a.game.to_dict() == b.game.to_dict()


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


@pytest.mark.parametrize("n", PLAYERS)
def test_random_env_games_with_the_shared_test_kit(n):
    """The env-level checks every game shares (masks, observation spaces, ends, rewards sum 0),
    with the Volle Wolle invariants (wool conserved at every step; at the end every card with a
    player exactly once and scores equal to a recount)."""
    from meadowzoo.envs.core import testkit

    def invariant(env):
        game = env.game
        assert sum(game.wool) + game.supply == data.WOOL_TOTAL and min(game.wool) >= 0
        if game.is_over:
            _check_game(game, n)

    stats = testkit.play_random_games(lambda: volle_wolle_v0.raw_env(num_players=n), games=30, seed=n,
                                      invariant=invariant)
    assert stats.terminated == 30


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
