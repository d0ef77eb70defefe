"""The ``truncation_scoring`` env option (:mod:`meadowzoo.envs.core.standing`): a ``max_turns``
cut scores 0 for all (``"draw"``, the default) or the rank rewards of the standing at the cut
(``"standing"``), in every game, through snapshots and in the self-play view."""

from __future__ import annotations

import numpy as np
import pytest

import meadowzoo  # noqa: F401  (registers the games)
from meadowzoo.envs import GAMES, game_module
from meadowzoo.envs.core.rewards import rank_rewards
from meadowzoo.envs.core.standing import standing_places
from meadowzoo.envs.hase_und_igel.standing import race_places
from meadowzoo.training.selfplay import SelfPlayEnv

# few enough turns that random games are cut (Volle Wolle counts decisions in max_turns)
CUT = {"hase_und_igel": 40, "haste_bock": 15, "volle_wolle": 40}


def play_to_the_cut(env, seed: int) -> None:
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        env.step(int(rng.choice(env.legal_actions())))


@pytest.mark.parametrize("game", GAMES)
def test_standing_scores_the_cut_by_the_standing_and_draw_by_zero(game):
    standing = game_module(game).raw_env(num_players=3, max_turns=CUT[game], truncation_scoring="standing")
    draw = game_module(game).raw_env(num_players=3, max_turns=CUT[game])
    assert draw.truncation_scoring == "draw"
    decided = 0
    for seed in range(4):
        play_to_the_cut(standing, seed)
        play_to_the_cut(draw, seed)
        assert all(standing.truncations.values()) and not any(standing.terminations.values())
        expected = rank_rewards(standing_places(standing.game), standing.game.teams())
        assert [standing.rewards[a] for a in standing.possible_agents] == expected
        assert [standing._cumulative_rewards[a] for a in standing.possible_agents] == expected
        assert standing.last()[1] == expected[standing.possible_agents.index(standing.agent_selection)]
        assert set(draw.rewards.values()) == {0.0} and set(draw._cumulative_rewards.values()) == {0.0}
        assert draw.game.to_dict() == standing.game.to_dict()  # scoring changes no rule
        decided += len(set(expected)) > 1
    assert decided >= 3  # the standing tells the players apart, where a draw does not


def test_hase_und_igel_standing_is_the_race_position():
    env = game_module("hase_und_igel").raw_env(num_players=4, max_turns=60, truncation_scoring="standing")
    play_to_the_cut(env, 1)
    places = race_places(env.game)
    assert standing_places(env.game) == places
    leader = places.index(0)
    assert env.rewards[f"player_{leader}"] == max(env.rewards.values())


@pytest.mark.parametrize("game", GAMES)
def test_truncation_scoring_survives_snapshot_restore_and_pickling(game):
    import pickle

    env = game_module(game).raw_env(num_players=2, max_turns=CUT[game], truncation_scoring="standing")
    env.reset(seed=3)
    env.step(env.legal_actions()[0])
    snapshot = env.snapshot()
    assert snapshot["truncation_scoring"] == "standing"
    fresh = game_module(game).raw_env(num_players=2)  # a default ("draw") env takes the snapshot's
    fresh.restore(snapshot)
    assert fresh.truncation_scoring == "standing" and fresh.snapshot() == snapshot
    assert pickle.loads(pickle.dumps(env)).truncation_scoring == "standing"
    assert "truncation_scoring" not in game_module(game).raw_env(num_players=2).snapshot_of({}, [], {})
    rng = np.random.default_rng(0)
    while not any(fresh.truncations.values()) and not any(fresh.terminations.values()):
        fresh.step(int(rng.choice(fresh.legal_actions())))
    if any(fresh.truncations.values()):
        assert list(fresh.rewards.values()) == rank_rewards(standing_places(fresh.game), fresh.game.teams())


@pytest.mark.parametrize("game", GAMES)
def test_bad_truncation_scoring_is_refused(game):
    with pytest.raises(ValueError, match="truncation_scoring must be one of"):
        game_module(game).raw_env(num_players=2, truncation_scoring="points")
    env = game_module(game).raw_env(num_players=2)
    env.reset(seed=0)
    before = env.snapshot()
    with pytest.raises(ValueError, match="snapshot field truncation_scoring"):
        env.restore({**before, "truncation_scoring": "win"})
    assert env.snapshot() == before and env.truncation_scoring == "draw"


def test_the_self_play_view_passes_the_standing_reward_to_the_learner():
    for seed in range(6):
        env = SelfPlayEnv("hase_und_igel", num_players=2, seat=0, max_turns=30, truncation_scoring="standing")
        _, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        terminated = truncated = False
        while not (terminated or truncated):
            _, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        assert truncated and reward == info["final_rewards"]["player_0"]
        assert reward == rank_rewards(race_places(env.raw.game))[0]
