"""MCTS: blind to hidden state, seeded, strong enough to matter, and its command-line settings."""

import numpy as np
import pytest

from meadowzoo.agents import make_agent
from meadowzoo.agents.mcts import MCTSAgent
from meadowzoo.envs.volle_wolle import rules as vw
from tests.agents.helpers import advance, new_env

SEARCH = "mcts:40:depth=20"
#: the heuristic-guided configuration (strong leaf values, prior pruning, strong rollouts), small
GUIDED = "mcts:6:rollout=strong:depth=3:leaf=strong:prior=strong:width=3:tree=1"
BOTH = pytest.mark.parametrize("spec", [SEARCH, GUIDED])


def decide_on_both(first, second, game, seed=7, spec=SEARCH):
    """The search's choice in two envs, each with a fresh agent of the same seed."""
    a = make_agent(spec, game, seed=seed).act(first, first.agent_selection)
    b = make_agent(spec, game, seed=seed).act(second, second.agent_selection)
    return a, b


def twin(env, change):
    """A second env restored from ``env``'s snapshot after ``change(snapshot['game'])``."""
    snapshot = env.snapshot()
    change(snapshot["game"])
    other = new_env(env.metadata["name"].removesuffix("_v0"), players=len(env.possible_agents))
    other.restore(snapshot)
    return other


@BOTH
def test_hase_und_igel_unseen_deck_order_is_not_read(spec):
    env = new_env("hase_und_igel", players=2, seed=1, max_turns=400)
    rng = np.random.default_rng(0)
    advance(env, rng, lambda e: e.game.known_from < 20 and len(set(e.game.unseen_cards())) > 2
            and len(e.legal_actions()) > 2)

    def permute(game):
        k = game["known_from"]
        game["deck"][:k] = [int(c) for c in np.random.default_rng(5).permutation(game["deck"][:k])]

    other = twin(env, permute)
    assert other.game.deck != env.game.deck  # the hidden part really differs
    assert other.game.deck[other.game.known_from:] == env.game.deck[env.game.known_from:]
    for seed in range(3):
        a, b = decide_on_both(env, other, "hase_und_igel", seed, spec)
        assert a == b


@BOTH
def test_volle_wolle_pile_and_unrevealed_bids_are_not_read(spec):
    env = new_env("volle_wolle", players=3, seed=2, max_turns=400)
    rng = np.random.default_rng(1)
    advance(env, rng, lambda e: e.game.pending == vw.BID and any(
        b >= 0 and p != e.game.current_agent for p, b in enumerate(e.game.bids)))

    def hide_differently(game):
        game["pile"] = list(reversed(game["pile"]))
        for p, b in enumerate(game["bids"]):
            if b >= 0 and p != game["cur"]:
                game["bids"][p] = (b + 3) % 9

    other = twin(env, hide_differently)
    assert other.game.pile != env.game.pile and other.game.bids != env.game.bids
    for seed in range(3):
        a, b = decide_on_both(env, other, "volle_wolle", seed, spec)
        assert a == b


@BOTH
def test_haste_bock_future_dice_are_not_read(spec):
    env = new_env("haste_bock", players=2, seed=4, max_turns=400)

    def reseed(game):
        game["rng"] = np.random.default_rng(99).bit_generator.state

    other = twin(env, reseed)
    for seed in range(3):
        a, b = decide_on_both(env, other, "haste_bock", seed, spec)
        assert a == b


def test_same_seed_same_choice_and_seeds_matter():
    env = new_env("haste_bock", players=2, seed=8)
    choices = {make_agent("mcts:30", "haste_bock", seed=s).act(env, env.agent_selection) for s in range(6)}
    again = {make_agent("mcts:30", "haste_bock", seed=s).act(env, env.agent_selection) for s in range(6)}
    assert choices == again
    assert env.legal_actions()  # the env itself was not advanced by the search
    assert env.game.turn == 0


def test_single_legal_action_needs_no_search():
    env = new_env("haste_bock", players=2, seed=0)
    agent = MCTSAgent(1, seed=0, game="haste_bock")
    agent._simulate = None  # would fail if called
    rng = np.random.default_rng(3)
    advance(env, rng, lambda e: len(e.legal_actions()) == 1, limit=5000)
    assert agent.act(env, env.agent_selection) == env.legal_actions()[0]


def test_search_beats_random_on_haste_bock():
    wins = 0.0
    for g in range(6):
        env = new_env("haste_bock", players=2, seed=100 + g, max_turns=400)
        seats = [make_agent("mcts:12", "haste_bock", seed=g), make_agent("random", "haste_bock", seed=g)]
        if g % 2:
            seats.reverse()
        from tests.agents.helpers import play

        play(env, seats)
        mine = env.possible_agents[g % 2]
        wins += (env._cumulative_rewards[mine] + 1) / 2
    assert wins >= 5


@pytest.mark.parametrize("spec, field, value", [
    ("mcts:12", "simulations", 12),
    ("mcts:12:c=0.5", "c", 0.5),
    ("mcts:7:depth=3", "depth", 3),
    ("mcts", "simulations", 200),
    ("mcts:9:leaf=strong", "leaf", "strong"),
    ("mcts:9:prior=strong:width=3", "width", 3),
    ("mcts:9:tree=1", "tree", 1),
    ("mcts:9:rollout=strong", "rollout", "strong"),
])
def test_spec_settings(spec, field, value):
    assert getattr(make_agent(spec, "volle_wolle", seed=0), field) == value


@pytest.mark.parametrize("spec", ["mcts:abc", "mcts:0", "mcts:5:speed=3", "mcts:5:rollout=nobody",
                                  "mcts:5:leaf=oracle", "mcts:5:prior=oracle", "mcts:5:width=x"])
def test_bad_specs_raise(spec):
    with pytest.raises(ValueError):
        make_agent(spec, "volle_wolle", seed=0)


@pytest.mark.parametrize("spec, message", [("mcts:10:width=3", "needs prior=strong"),
                                           ("mcts:10:prior=strong", "needs width=K"),
                                           ("mcts:10:prior=strong:width=0", "needs width=K")])
def test_a_prior_without_a_width_or_a_width_without_a_prior_is_refused(spec, message):
    """Either alone changes nothing (the prior only narrows the search to its width best actions):
    silently accepting it would let a user believe the search was guided."""
    with pytest.raises(ValueError, match=message):
        make_agent(spec, "volle_wolle", seed=0)


def test_width_one_follows_the_heuristic_ranking():
    """With the prior cut to one candidate the search plays the strong player's top-ranked action."""
    from meadowzoo.agents.guides import action_scores

    env = new_env("haste_bock", players=2, seed=6, max_turns=400)
    rng = np.random.default_rng(2)
    for _ in range(12):
        legal = env.legal_actions()
        scores = action_scores("strong", env.game, legal, rng)
        top = max(scores.values())
        best = [a for a in legal if scores[a] >= top - 1e-9]
        choice = make_agent("mcts:3:rollout=greedy:depth=2:prior=strong:width=1", "haste_bock", seed=0).act(
            env, env.agent_selection)
        assert choice in best if len(best) == 1 else choice in legal
        if len(best) == 1 and len(legal) > 1:
            assert choice == best[0]
        env.step(legal[int(rng.integers(len(legal)))])


def test_guided_search_keeps_the_env_and_reproduces():
    env = new_env("volle_wolle", players=2, seed=3, max_turns=400)
    snapshot = env.snapshot()
    first = [make_agent(GUIDED, "volle_wolle", seed=s).act(env, env.agent_selection) for s in range(3)]
    again = [make_agent(GUIDED, "volle_wolle", seed=s).act(env, env.agent_selection) for s in range(3)]
    assert first == again
    assert env.snapshot() == snapshot
