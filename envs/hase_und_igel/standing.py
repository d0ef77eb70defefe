"""The standing of a Hase und Igel race cut short (``max_turns``), for tournaments that score a
truncated game by its standing at the cut (``meadowzoo.training.evaluate --truncated standing``).

A race has no points: until it ends, :meth:`~meadowzoo.envs.hase_und_igel.rules.HaseUndIgel.places`
is undefined. The standing ranks every player by its race positions (HUI-15; with two runners the
sum of both), ties sharing a place.
"""

from __future__ import annotations

from typing import Any


def race_places(game: Any) -> list[int]:
    """Places (0 = best, ties share) of every player by its runners' race positions (HUI-15)."""
    keys = [sum(game.race_position(r) for r in range(p * game.rpp, (p + 1) * game.rpp))
            for p in range(game.num_agents)]
    return [sum(1 for k in keys if k < mine) for mine in keys]
