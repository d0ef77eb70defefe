"""PettingZoo API, observation, action strings, snapshots, clones, illegal actions and rendering."""

from __future__ import annotations

import copy
import json

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import meadowzoo  # noqa: F401  (registers the games)
from meadowzoo.envs.haste_bock import env as E
from meadowzoo.envs.haste_bock.rules import CARD, NUM_ACTIONS, PANIC, action_layout
from meadowzoo.envs.haste_bock_v0 import env as wrapped_env
from meadowzoo.envs.haste_bock_v0 import raw_env

PLAYERS = [2, 3, 4]


def _random_step(env, rng):
    legal = env.legal_actions()
    action = legal[int(rng.integers(len(legal)))]
    env.step(action)
    return action


@pytest.mark.parametrize("num_players", PLAYERS)
def test_pettingzoo_api_test(num_players):
    api_test(wrapped_env(num_players=num_players), num_cycles=300)


def test_pettingzoo_seed_and_render_tests():
    seed_test(lambda: wrapped_env(num_players=3), num_cycles=100)
    render_test(lambda render_mode=None: wrapped_env(num_players=2, render_mode=render_mode))


def test_registered_with_pettingzoo():
    env = pettingzoo.make("aec", "meadowzoo/haste_bock-v0", num_players=2)
    env.reset(seed=1)
    assert env.possible_agents == ["player_0", "player_1"]


def test_action_layout_matches_the_documented_blocks():
    layout = action_layout()
    assert sum(size for _, _, size in layout) == NUM_ACTIONS == 996
    start = 0
    for name, first, size in layout:
        assert first == start, name
        assert f"| {first}–{first + size - 1} " in E.__doc__, name  # the docstring table lists the block
        start += size


@pytest.mark.parametrize("num_players", PLAYERS)
def test_every_action_index_has_a_unique_readable_string_that_round_trips(num_players):
    env = raw_env(num_players=num_players)
    env.reset(seed=0)
    names = [env.action_to_string(a) for a in range(NUM_ACTIONS)]
    assert len(set(names)) == NUM_ACTIONS
    for a in range(0, NUM_ACTIONS, 7):
        assert env.string_to_action(names[a]) == a
        assert env.string_to_action("  " + names[a].upper() + " ") == a
    with pytest.raises(ValueError):
        env.string_to_action("fly to the moon")
    with pytest.raises(ValueError):
        env.action_to_string(NUM_ACTIONS)


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


@pytest.mark.parametrize("num_players", PLAYERS)
def test_raw_env_random_games_masks_and_rewards(num_players):
    env = raw_env(num_players=num_players)
    rng = np.random.default_rng(num_players)
    for seed in range(15):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"]
            assert mask.dtype == np.int8 and np.flatnonzero(mask).tolist() == env.legal_actions()
            for other in env.agents:
                if other != agent:
                    assert env.observe(other)["action_mask"].sum() == 0
            env.step(int(rng.choice(np.flatnonzero(mask))))
        assert abs(sum(env._cumulative_rewards.values())) < 1e-9


def _observations(env):
    return {a: env.observe(a) for a in env.possible_agents}


@pytest.mark.parametrize("num_players,games", [(2, 34), (3, 33), (4, 33)])
def test_snapshot_restore_round_trip_at_every_step(num_players, games):
    env = raw_env(num_players=num_players)
    twin = raw_env(num_players=num_players)
    rng = np.random.default_rng(num_players)
    for seed in range(games):
        env.reset(seed=seed)
        twin.reset(seed=999)
        while not env.game.is_over:
            snap = json.loads(json.dumps(env.snapshot()))
            twin.restore(snap)
            assert twin.snapshot() == env.snapshot()
            mine, theirs = _observations(env), _observations(twin)
            for a in env.possible_agents:
                assert np.array_equal(mine[a]["observation"], theirs[a]["observation"])
                assert np.array_equal(mine[a]["action_mask"], theirs[a]["action_mask"])
            assert twin.agent_selection == env.agent_selection
            action = _random_step(env, rng)
            twin.step(action)
            assert twin.game.to_dict() == env.game.to_dict()  # the same die rolls follow


def test_clone_is_independent():
    env = raw_env(num_players=4)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(10):
        _random_step(env, rng)
    before = env.snapshot()
    twin = env.clone()
    assert twin.snapshot() == before
    while not twin.game.is_over:
        _random_step(twin, rng)
    assert env.snapshot() == before
    game_twin = env.game.clone()
    game_twin.apply(game_twin.legal_actions()[0])
    assert env.snapshot() == before


def _corrupt(snapshot, path, value):
    bad = copy.deepcopy(snapshot)
    target = bad
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return bad


@pytest.mark.parametrize(
    "path,value,field",
    [
        (("game", "pos"), [0] * 9, "pos"),
        (("game", "pos"), [0, 1, 2], "pos"),
        (("game", "time"), 75, "time"),
        (("game", "time"), "3", "time"),
        (("game", "facing"), 4, "facing"),
        (("game", "scores"), [0], "scores"),
        (("game", "hands"), [[9] * 21] * 4, "hands"),
        (("game", "tiles"), [[1, 0, 0]] * 4, "tiles"),
        (("game", "die"), 7, "die"),
        (("game", "pending"), 9, "pending"),
        (("game", "pending"), "dance", "pending"),
        (("game", "no_trough"), 5, "no_trough"),
        (("game", "rng"), {"bit_generator": "MT"}, "rng"),
        (("game", "config"), {"num_players": 5}, "config"),
        (("game",), None, "snapshot"),
        (("options",), {"num_players": 2}, "options"),
        (("max_turns",), 0, "max_turns"),
        (("agents",), ["nobody"], "agents"),
    ],
)
def test_bad_snapshot_raises_naming_the_field_and_leaves_the_env_untouched(path, value, field):
    env = raw_env(num_players=4)
    env.reset(seed=1)
    good = env.snapshot()
    with pytest.raises(ValueError, match=field):
        env.restore(_corrupt(good, path, value))
    assert env.snapshot() == good


def test_illegal_action_raises_naming_it_and_the_legal_ones_and_changes_nothing():
    env = raw_env(num_players=4)
    env.reset(seed=1)
    before = env.snapshot()
    legal = env.legal_actions()
    illegal = next(a for a in range(NUM_ACTIONS) if a not in legal)
    with pytest.raises(ValueError) as error:
        env.step(illegal)
    message = str(error.value)
    assert env.action_to_string(illegal) in message and env.action_to_string(legal[0]) in message
    assert env.snapshot() == before
    with pytest.raises(ValueError):
        env.step(NUM_ACTIONS)
    assert env.snapshot() == before


def test_wrapped_env_terminates_an_illegal_move():
    env = wrapped_env(num_players=2)
    env.reset(seed=0)
    agent = env.agent_selection
    legal = np.flatnonzero(env.observe(agent)["action_mask"])
    illegal = next(a for a in range(NUM_ACTIONS) if a not in legal)
    env.step(illegal)
    assert env.terminations[agent] and env.rewards[agent] == -1


def test_options_are_validated():
    for bad in ({"num_players": 5}, {"layout": "x"}, {"facing": "up"}, {"phase2_rows": "x"}, {"speed": 1},
                {"rule_data": {"panic_spaces": [80]}}):
        with pytest.raises(ValueError):
            raw_env(**bad)


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
