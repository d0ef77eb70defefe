"""Per-game heuristic players: ``greedy`` (one-step, cheap score) and ``strong`` (plans a little).

:func:`heuristic` builds the player of a game by name; ``meadowzoo.agents.registry`` registers both names.
Each game's module docstring says what its players value and which rulebook tip they follow.
"""

from __future__ import annotations

from meadowzoo.agents.base import Agent


def heuristic(kind: str, game: str, seed: int | None = None) -> Agent:
    """The ``kind`` (``"greedy"`` or ``"strong"``) heuristic player of ``game``."""
    if game == "hase_und_igel":
        from meadowzoo.agents.heuristics import hase_und_igel as module
    elif game == "haste_bock":
        from meadowzoo.agents.heuristics import haste_bock as module
    elif game == "volle_wolle":
        from meadowzoo.agents.heuristics import volle_wolle as module
    else:
        raise ValueError(f"no heuristic players for game {game!r}")
    players = {"greedy": module.GREEDY, "strong": module.STRONG}
    if kind not in players:
        raise ValueError(f"unknown heuristic {kind!r}; choose greedy or strong")
    return players[kind](seed)
