"""Per-game heuristic players: ``greedy`` (one-step, cheap score) and ``strong`` (plans a little).

:func:`heuristic` builds the player a game's plug-in declares (``GamePlugin.heuristics``);
``meadowzoo.agents.registry`` registers both names. Each game's module here
(``meadowzoo.agents.heuristics.<game>``) holds its two players, the search guidance built on them
(leaf measures and move priors, declared in the plug-in's ``search``) and a docstring saying what
its players value and which rulebook tip they follow.
"""

from __future__ import annotations

from meadowzoo.agents.base import Agent
from meadowzoo.envs import GAMES, plugin
from meadowzoo.envs.core.plugin import load

KINDS = ("greedy", "strong")


def heuristic(kind: str, game: str, seed: int | None = None) -> Agent:
    """The ``kind`` (``"greedy"`` or ``"strong"``) heuristic player of ``game``."""
    declared = plugin(game).heuristics if game in GAMES else None
    if declared is None:
        raise ValueError(f"no heuristic players for game {game!r}")
    if kind not in KINDS:
        raise ValueError(f"unknown heuristic {kind!r}; choose greedy or strong")
    return load(getattr(declared, kind))(seed)
