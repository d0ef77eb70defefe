"""The self-play view: the learner's own outcome, from either seat, including losses on an
opponent's move; opponents' moves are never credited to the learner."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import meadowzoo  # noqa: F401  (registers the Gymnasium ids)
from meadowzoo.agents.base import Agent
from meadowzoo.envs import hase_und_igel_v0
from tests.hase_und_igel.helpers import position
from meadowzoo.training.pool import OpponentPool
from meadowzoo.training.selfplay import SelfPlayEnv


class GoalFirst(Agent):
    """Finishes when it can, else plays its first legal action."""

    def act(self, env, agent):
        legal = env.legal_actions()
        goal = env.string_to_action("move to goal")
        return goal if goal in legal else legal[0]


def duel_snapshot(to_move: int, finisher: int) -> dict:
    """A one-runner duel: ``finisher`` stands on 60 able to finish, the other on 5."""
    raw = hase_und_igel_v0.raw_env(num_players=2, two_runners=False)
    raw.reset(seed=0)
    other = 1 - finisher
    raw.game = position(2, two_runners=False, pos={finisher: 60, other: 5}, carrots={finisher: 20},
                        lettuces={finisher: 0}, turn_of=to_move)
    raw._refresh()
    raw._settle()
    return raw.snapshot()


def make(seat: int) -> SelfPlayEnv:
    pool = OpponentPool("hase_und_igel", "random")
    pool.sample = lambda rng: GoalFirst()
    return SelfPlayEnv("hase_und_igel", opponents=pool, seat=seat, num_players=2, two_runners=False)


@pytest.mark.parametrize("seat", [0, 1])
def test_loss_on_the_opponents_move_reaches_the_learner_as_minus_one(seat):
    env = make(seat)
    obs, info = env.reset(seed=1, options={"snapshot": duel_snapshot(to_move=seat, finisher=1 - seat)})
    assert info["seat"] == seat and env.action_masks().any()
    _, reward, terminated, truncated, info = env.step(env.raw.string_to_action("move to 6"))
    assert terminated and not truncated
    assert reward == -1.0  # the opponent's finish is the learner's loss, not its win
    assert info["final_rewards"] == {f"player_{1 - seat}": 1.0, f"player_{seat}": -1.0}


@pytest.mark.parametrize("seat", [0, 1])
def test_win_reaches_the_learner_as_plus_one(seat):
    env = make(seat)
    env.reset(seed=1, options={"snapshot": duel_snapshot(to_move=seat, finisher=seat)})
    _, reward, terminated, _, _ = env.step(env.raw.string_to_action("move to goal"))
    assert terminated and reward == 1.0


def test_opponents_move_before_the_learners_first_decision():
    env = make(seat=1)
    env.reset(seed=1, options={"snapshot": duel_snapshot(to_move=0, finisher=1)})
    assert env.raw.agent_selection == "player_1"  # the opponent (seat 0) already moved
    assert env.raw.game.pos[0] == 6


def test_non_final_steps_give_zero_and_episodes_end_or_truncate():
    env = gymnasium.make("meadowzoo/HaseUndIgel-v0", opponents="random", num_players=3, max_turns=60)
    obs, info = env.reset(seed=3)
    rewards = []
    for _ in range(10_000):
        mask = info["action_mask"]
        obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
        rewards.append(reward)
        assert env.observation_space.contains(obs)
        if terminated or truncated:
            break
    assert terminated or truncated
    assert all(r == 0.0 for r in rewards[:-1])


def test_same_seed_same_episode():
    def run(seed):
        env = SelfPlayEnv("hase_und_igel", opponents="random", num_players=2)
        obs, info = env.reset(seed=seed)
        trace = [info["seat"]]
        for _ in range(50):
            obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
            trace.append(float(obs.sum()))
            if terminated or truncated:
                break
        return trace
    assert run(5) == run(5)
    assert run(5) != run(6)


def test_learner_seat_is_drawn_per_episode():
    env = SelfPlayEnv("hase_und_igel", opponents="random", num_players=4)
    seats = {env.reset(seed=s)[1]["seat"] for s in range(30)}
    assert seats == {0, 1, 2, 3}


def test_bad_configuration_is_rejected():
    with pytest.raises(ValueError, match="seat"):
        SelfPlayEnv("hase_und_igel", seat=5, num_players=2)
    with pytest.raises(ValueError, match="unknown agent"):
        SelfPlayEnv("hase_und_igel", opponents="nobody", num_players=2)


@pytest.mark.parametrize("game", ["hase_und_igel", "haste_bock", "volle_wolle"])
def test_action_masks_are_the_learners_legal_actions_at_every_decision(game):
    """The mask MaskablePPO reads is the learner's current legal actions after every reset and step,
    and editing the copy in ``info`` does not change it."""
    env = SelfPlayEnv(game, opponents="random", num_players=2)
    rng = np.random.default_rng(3)
    _, info = env.reset(seed=5)
    for _ in range(60):
        expected = np.zeros(env.action_space.n, dtype=bool)
        expected[list(env.raw.legal_actions())] = True
        assert env.raw.agent_selection == env.learner
        np.testing.assert_array_equal(env.action_masks(), expected)
        info["action_mask"][:] = 0  # the caller's copy only
        np.testing.assert_array_equal(env.action_masks(), expected)
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(expected))))
        if terminated or truncated:
            _, info = env.reset(seed=int(rng.integers(1000)))
