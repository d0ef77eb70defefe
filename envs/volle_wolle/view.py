"""What one seat of a Volle Wolle game sees, as JSON data for the browser (and the drawing).

Observation principle (``docs/rules/volle_wolle.md``): bids are hidden until revealed and the
draw-pile order is hidden; everything else (the display, the dice, every card each player took,
wool, the bone) is public. So a seat's view carries its *own* bid and, for the other players, only
whether they have bid until all bids are revealed; of the pile only its size; never the generator
(future dice). ``reveal=True`` (replays of finished games) shows every bid as soon as it is made.

``secret(game, action)`` / ``revealed(game, key)`` tell the move history which moves to hide from
the other seats and until when: a bid is secret until the bids of its round are revealed.

``anchor(game, action)`` names what a legal action is played by clicking on: one of the seat's own
betting cards (``bid-<b>``), a die to set aside (``die-<d>``), a display slot (``slot-<s>``).
"""

from __future__ import annotations

from meadowzoo.envs.volle_wolle import data, rules
from meadowzoo.envs.volle_wolle.drawing import draw  # noqa: F401  (the game's drawing, see GamePlugin.view)
from meadowzoo.envs.volle_wolle.rules import KEEP, NUM_BIDS, PICK_SLOT, VolleWolleGame


def card(deck: data.Deck, c: int) -> dict | None:
    """A card's printed face (``None`` for an empty slot)."""
    if c < 0:
        return None
    return {"kind": data.KIND_NAMES[deck.kind[c]], "points": deck.points[c], "modifier": deck.modifier[c],
            "bone_symbol": bool(deck.bone_symbol[c]), "number": deck.number[c], "label": data.card_label(deck, c)}


def seat_view(game: VolleWolleGame, seat: int | None, reveal: bool = False) -> dict:
    """The public state plus ``seat``'s own bid (every bid with ``reveal``)."""
    deck, n = game.deck, game.num_agents
    rolling = game.pending in (rules.ROLL, rules.BLACK_CHOICE)
    bidding = game.pending == rules.BID
    scores = game.scores()
    players = []
    for p in range(n):
        has_bid = game.bids[p] >= 0 if bidding else game.revealed
        shown = has_bid and (game.revealed or reveal or p == seat)
        c = game.counts[p]
        players.append({
            "back": game.back[p], "has_bid": has_bid,
            "bid": data.BID_NAMES[game.bids[p]] if shown else None,
            "order": game.order.index(p) + 1 if game.revealed and p in game.order else None,
            "herd": [card(deck, x) for x in game.herd[p]],
            "counts": {"white": c[0], "black": c[1], "3-7-0": c[2], "0-0-7": c[3]},
            "dogs": len(game.dogs[p]), "bone": game.bone == p, "wool": game.wool[p], "points": scores[p],
        })
    return {
        "game": "volle_wolle",
        "viewer": seat,
        "num_players": n,
        "round": game.round,
        "over": game.is_over,
        "current": game.current_agent,
        "decision": rules.DECISIONS[game.pending],
        "pile": len(game.pile),
        "supply": game.supply,
        "display": [card(deck, c) for c in game.display],
        "dice": {"values": list(game.dice), "kept": [bool(game.kept >> d & 1) for d in range(3)],
                 "attempt": game.attempt, "result": game.base, "bonus": game.bonus,
                 "target": game.target} if rolling else None,
        "picks": game.picks if game.pending == rules.PICK else 0,
        "black_only": bool(game.black_only) if game.pending == rules.PICK else False,
        "players": players,
        "places": game.places() if game.is_over else None,
    }


def anchor(game: VolleWolleGame, action: int) -> str | None:
    if action < NUM_BIDS:
        return f"bid-{action}"
    if KEEP <= action < KEEP + 3:
        return f"die-{action - KEEP}"
    if action >= PICK_SLOT:
        return f"slot-{action - PICK_SLOT}"
    return None  # claim, decline, avoid / take black sheep: buttons


def secret(game: VolleWolleGame, action: int):
    """The round a bid belongs to (hidden from the others until that round's bids are revealed)."""
    return game.round if action < NUM_BIDS else None


def revealed(game: VolleWolleGame, key) -> bool:
    return game.round > key or game.revealed or game.is_over
