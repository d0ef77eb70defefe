"""Agent names for command lines and tournaments: ``make_agent("random", game, seed)``.

A name may carry one parameter after a colon (for example ``mcts:200``). The names here work for
every game; a game's plug-in may add players of its own (``GamePlugin.agents``, e.g. Haste Bock?'s
``lookahead``), built by their ``parse_spec(parameter, game, seed)``."""

from __future__ import annotations

from collections.abc import Callable

from meadowzoo.agents.base import Agent
from meadowzoo.agents.heuristics import heuristic
from meadowzoo.agents.random_agent import RandomAgent
from meadowzoo.agents.shipped import resolve_agent_file
from meadowzoo.envs import GAMES, plugin
from meadowzoo.envs.core.plugin import load


def _policy(game: str, parameter: str | None, seed: int | None) -> Agent:
    from meadowzoo.agents.policy import PolicyAgent

    if not parameter:
        raise ValueError("policy needs a file: policy:path/to/agent.pt")
    return PolicyAgent.from_file(resolve_agent_file(parameter), game=game, seed=seed)


def _sampled(game: str, parameter: str | None, seed: int | None) -> Agent:
    """A policy file played as trained: each action drawn from the policy's masked probabilities
    (seeded), not the most probable one. Self-play policies may rely on mixing their moves."""
    from meadowzoo.agents.policy import PolicyAgent

    if not parameter:
        raise ValueError("sampled needs a file: sampled:path/to/policy.npz")
    agent = PolicyAgent.from_file(resolve_agent_file(parameter), game=game, seed=seed, deterministic=False)
    agent.name = f"sampled:{agent.name.partition(':')[2]}"
    return agent


def _mcts(game: str, parameter: str | None, seed: int | None) -> Agent:
    from meadowzoo.agents.mcts import parse_spec

    return parse_spec(parameter, game, seed)


def _mctx(game: str, parameter: str | None, seed: int | None) -> Agent:
    try:
        from meadowzoo.agents.gumbel_search import parse_spec
    except ImportError as error:  # jax, pgx or mctx missing
        raise ValueError(f"mctx needs the jax extra (pip install 'meadowzoo[jax]'): {error}") from None
    return parse_spec(parameter, game, seed)


def _human(game: str, seed: int | None) -> Agent:
    from meadowzoo.agents.human import HumanAgent

    return HumanAgent(seed)


def _without_parameter(name: str, build: Callable[[str, int | None], Agent]):
    """The factory of a player that takes no parameter: ``name:anything`` is a mistake, not ``name``."""
    def factory(game: str, parameter: str | None, seed: int | None) -> Agent:
        if parameter is not None:
            raise ValueError(f"{name} takes no parameter, got {name}:{parameter}")
        return build(game, seed)
    return factory


#: name -> factory(game, parameter, seed)
AGENTS: dict[str, Callable[[str, str | None, int | None], Agent]] = {
    "random": _without_parameter("random", lambda game, seed: RandomAgent(seed)),
    "policy": _policy,
    "sampled": _sampled,
    "greedy": _without_parameter("greedy", lambda game, seed: heuristic("greedy", game, seed)),
    "strong": _without_parameter("strong", lambda game, seed: heuristic("strong", game, seed)),
    "mcts": _mcts,
    "mctx": _mctx,
    "human": _without_parameter("human", _human),
}


#: the factories of the players that take no parameter
_NO_PARAMETER = tuple(AGENTS[name] for name in ("random", "greedy", "strong", "human"))


def agent_names(game: str | None = None) -> list[str]:
    """The agent names of ``game`` (every game's names when None)."""
    games = GAMES if game is None else [game] if game in GAMES else []
    return sorted({*AGENTS, *(name for g in games for name in plugin(g).agents)})


def make_agent(spec: str, game: str, seed: int | None = None) -> Agent:
    """Build an agent from ``name`` or ``name:parameter``; clear errors for unknown names."""
    if not isinstance(spec, str):
        raise ValueError(f"an agent spec is a string such as 'strong' or 'mcts:200', got {spec!r}")
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; the games are {sorted(GAMES)}")
    name, colon, parameter = spec.partition(":")
    if name in AGENTS:
        if colon and not parameter and AGENTS[name] in _NO_PARAMETER:  # "random:": a parameter left out
            raise ValueError(f"{name} takes no parameter, got {spec!r}")
        return AGENTS[name](game, parameter or None, seed)
    own = plugin(game).agents if game in GAMES else {}
    if name in own:
        return load(own[name])(parameter or None, game, seed)
    raise ValueError(f"unknown agent {spec!r} for {game!r}; choose from {agent_names(game)}"
                     + (f" ({name!r} is for {', '.join(_owners(name))} only)" if _owners(name) else ""))


def _owners(name: str) -> list[str]:
    """The games whose plug-ins declare the agent ``name``."""
    return [g for g in GAMES if name in plugin(g).agents]
