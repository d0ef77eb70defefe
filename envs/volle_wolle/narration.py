"""What a person playing Volle Wolle at the terminal is told about a special decision (the
``narration`` module of the game's plug-in, used by :mod:`meadowzoo.training.narration`).

``explain(game, decision, legal)`` says what the pending decision is, citing the rule ids of
``docs/rules/volle_wolle.md`` (``None`` for an ordinary decision).
"""

from __future__ import annotations

from typing import Any


def explain(game: Any, decision: str, legal: list[int]) -> str | None:
    if decision == "bid":
        return ("BID (VW-7): choose your betting card in secret; all bids are revealed once everybody has bid. "
                "The highest bid acts first (VW-8) and must then roll at least its bid with the d12, d10 and d8 "
                "(three attempts, VW-9). 26+ needs and costs one wool. The last in order does not roll and takes "
                "the cards left over (VW-12).")
    if decision == "roll":
        return (f"ROLL, attempt {game.attempt} of 3 (VW-9/10): 'claim' takes the success now (won cards: 3, 2 "
                f"or 1 at attempt 1, 2, 3), paying with your top card's bonus and wool if needed; 'keep <die>' "
                f"sets that die aside and rerolls the others; 'decline' (attempt 3) accepts failure: no cards, "
                f"one wool (VW-11).")
    if decision == "black":
        return ("BLACK SHEEP (VW-11): you failed below 14 and the display holds black sheep. Spend wool to reach "
                "14 ('avoid black sheep') or take every black sheep of the display.")
    if decision == "pick":
        return (f"PICK (VW-10/14): take {game.picks} more card(s) of the display, one at a time; the last one you "
                f"take becomes the top of your herd, whose modifier and sheep number count from now on.")
    return None
