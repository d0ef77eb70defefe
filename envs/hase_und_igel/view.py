"""What one seat of a Hase und Igel game sees, as JSON data for the browser (and the drawing).

Observation principle (``docs/rules/hase_und_igel.md``): positions, carrots, lettuces, pending
eat / miss / payout states and the part of the hare deck whose order every player has seen are
public; the order of the unseen cards is hidden. The view therefore carries the *number* of unseen
cards on top of the deck and the known order below them, never ``deck[:known_from]`` and never the
generator. Nothing here is private to a seat, so every seat's view is the same.

``anchor(game, action)`` names the board square a legal action is played by clicking on.
"""

from __future__ import annotations

from meadowzoo.envs.hase_und_igel import data, render
from meadowzoo.envs.hase_und_igel.drawing import draw  # noqa: F401  (the game's drawing, see GamePlugin.view)
from meadowzoo.envs.hase_und_igel.rules import BACK_OFFSET, DECISIONS, PREV_HEDGEHOG, SLOT_ACTIONS, HaseUndIgelGame


def seat_view(game: HaseUndIgelGame, seat: int | None, reveal: bool = False) -> dict:
    """The public state (every seat sees the same; ``seat`` and ``reveal`` change nothing)."""
    runners = [
        {"player": r // game.rpp, "label": render.runner_label(game, r), "name": game.runner_name(r),
         "pos": game.pos[r], "place": game.place[r], "eat": game.eat[r], "miss": game.miss[r],
         "payout": game.payout[r]}
        for r in range(game.num_runners)
    ]
    players = [{"carrots": game.carrots[p], "lettuces": game.lettuces[p],
                "team": game.team_of[p] if game.team_layout else None} for p in range(game.num_agents)]
    return {
        "game": "hase_und_igel",
        "turns": game.turn,
        "over": game.over,
        "current": game.current_agent,
        "decision": DECISIONS[game.pending],
        "card_runner": game.card_runner,
        "runners": runners,
        "players": players,
        "deck": {
            "unseen": game.known_from,  # how many cards lie on top in an order nobody has seen
            "known": [data.CARD_KINDS[c] for c in game.deck[game.known_from:]],
            "last": data.CARD_KINDS[game.last_card] if game.last_card >= 0 else None,
        },
        "places": list(game.final_places) if game.over else None,
        "status": render.status_line(game),
    }


def anchor(game: HaseUndIgelGame, action: int) -> str | None:
    """``sq<k>`` of the square an action moves to (a move, hedgehog back) or acts on (stay, give
    up); ``None`` for the card choices (take / give / pass), which are buttons only."""
    if action >= game.card_base:
        return None
    if action >= SLOT_ACTIONS * game.rpp:  # two runners: give up
        return f"sq{game.pos[game.cur * game.rpp + action - SLOT_ACTIONS * game.rpp]}"
    slot, offset = divmod(action, SLOT_ACTIONS)
    position = game.pos[game.cur * game.rpp + slot]
    if offset < BACK_OFFSET:
        return f"sq{offset + 1}"
    if offset == BACK_OFFSET:
        return f"sq{PREV_HEDGEHOG[position]}"
    return f"sq{position}"  # stay and take or give 10


def events(game: HaseUndIgelGame) -> list[str]:
    """What happened automatically after the last decision (payouts, cards drawn, …): public."""
    return [render.describe(game, event) for event in game.log]
