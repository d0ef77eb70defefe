"""The Hase und Igel AEC env: golden traces, hidden information, the egocentric observation,
rendering content and snapshot upgrades. What every game must do (API, random games, snapshots,
clones, bad input, rendering) is in the conformance suite, tests/core/test_conformance.py."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

import meadowzoo  # noqa: F401  (registers the games)
from meadowzoo.envs import hase_und_igel_v0
from meadowzoo.envs.core import testkit
from meadowzoo.envs.hase_und_igel import data
from tests.hase_und_igel.policies import racing_random

CONFIGS = {"2p-two-runners": {"num_players": 2}, "4p": {"num_players": 4}}
GOLDEN = Path(__file__).parent.parent / "golden"


@pytest.mark.parametrize("config, seed", [("4p", 7), ("2p-two-runners", 11)])
def test_golden_playthrough(config, seed):
    trace = testkit.playthrough(lambda: hase_und_igel_v0.raw_env(**CONFIGS[config]), seed=seed, max_steps=200)
    path = GOLDEN / f"hase_und_igel_{config}_seed{seed}.txt"
    if os.environ.get("MEADOWZOO_REGENERATE_GOLDEN"):
        path.write_text(trace)
    assert trace == path.read_text(), f"trace differs from {path}; rules changed? regenerate deliberately"


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


def test_version_1_snapshot_of_a_finished_game_loads_as_over():
    """Format 1 wrote a finished game's decision as ``"phase": "move"``; it loads as ``over``."""
    env = hase_und_igel_v0.raw_env(num_players=2, two_runners=False, max_turns=3000)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    while not env.game.is_over:
        env.step(racing_random(env, rng))
    snapshot = env.snapshot()
    old = json.loads(json.dumps(snapshot))
    old["version"] = 1
    game = old["game"]
    game["turns"] = game.pop("turn")
    game.pop("pending")
    game["phase"] = "move"
    twin = hase_und_igel_v0.raw_env(num_players=2, two_runners=False, max_turns=3000)
    twin.restore(old)
    assert twin.snapshot() == snapshot and twin.game.pending == len(twin.game.DECISIONS) - 1
    with pytest.raises(ValueError, match="pending"):  # format 2 names it 'pending' and says 'over'
        bad = json.loads(json.dumps(snapshot))
        bad["game"]["pending"] = "move"
        twin.restore(bad)
