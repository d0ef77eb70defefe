"""The Gymnasium single-agent view (:class:`meadowzoo.training.selfplay.SelfPlayEnv`) as Gymnasium
and Stable-Baselines3 users meet it: both ``check_env`` pass for every game and player count
(they sample actions without a mask, so illegal actions must be handled as documented), an
illegal action ends the episode with the last-place reward (``illegal_action="lose"``) or raises
and changes nothing (``"raise"``), and the mask is in ``action_masks()`` and ``info``."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

import meadowzoo  # noqa: F401  (registers the Gymnasium ids)
from meadowzoo.envs.registry import GAMES, plugin
from meadowzoo.training.selfplay import ILLEGAL_ACTION_REWARD, SelfPlayEnv

CONFIGS = [(game, n) for game in GAMES for n in plugin(game).player_counts]


def _checked(check, env) -> list[str]:
    """Run a checker; its warnings, as text, except the infinite Box bounds (the observations hold
    counts the rules do not bound, e.g. carrots)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check(env)
    return [str(w.message) for w in caught if "infinity" not in str(w.message)]


@pytest.mark.parametrize("game,players", CONFIGS, ids=[f"{g}-{n}p" for g, n in CONFIGS])
def test_both_check_envs_pass(game, players):
    env = gymnasium.make(plugin(game).gym_id, num_players=players, max_turns=200)
    assert _checked(gymnasium_check_env, env.unwrapped) == []
    assert _checked(sb3_check_env, env.unwrapped) == []


def _illegal(env: SelfPlayEnv) -> int:
    return int(np.flatnonzero(~env.action_masks())[0])


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_action_loses_by_default(game):
    env = SelfPlayEnv(game, num_players=3 if game != "hase_und_igel" else 2)
    env.reset(seed=4)
    before = env.raw.snapshot()
    action = _illegal(env)
    obs, reward, terminated, truncated, info = env.step(action)
    assert (reward, terminated, truncated) == (ILLEGAL_ACTION_REWARD, True, False)
    assert f"illegal action {action}" in info["illegal_action"]
    assert info["final_rewards"][env.learner] == -1.0
    assert sum(info["final_rewards"].values()) == -1.0  # the others get 0, as PettingZoo's wrapper
    assert not info["action_mask"].any() and not env.action_masks().any()
    assert env.raw.snapshot() == before  # the game itself is untouched
    assert env.observation_space.contains(obs)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(action)
    env.reset(seed=5)  # and a new episode starts normally
    assert env.action_masks().any()


def test_illegal_action_raise_changes_nothing():
    env = SelfPlayEnv("haste_bock", num_players=2, illegal_action="raise")
    _, info = env.reset(seed=2)
    before = env.raw.snapshot()
    with pytest.raises(ValueError, match="illegal action .* legal actions"):
        env.step(_illegal(env))
    assert env.raw.snapshot() == before
    np.testing.assert_array_equal(env.action_masks(), info["action_mask"])
    env.step(int(np.flatnonzero(info["action_mask"])[0]))  # the episode goes on


@pytest.mark.parametrize("bad", [-1, 10**6, 1.5, "3", True])
def test_an_action_outside_the_space_raises_in_either_mode(bad):
    env = SelfPlayEnv("volle_wolle", num_players=2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action"):
        env.step(bad)
    assert env.action_masks().any()  # no forfeit: the episode goes on


def test_unknown_illegal_action_mode_is_rejected():
    with pytest.raises(ValueError, match="illegal_action"):
        SelfPlayEnv("volle_wolle", num_players=2, illegal_action="ignore")


def test_mask_in_info_and_action_masks_agree_and_are_bool():
    env = gymnasium.make("meadowzoo/HasteBock-v0", num_players=3)
    _, info = env.reset(seed=1)
    for _ in range(30):
        mask = env.unwrapped.action_masks()
        assert mask.dtype == bool and info["action_mask"].dtype == bool
        np.testing.assert_array_equal(mask, info["action_mask"])
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
        if terminated or truncated:
            break
