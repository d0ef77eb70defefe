"""Agent names for command lines and tournaments: ``make_agent("random", game, seed)``.

A name may carry one parameter after a colon (for example ``mcts:200``)."""

from __future__ import annotations

from collections.abc import Callable

from meadowzoo.agents.base import Agent
from meadowzoo.agents.heuristics import heuristic
from meadowzoo.agents.random_agent import RandomAgent
from meadowzoo.agents.shipped import resolve_agent_file


def _policy(game: str, parameter: str | None, seed: int | None) -> Agent:
    from meadowzoo.agents.policy import PolicyAgent

    if not parameter:
        raise ValueError("policy needs a file: policy:path/to/agent.pt")
    return PolicyAgent.from_file(resolve_agent_file(parameter), game=game, seed=seed)


def _mcts(game: str, parameter: str | None, seed: int | None) -> Agent:
    from meadowzoo.agents.mcts import parse_spec

    return parse_spec(parameter, game, seed)


def _lookahead(game: str, parameter: str | None, seed: int | None) -> Agent:
    from meadowzoo.agents.lookahead import parse_spec

    return parse_spec(parameter, game, seed)


def _human(game: str, parameter: str | None, seed: int | None) -> Agent:
    from meadowzoo.agents.human import HumanAgent

    return HumanAgent(seed)


#: name -> factory(game, parameter, seed)
AGENTS: dict[str, Callable[[str, str | None, int | None], Agent]] = {
    "random": lambda game, parameter, seed: RandomAgent(seed),
    "policy": _policy,
    "greedy": lambda game, parameter, seed: heuristic("greedy", game, seed),
    "strong": lambda game, parameter, seed: heuristic("strong", game, seed),
    "mcts": _mcts,
    "lookahead": _lookahead,
    "human": _human,
}


def agent_names() -> list[str]:
    return sorted(AGENTS)


def make_agent(spec: str, game: str, seed: int | None = None) -> Agent:
    """Build an agent from ``name`` or ``name:parameter``; clear errors for unknown names."""
    name, _, parameter = spec.partition(":")
    if name not in AGENTS:
        raise ValueError(f"unknown agent {spec!r}; choose from {agent_names()}")
    return AGENTS[name](game, parameter or None, seed)
