"""Search guidance (agents/guides.py): leaf values are bounded, symmetric and follow the heuristics'
evaluations; priors rank like the strong players; pruning keeps the best actions."""

import numpy as np
import pytest

from meadowzoo.agents import make_agent
from meadowzoo.agents.guides import action_scores, leaf_values, strong_values, top_actions
from meadowzoo.envs.volle_wolle import rules as vw
from tests.agents.helpers import GAMES, new_env


@pytest.mark.parametrize("game", GAMES)
def test_strong_values_bounded_and_zero_sum_for_two(game):
    env = new_env(game, players=2, seed=1, max_turns=400)
    rng = np.random.default_rng(0)
    for _ in range(40):
        if env.game.is_over:
            break
        values = strong_values(env.game)
        assert len(values) == 2 and all(-1 <= v <= 1 for v in values)
        assert values[0] == pytest.approx(-values[1])
        legal = env.legal_actions()
        env.step(legal[int(rng.integers(len(legal)))])


def test_haste_bock_leaf_value_favours_the_points_leader():
    env = new_env("haste_bock", players=2, seed=2)
    env.game.points = [12, 0]
    values = leaf_values("strong", env.game)
    assert values[0] > 0.5 > -0.5 > values[1]
    assert leaf_values("public", env.game)[0] > 0


def test_hase_und_igel_leaf_value_favours_the_runner_nearer_home():
    env = new_env("hase_und_igel", players=2, seed=2, max_turns=400)
    game = env.game
    game.pos[0] = 40  # the same carrots, player 0 far ahead
    values = strong_values(game)
    assert values[0] > 0 > values[1]


def test_volle_wolle_leaf_value_counts_wool():
    env = new_env("volle_wolle", players=2, seed=2)
    env.game.wool[0] += 8
    values = strong_values(env.game)
    assert values[0] > 0 > values[1]


def test_top_actions():
    scores = {3: 1.0, 5: 4.0, 7: 2.0, 9: 4.0}
    assert top_actions(scores, [3, 5, 7, 9], 2) == [5, 9]
    assert top_actions(scores, [3, 5, 7, 9], 3) == [5, 7, 9]
    assert top_actions(scores, [3, 5, 7, 9], 0) == [3, 5, 7, 9]
    assert top_actions(None, [3, 5], 1) == [3, 5]


def test_haste_bock_prior_top_action_is_what_strong_plays():
    """Exact plan values: the strong player picks among the actions its prior scores best."""
    env = new_env("haste_bock", players=2, seed=4, max_turns=400)
    rng = np.random.default_rng(4)
    checked = 0
    for _ in range(30):
        legal = env.legal_actions()
        if len(legal) > 1:
            scores = action_scores("strong", env.game, legal, np.random.default_rng(0))
            choice = make_agent("strong", "haste_bock", seed=1).act(env, env.agent_selection)
            assert scores[choice] >= max(scores.values()) - 1e-9
            checked += 1
        env.step(legal[int(rng.integers(len(legal)))])
    assert checked >= 5


def test_hase_und_igel_prior_is_seeded_and_reads_copies():
    env = new_env("hase_und_igel", players=2, seed=5, max_turns=400)
    legal = env.legal_actions()
    before = env.snapshot()
    first = action_scores("strong", env.game, legal, np.random.default_rng(1))
    assert first == action_scores("strong", env.game, legal, np.random.default_rng(1))
    assert set(first) == set(legal)
    assert env.snapshot() == before  # scoring plays on copies only


def test_volle_wolle_prior_ranks_bids_and_rolls_like_strong():
    env = new_env("volle_wolle", players=2, seed=1, max_turns=400)
    rng = np.random.default_rng(3)
    kinds = set()
    for _ in range(60):
        legal = env.legal_actions()
        scores = action_scores("strong", env.game, legal, np.random.default_rng(0))
        if scores is None:
            assert env.game.pending not in (vw.BID, vw.ROLL)
        elif len(legal) > 1:
            choice = make_agent("strong", "volle_wolle", seed=1).act(env, env.agent_selection)
            assert set(scores) == set(legal)
            assert scores[choice] >= max(scores.values()) - 1e-9
            kinds.add(env.game.pending)
        env.step(legal[int(rng.integers(len(legal)))])
    assert kinds == {vw.BID, vw.ROLL}
    assert action_scores("none", env.game, env.legal_actions(), np.random.default_rng(0)) is None


def test_volle_wolle_roll_memo_keeps_answers():
    """The strong player's roll expectations, memoised across decisions, equal fresh ones."""
    from meadowzoo.agents.heuristics.volle_wolle import StrongVolleWolle

    warm = StrongVolleWolle(seed=0)
    env = new_env("volle_wolle", players=2, seed=4, max_turns=400)
    rng = np.random.default_rng(4)
    rolls = 0
    for _ in range(120):
        if env.game.is_over:
            break
        legal = env.legal_actions()
        if env.game.pending == vw.ROLL:
            assert warm.roll_values(env.game, legal) == StrongVolleWolle(seed=0).roll_values(env.game, legal)
            rolls += 1
        env.step(legal[int(rng.integers(len(legal)))])
    assert rolls >= 5 and warm._roll_memos
