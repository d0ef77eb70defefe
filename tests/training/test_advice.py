"""Advice features and the advised policy: the strong heuristic's opinion reaches the network
intact, an untrained advised policy plays the heuristic's choice, files round-trip weights-only,
and the self-play view and the teacher data carry the advice block."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from meadowzoo.agents import make_agent
from meadowzoo.agents.advice import CLIP, advice_features, advice_size, env_advice
from meadowzoo.agents.guides import action_scores
from meadowzoo.agents.policy import PolicyAgent, load_policy
from meadowzoo.envs.registry import game_module
from meadowzoo.training.imitation import collect
from meadowzoo.training.selfplay import SelfPlayEnv
from meadowzoo.training.train import main

GAMES = [("haste_bock", 2), ("volle_wolle", 2), ("hase_und_igel", 2)]


def decisions(game: str, players: int, seed: int, limit: int = 40):
    """Raw envs at the first ``limit`` decisions with several legal actions of a strong-vs-strong game."""
    env = game_module(game).raw_env(num_players=players)
    env.reset(seed=seed)
    strong = make_agent("strong", game, seed=seed)
    found = 0
    while found < limit and not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        if len(env.legal_actions()) > 1:
            found += 1
            yield env
        env.step(strong.act(env, env.agent_selection))


@pytest.mark.parametrize("game,players", GAMES)
def test_gap_and_choice_blocks_encode_the_heuristic_scores(game, players):
    for env in decisions(game, players, seed=3, limit=15):
        n = int(env.action_space(env.agent_selection).n)
        legal = list(env.legal_actions())
        features = advice_features("strong", env.game, legal, n, np.random.default_rng(0))
        scores = action_scores("strong", env.game, legal, np.random.default_rng(0))
        assert features.shape == (advice_size(n),) == (2 * n,)
        gap, choice = features[:n], features[n:]
        illegal = np.setdiff1d(np.arange(n), legal)
        assert not gap[illegal].any() and not choice[illegal].any()  # nothing leaks onto illegal actions
        if not scores:
            assert not features.any()
            continue
        best = max(scores.values())
        chosen = {a for a, v in scores.items() if v >= best - 1e-9}
        assert set(np.flatnonzero(choice)) == chosen
        assert all(gap[a] == 0.0 for a in chosen)
        assert all(-CLIP <= gap[a] < 0.0 for a in legal if a not in chosen)


def test_the_strong_players_own_move_is_among_the_advised_choices():
    """Haste Bock?'s strong player picks among its best-valued actions: the choice block marks them."""
    for env in decisions("haste_bock", 2, seed=5, limit=30):
        n = int(env.action_space(env.agent_selection).n)
        features = env_advice("strong", env, np.random.default_rng(0))
        action = make_agent("strong", "haste_bock", seed=1).act(env, env.agent_selection)
        assert features[n + action] == 1.0


def test_a_forced_move_is_the_choice_and_unknown_advice_is_refused():
    env = game_module("volle_wolle").raw_env(num_players=2)
    env.reset(seed=0)
    n = int(env.action_space(env.agent_selection).n)
    features = advice_features("strong", env.game, [4], n, np.random.default_rng(0))
    assert features[n + 4] == 1.0 and features.sum() == 1.0
    with pytest.raises(ValueError, match="unknown advice"):
        advice_features("oracle", env.game, [4], n, np.random.default_rng(0))
    with pytest.raises(ValueError, match="unknown advice"):
        SelfPlayEnv("volle_wolle", opponents="random", advice="oracle", num_players=2)


def test_self_play_view_appends_the_learners_advice():
    view = SelfPlayEnv("haste_bock", opponents="strong", advice="strong", num_players=2)
    base = view.raw.observation_space(view.agents[0])["observation"].shape[0]
    n = int(view.action_space.n)
    observation, info = view.reset(seed=4)
    assert view.observation_space.shape == (base + 2 * n,)
    assert view.observation_space.contains(observation)
    for _ in range(20):
        np.testing.assert_array_equal(observation[:base], view.raw.observe(view.learner)["observation"])
        choice = observation[base + n:]
        assert choice.any() and not choice[~view.action_masks()].any()  # advice on the learner's own decision
        observation, reward, terminated, truncated, info = view.step(int(np.flatnonzero(choice)[0]))
        if terminated or truncated:
            break


def test_teacher_data_carries_the_advice_and_does_not_depend_on_workers():
    one = collect("volle_wolle", 2, "greedy", games=3, seed=11, advice="strong", workers=1)
    two = collect("volle_wolle", 2, "greedy", games=3, seed=11, advice="strong", workers=2)
    env = game_module("volle_wolle").raw_env(num_players=2)
    n = int(env.action_space("player_0").n)
    assert one.observations.shape[1] == env.observation_space("player_0")["observation"].shape[0] + 2 * n
    for field in ("observations", "masks", "actions", "returns"):
        np.testing.assert_array_equal(getattr(one, field), getattr(two, field))


@pytest.fixture(scope="module")
def advised_file(tmp_path_factory):
    """An advised Haste Bock? policy after a few PPO updates, saved weights-only."""
    out = tmp_path_factory.mktemp("advised") / "run"
    main(["--game", "haste_bock", "--players", "2", "--timesteps", "64", "--n-envs", "1", "--n-steps", "64",
          "--batch-size", "32", "--eval-every", "10000", "--eval-games", "2", "--ladder", "random",
          "--opponents", "random", "--advice", "strong", "--out", str(out), "--quiet"])
    return out / "policy.pt"


def test_advised_policy_file_round_trips_weights_only(advised_file):
    payload = torch.load(advised_file, weights_only=True)
    assert payload["advice"] == "strong"
    policy = load_policy(advised_file)
    assert type(policy).__name__ == "AdvisedPolicy"
    for key, value in payload["state_dict"].items():
        assert torch.equal(policy.state_dict()[key], value)


def test_untrained_advised_policy_plays_the_heuristics_choice(advised_file):
    """The logits start as 3 × choice + gap: after a few PPO updates (no real training) the policy
    still follows the heuristic (among its ties), and it plays only legal actions."""
    agent = PolicyAgent.from_file(advised_file, game="haste_bock")
    for env in decisions("haste_bock", 2, seed=8, limit=25):
        n = int(env.action_space(env.agent_selection).n)
        features = env_advice("strong", env, np.random.default_rng(0))  # Haste Bock?'s advice draws nothing
        action = agent.act(env, env.agent_selection)
        assert action in env.legal_actions()
        assert features[n + action] == 1.0
