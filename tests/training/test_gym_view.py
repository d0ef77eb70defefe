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


@pytest.mark.parametrize("seat", [-1, 2, 1.5, "1", True, None])
def test_a_seat_that_is_no_seat_index_is_refused(seat):
    view = SelfPlayEnv("volle_wolle", num_players=2)
    with pytest.raises(ValueError, match="seat"):
        view.reset(seed=0, options={"seat": seat})
    if seat is not None:  # None in the constructor means "drawn per episode"
        with pytest.raises(ValueError, match="seat"):
            SelfPlayEnv("volle_wolle", num_players=2, seat=seat)
    with pytest.raises(ValueError, match="reset options"):
        view.reset(seed=0, options={"sneaky": 1})
    assert view.reset(seed=0, options={"seat": np.int64(1)})[1]["seat"] == 1


def test_a_reset_that_fails_on_a_bad_snapshot_leaves_the_view_needing_a_reset():
    view = SelfPlayEnv("volle_wolle", num_players=2)
    with pytest.raises(RuntimeError, match="reset"):
        view.step(0)  # before the first reset
    view.reset(seed=0)
    with pytest.raises(ValueError, match="snapshot"):
        view.reset(seed=1, options={"snapshot": {"format": "meadowzoo"}})
    with pytest.raises(RuntimeError, match="reset"):
        view.step(int(np.flatnonzero(view.action_masks())[0]))
    observation, info = view.reset(seed=2)
    view.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_a_view_started_from_a_finished_game_reports_its_final_rewards():
    from meadowzoo.envs import volle_wolle_v0

    source = volle_wolle_v0.raw_env(num_players=2)
    source.reset(seed=4)
    rng = np.random.default_rng(0)
    while not all(source.terminations.values()):
        source.step(int(rng.choice(source.legal_actions())))
    final = dict(source._cumulative_rewards)
    assert sorted(final.values()) == [-1.0, 1.0]
    view = SelfPlayEnv("volle_wolle", num_players=2)
    _, info = view.reset(seed=0, options={"snapshot": source.snapshot()})
    assert info["final_rewards"] == final
    assert not info["action_mask"].any()


def test_the_views_env_settings_survive_an_episode_started_from_a_snapshot():
    """A snapshot's max_turns holds for its episode; the next reset is the view's own again."""
    from meadowzoo.envs import hase_und_igel_v0

    source = hase_und_igel_v0.raw_env(num_players=2)
    source.reset(seed=0)
    view = SelfPlayEnv("hase_und_igel", num_players=2, max_turns=40, truncation_scoring="standing")
    view.reset(seed=0, options={"snapshot": source.snapshot()})
    assert view.raw.max_turns == source.max_turns
    view.reset(seed=1)
    assert (view.raw.max_turns, view.raw.truncation_scoring) == (40, "standing")
