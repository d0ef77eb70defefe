"""What a person playing Hase und Igel at the terminal is told about a special decision (the
``narration`` module of the game's plug-in, used by :mod:`meadowzoo.training.narration`).

``explain(game, decision, legal)`` says what the pending decision is, citing the rule ids of
``docs/rules/hase_und_igel.md`` (``None`` for an ordinary decision).
"""

from __future__ import annotations

from typing import Any

from meadowzoo.envs.hase_und_igel import data


def explain(game: Any, decision: str, legal: list[int]) -> str | None:
    card = data.CARD_KINDS[game.last_card].replace("_", " ") if game.last_card >= 0 else "?"
    if decision == "card_carrots":
        return (f"HARE CARD '{card}': you may take 10 carrots, give 10 (only with at least 10) or pass "
                f"(HUI-22, HUI-25).")
    if decision == "extra_move":
        return (f"HARE CARD '{card}' (HUI-23): one more normal move of the same runner (forward, or back to the "
                f"nearest hedgehog), or pass.")
    if decision == "stuck":
        return ("STUCK (two-runner variant, HUI-30): neither of your runners can act; choose which one returns "
                "to Start.")
    return None
