"""The Haste Bock? env: its action and observation layouts and rendering content. What every game must do
(API, random games, snapshots, clones, bad input, rendering) is in tests/core/test_conformance.py."""

from __future__ import annotations

import numpy as np

import meadowzoo  # noqa: F401  (registers the games)
from meadowzoo.envs.haste_bock import env as E
from meadowzoo.envs.haste_bock.rules import CARD, NUM_ACTIONS, PANIC, action_layout
from meadowzoo.envs.haste_bock_v0 import raw_env

def test_action_layout_matches_the_documented_blocks():
    layout = action_layout()
    assert sum(size for _, _, size in layout) == NUM_ACTIONS == 996
    start = 0
    for name, first, size in layout:
        assert first == start, name
        assert f"| {first}–{first + size - 1} " in E.__doc__, name  # the docstring table lists the block
        start += size


def test_observation_layout_from_the_observer_seat():
    env = raw_env(num_players=3, layout="fixed")
    env.reset(seed=2)
    game = env.game
    for seat, agent in enumerate(env.possible_agents):
        obs = env.observe(agent)["observation"]
        assert obs.shape == (E.OBS_SIZE,) and obs.dtype == np.float32
        planes = obs[: 9 * 81].reshape(9, 81)
        assert planes.sum(axis=1).tolist() == [1] * 9  # one plane per sheep
        # own sheep first, each in its own plane, so `blue-1` and `blue-2` can be told apart
        assert planes[0][game.pos[2 * seat]] == 1 and planes[1][game.pos[2 * seat + 1]] == 1
        following = (seat + 1) % 3
        assert planes[2][game.pos[2 * following]] == 1 and planes[3][game.pos[2 * following + 1]] == 1
        assert planes[6][game.pos[6]] == 1 and planes[7][game.pos[7]] == 1  # red is neutral: fixed planes
        assert planes[8][game.pos[8]] == 1  # Thea
        assert obs[E.TIME + game.time] == 1 and obs[E.PLAYERS + 1] == 1
        assert obs[E.CARDS : E.CARDS + 21].sum() == sum(game.hands[seat])
        assert obs[E.TILES : E.TILES + 3].tolist() == game.tiles[seat]
        assert obs[E.DECIDER + (game.player - seat) % 3] == 1
        assert obs[E.PANIC_TRACK + 7] == 1 and obs[E.PANIC_TRACK + 8] == 0


def test_observation_shows_the_die_the_pending_decision_and_the_no_undo_rule():
    env = raw_env(num_players=2)
    env.reset(seed=4)
    obs = env.observe(env.agent_selection)["observation"]
    assert env.game.pending == PANIC  # the opening panic
    assert obs[E.PENDING + 4] == 1 and obs[E.OPENING] == 1 and obs[E.DIE + env.game.die] == 1
    while env.game.pending != CARD:
        env.step(env.legal_actions()[0])
    env.step(env.string_to_action("play trough (card 3)"))
    obs = env.observe(env.agent_selection)["observation"]
    assert obs[E.PENDING + 2] == 1 and obs[E.CHOSEN_CARD + 5 * 3 + 2] == 1
    side = env.action_to_string(env.legal_actions()[0]).split()[1]
    env.step(env.legal_actions()[0])
    obs = env.observe(env.agent_selection)["observation"]
    assert obs[E.PENDING + 3] == 1 and obs[E.CHOSEN_CARD + 5 * 3 + 2] == 1  # the tile follows
    env.step(env.legal_actions()[0])
    if env.game.pending == CARD:
        obs = env.observe(env.agent_selection)["observation"]
        assert obs[E.NO_TROUGH + ("NESW".index(side) ^ 2)] == 1  # the next player may not trough back


def test_render_ansi_and_rgb_array():
    env = raw_env(num_players=4, render_mode="ansi", rule_data={"panic_spaces": []})
    env.reset(seed=0)
    while env.game.phase < 2:
        env.step(env.legal_actions()[0])
    text = env.render()
    assert "Roger" in text and "track" in text and "player_3 (red)" in text
    assert sum(line.count("T") for line in text.splitlines()[1:11]) >= 1
    picture = raw_env(num_players=3, render_mode="rgb_array")
    picture.reset(seed=0)
    image = picture.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 10  # a real picture, not a blob
