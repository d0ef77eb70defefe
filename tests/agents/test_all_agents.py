"""Every registered agent on every game: legal actions only, and the same seed gives the same game."""

import importlib.util

import pytest

from agents import agent_names, make_agent
from tests.agents.helpers import GAMES, new_env, play

#: small budgets so the whole matrix stays quick; ``human`` has its own tests
SPECS = [name if name != "mcts" else "mcts:4:depth=8" for name in agent_names() if name != "human"]


def skip_missing(spec: str, game: str) -> None:
    """Heuristic players land game by game (branch ``heuristics``); skip the ones not there yet."""
    if spec in ("greedy", "strong") and importlib.util.find_spec(f"agents.heuristics.{game}") is None:
        pytest.skip(f"no heuristic players for {game} yet")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("spec", SPECS)
def test_legal_and_reproducible(game, spec):
    skip_missing(spec, game)
    runs = []
    for _ in range(2):
        env = new_env(game, players=2, seed=3)
        players = [make_agent(spec, game, seed=11), make_agent("random", game, seed=12)]
        for p in players:
            p.reset()
        runs.append(play(env, players))
    assert runs[0] == runs[1]
    assert len(runs[0]) > 5


@pytest.mark.parametrize("game", GAMES)
def test_four_players_legal(game):
    env = new_env(game, players=4, seed=5, max_turns=12)
    specs = [s for s in SPECS if importlib.util.find_spec(f"agents.heuristics.{game}") or s not in ("greedy", "strong")][:4]
    specs += ["random"] * (4 - len(specs))
    play(env, [make_agent(s, game, seed=i) for i, s in enumerate(specs)])


def test_unknown_agent_named():
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("nobody", "haste_bock")
