"""What a person playing Haste Bock? at the terminal is told about a special decision (the
``narration`` module of the game's plug-in, used by :mod:`meadowzoo.training.narration`).

``explain(game, decision, legal)`` says what the pending decision is, citing the rule ids of
``docs/rules/haste_bock.md`` (``None`` for an ordinary decision);
``context(game)`` what the pending decision is about where the action's name does not say it
(the rolled die of a panic ram).
"""

from __future__ import annotations

from typing import Any

from meadowzoo.envs.haste_bock import data
from meadowzoo.envs.haste_bock.rules import DISCARD_BASE, MOVE_BASE


def explain(game: Any, decision: str, legal: list[int]) -> str | None:
    if decision == "panic":
        face = data.DIE_FACES[game.die]
        sheep = {"black": "Thea (the black sheep)", "white": "any sheep, Thea included"}.get(face, f"a {face} sheep")
        opening = game.time == 0
        why = ("the opening panic: before the first turn every player rolls and rams (HB-8)" if opening else
               "the time marker stopped on a panic space (* on the track), so the die was rolled (HB-9)")
        return (f"PANIC RAM: {why}. The die shows {face}: you must ram with {sheep}, whoever owns it. "
                f"The menu lists every possible ram: 'panic ram <sheep> <direction> target <k>' means that "
                f"sheep runs along the direction and the k-th sheep on its line moves one square on; the sheep "
                f"in between and the rammer close up behind it (HB-13). It scores nothing and moves no time.")
    if decision == "card" and legal and DISCARD_BASE <= legal[0] < MOVE_BASE:
        return ("No action card of yours has a possible move: discard one without effect; its time still "
                "counts (HB-11).")
    if decision == "tile":
        return ("Time tile: add one of your tiles to the card's time (2 players: you must, HB-23; 3 players: "
                "you may, and each unused tile costs 2 points at the end, HB-22).")
    return None


def context(game: Any) -> str:
    """What the pending decision is about, where the action's name does not say it."""
    if type(game).DECISIONS[game.pending] == "panic":
        from meadowzoo.envs.haste_bock import data

        return f"die: {data.DIE_FACES[game.die]}"
    return ""
