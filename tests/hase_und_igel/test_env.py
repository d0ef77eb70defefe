"""The Hase und Igel AEC env: PettingZoo API, random simulation, snapshots, clones, golden trace,
bad input, hidden information, registry."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pettingzoo
import pytest

import meadowzoo  # noqa: F401  (registers the games)
from meadowzoo.envs import hase_und_igel_v0
from meadowzoo.envs.core import testkit
from meadowzoo.envs.hase_und_igel import data
from tests.hase_und_igel.policies import racing_random

CONFIGS = {
    "2p-two-runners": {"num_players": 2},
    "2p-duel": {"num_players": 2, "two_runners": False},
    "3p": {"num_players": 3},
    "4p": {"num_players": 4},
    "5p": {"num_players": 5},
    "6p": {"num_players": 6},
    "4p-teams-2x2": {"num_players": 4, "teams": "2x2"},
    "6p-teams-3x2": {"num_players": 6, "teams": "3x2"},
    "6p-teams-2x3": {"num_players": 6, "teams": "2x3"},
}
GOLDEN = Path(__file__).parent.parent / "golden"


def raw(config: str, **overrides):
    return lambda **kw: hase_und_igel_v0.raw_env(**CONFIGS[config], **overrides, **kw)


def wrapped(config: str):
    return lambda **kw: hase_und_igel_v0.env(**CONFIGS[config], **kw)


@pytest.mark.parametrize("config", CONFIGS)
def test_pettingzoo_api_seed_render_and_pickle(config):
    testkit.check_pettingzoo_api(raw(config), wrapped(config), cycles=200)


def hase_invariants(env) -> None:
    game = env.game
    assert min(game.carrots) >= 0, "carrots went negative"
    assert min(game.lettuces) >= 0, "lettuces went negative"
    on_track = [p for p in game.pos if 0 < p < data.GOAL]
    assert len(on_track) == len(set(on_track)), "two runners on one square"
    for runner, square in enumerate(game.pos):
        assert 0 <= square <= data.GOAL
        assert (square == data.GOAL) == bool(game.place[runner])
        if 0 < square < data.GOAL:
            assert game.occupant[square] == runner


# 1,000 random games over all configurations (HUI-19/20: every game ends or truncates)
@pytest.mark.parametrize("config", CONFIGS)
def test_random_games_keep_the_invariants(config):
    games = 1000 // len(CONFIGS) + 1
    stats = testkit.play_random_games(raw(config, max_turns=300), games, seed=len(config),
                                      invariant=hase_invariants, policy=racing_random)
    assert stats.games == games
    assert stats.terminated > 0, "no random game ever ended"


@pytest.mark.parametrize("config", CONFIGS)
def test_snapshot_restore_at_every_step(config):
    checked = testkit.check_snapshots(raw(config, max_turns=150), games=100 // len(CONFIGS) + 1, seed=5,
                                      policy=racing_random)
    assert checked > 100


@pytest.mark.parametrize("config", ["2p-two-runners", "4p", "6p-teams-3x2"])
def test_clone_is_identical_and_independent(config):
    testkit.check_clone(raw(config), seed=3, steps=25)


@pytest.mark.parametrize("config, seed", [("4p", 7), ("2p-two-runners", 11)])
def test_golden_playthrough(config, seed):
    trace = testkit.playthrough(raw(config), seed=seed, max_steps=200)
    path = GOLDEN / f"hase_und_igel_{config}_seed{seed}.txt"
    if os.environ.get("MEADOWZOO_REGENERATE_GOLDEN"):
        path.write_text(trace)
    assert trace == path.read_text(), f"trace differs from {path}; rules changed? regenerate deliberately"


def test_illegal_action_raises_naming_the_action_and_legal_ones_and_changes_nothing():
    env = hase_und_igel_v0.raw_env(num_players=4)
    env.reset(seed=0)
    before = env.snapshot()
    illegal = next(a for a in range(env.num_actions) if a not in env.legal_actions())
    with pytest.raises(ValueError, match=rf"illegal action {illegal} .*legal actions: \["):
        env.step(illegal)
    for bad in (-1, env.num_actions, 10**9):
        with pytest.raises(ValueError, match="out of range"):
            env.step(bad)
    for bad in ("move to 1", 1.5, None, True):
        with pytest.raises(ValueError, match="integer"):
            env.step(bad)
    assert env.snapshot() == before


def test_wrapped_env_illegal_move_terminates_with_minus_one():
    env = hase_und_igel_v0.env(num_players=3)
    env.reset(seed=0)
    mover = env.agent_selection
    mask = env.observe(mover)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[mover] == -1


def test_bad_snapshots_name_the_field_and_change_nothing():
    def set_(path, value):
        def corrupt(snapshot):
            target = snapshot
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
        return corrupt

    testkit.check_bad_snapshots(
        lambda: hase_und_igel_v0.raw_env(num_players=4),
        {
            "pos": set_(("game", "pos"), [1, 1, 0, 0]),
            "carrots": set_(("game", "carrots"), [-5, 68, 68, 68]),
            "lettuces": set_(("game", "lettuces"), [1, 2, 9, 3]),
            "deck": set_(("game", "deck"), [0] * 12),
            "pending": set_(("game", "pending"), "dance"),
            "rng": set_(("game", "rng"), {"bit_generator": "MT19937"}),
            "num_players": set_(("game", "num_players"), 9),
            "options": set_(("options",), {"num_players": 3}),
            "version": set_(("version",), 99),
            "current": set_(("game", "current"), "player_1"),
            "place": set_(("game", "place"), [1, 0, 0, 0]),
        },
    )
    env = hase_und_igel_v0.raw_env(num_players=4)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="snapshot must be a dict"):
        env.restore("not a snapshot")


def test_observation_hides_the_unseen_deck_order():
    """Observation principle: games that differ only in the unseen deck order look the same."""
    env = hase_und_igel_v0.raw_env(num_players=4)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(40):
        env.step(racing_random(env, rng))
    snapshot = env.snapshot()
    game = snapshot["game"]
    hidden = game["known_from"]
    assert hidden >= 2, "need at least two unseen cards for this test"
    other = json.loads(json.dumps(snapshot))
    other["game"]["deck"][:hidden] = list(reversed(game["deck"][:hidden]))
    assert other["game"]["deck"] != game["deck"] or len(set(game["deck"][:hidden])) == 1
    twin = hase_und_igel_v0.raw_env(num_players=4)
    twin.restore(other)
    for agent in env.possible_agents:
        assert np.array_equal(env.observe(agent)["observation"], twin.observe(agent)["observation"])


def test_observation_shows_the_seen_part_of_the_deck():
    env = hase_und_igel_v0.raw_env(num_players=4)
    env.reset(seed=3)
    game = env.game
    game.known_from = 11  # one card has been seen going to the bottom
    env._refresh()
    obs = env.observe(env.agent_selection)["observation"]
    deck_base = env._deck_base
    last_slot = obs[deck_base + 11 * 10 : deck_base + 12 * 10]
    assert last_slot[game.deck[11]] == 1 and last_slot.sum() == 1
    first_slot = obs[deck_base : deck_base + 10]
    assert first_slot[9] == 1 and first_slot.sum() == 1  # "unknown"


def test_resample_hidden_keeps_the_seen_part():
    env = hase_und_igel_v0.raw_env(num_players=4)
    env.reset(seed=3)
    game = env.game
    game.known_from = 6
    seen = list(game.deck[6:])
    game.resample_hidden(0, np.random.default_rng(1))
    assert game.deck[6:] == seen and sorted(game.deck) == sorted(data.DECK)


def test_observation_is_egocentric():
    env = hase_und_igel_v0.raw_env(num_players=3)
    env.reset(seed=0)
    env.game.pos = [5, 0, 0]
    env.game.occupant[5] = 0
    env._refresh()
    mine = env.observe("player_0")["observation"]
    theirs = env.observe("player_1")["observation"]
    assert mine[5] == 1  # own runner block first
    assert theirs[2 * 70 + 5] == 1  # player_0 is the last block seen from player_1
    assert env.observation_space("player_0")["observation"].shape == (3 * 70 + 3 * 4 + 120 + 9 + 9 + 4 + 1 + 1,)


def test_registry_make_builds_the_wrapped_env():
    env = pettingzoo.make("aec", "meadowzoo/hase_und_igel-v0", num_players=5)
    env.reset(seed=1)
    assert env.unwrapped.metadata["name"] == "hase_und_igel_v0"
    assert len(env.possible_agents) == 5
    assert meadowzoo.envs.env_id("hase_und_igel") == "meadowzoo/hase_und_igel-v0"


def test_action_strings_round_trip_for_every_index():
    for config in ("4p", "2p-two-runners"):
        env = raw(config)()
        env.reset(seed=0)
        names = [env.action_to_string(a) for a in range(env.num_actions)]
        assert len(set(names)) == env.num_actions
        assert all(env.string_to_action(name) == a for a, name in enumerate(names))
    assert raw("4p")().string_to_action(" MOVE to   12 ") == 11  # case and spacing are forgiven
    with pytest.raises(ValueError):
        env.string_to_action("fly to the moon")


def test_same_seed_same_game():
    a, b = hase_und_igel_v0.raw_env(num_players=4), hase_und_igel_v0.raw_env(num_players=4)
    assert testkit.playthrough(lambda: a, seed=9, max_steps=120) == testkit.playthrough(lambda: b, seed=9, max_steps=120)
    assert testkit.playthrough(lambda: a, seed=9, max_steps=60) != testkit.playthrough(lambda: a, seed=10, max_steps=60)


def test_rgb_array_is_a_picture_of_the_track():
    env = hase_und_igel_v0.raw_env(num_players=4, render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8
    assert frame.shape[0] > 200 and frame.shape[1] > 600
    assert len(np.unique(frame.reshape(-1, 3), axis=0)) > 8  # squares in several colours


def test_ansi_shows_squares_runners_holdings_and_last_action():
    env = hase_und_igel_v0.raw_env(num_players=2, two_runners=False, render_mode="ansi", start_player=0)
    env.reset(seed=0)
    env.step(env.string_to_action("move to 7"))
    text = env.render()
    assert "last action: player_0: move to 7" in text
    assert "player_0:   40 carrots, 3 lettuces" in text
    assert " L " in text and " I " in text
