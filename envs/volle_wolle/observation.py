"""The Volle Wolle observation, declared block by block (see :mod:`meadowzoo.envs.core.observation`).

Egocentric: player block 0 is the observer, then the following seats in turn order. Raw counts,
points and pips (no scaling). Each block's reference encoding below is the specification written
out in plain Python; :class:`~meadowzoo.envs.volle_wolle.env.VolleWolleEnv` builds the same floats
from byte tables.
"""

from __future__ import annotations

from typing import Any

from meadowzoo.envs.core.observation import Block, Layout
from meadowzoo.envs.volle_wolle import data
from meadowzoo.envs.volle_wolle.rules import BID, BLACK_CHOICE, OVER, PICK, ROLL

KINDS = len(data.KIND_NAMES)


def _rolling(game: Any) -> bool:
    """Rolling, or the black-sheep choice after the third roll: the dice columns are shown."""
    return game.pending in (ROLL, BLACK_CHOICE)


def _decision(env: Any, seat: int) -> list[float]:
    values = [0.0] * 5
    values[env.game.pending] = 1.0
    return values


def _attempt(env: Any, seat: int) -> list[float]:
    values = [0.0] * 3
    if _rolling(env.game) and env.game.attempt:
        values[env.game.attempt - 1] = 1.0
    return values


def _dice(env: Any, seat: int) -> list[float]:
    return list(env.game.dice) if _rolling(env.game) else [0.0] * 3


def _kept(env: Any, seat: int) -> list[float]:
    kept = env.game.kept
    return [kept & 1, kept >> 1 & 1, kept >> 2 & 1] if _rolling(env.game) else [0.0] * 3


def _when_rolling(field: str):
    return lambda env, seat: [getattr(env.game, field) if _rolling(env.game) else 0.0]


def _when_picking(env: Any, seat: int) -> list[float]:
    game = env.game
    if game.pending != PICK:
        return [0.0, 0.0]
    # the cards this pick still takes: the turn's entitlement (3/2/1 won, 60 = "all of them" for
    # the last player, take-all and black-sheep picks), but never more than the eligible cards
    # on the display (VW-10: "fewer if fewer are left")
    eligible = game.black_slots if game.black_only else game.present
    return [min(game.picks, eligible.bit_count()), game.black_only]


def _display(env: Any, seat: int) -> list[float]:
    game = env.game
    deck = game.deck
    values: list[float] = []
    for card in game.display:
        slot = [0.0] * (1 + KINDS + 4)
        if card >= 0:
            slot[0] = 1.0
            slot[1 + deck.kind[card]] = 1.0
            slot[1 + KINDS:] = [deck.points[card], deck.modifier[card], deck.bone_symbol[card], deck.number[card]]
        values += slot
    return values


def _pile(env: Any, seat: int) -> list[float]:
    deck = env.game.deck
    counts = [0.0] * deck.num_types
    for card in env.game.pile:
        counts[deck.type_of[card]] += 1
    return counts


def _bid_columns(game: Any, seat: int, p: int) -> list[float]:
    """to move, has bid, bid known, bid target, bid is 26+, place in roll order."""
    if game.pending == BID:  # secret bids: who has bid, never what (but the observer's own bid)
        to_move = p == game.cur
        has_bid = p < game.cur
        if p == seat and game.bids[p] >= 0:
            bid = game.bids[p]
            return [0, 1, 1, data.BID_TARGETS[bid], bid == data.BID_26_PLUS, 0]
        return [to_move, has_bid, 0, 0, 0, 0]
    to_move = game.pending != OVER and p == game.cur
    if not game.revealed:
        return [to_move, 0, 0, 0, 0, 0]
    bid = game.bids[p]
    place = game.order.index(p) + 1 if game.order else 0
    return [to_move, 1, 1, data.BID_TARGETS[bid], bid == data.BID_26_PLUS, place]


def _players(env: Any, seat: int) -> list[float]:
    game = env.game
    deck = game.deck
    n = game.num_agents
    values: list[float] = []
    for p in [(seat + k) % n for k in range(n)]:
        values += _bid_columns(game, seat, p)
        herd = game.herd[p]
        if herd:
            top = herd[-1]
            values += [1, deck.points[top], deck.modifier[top], deck.bone_symbol[top], deck.number[top]]
        else:
            values += [0, 0, 0, 0, game.back[p]]
        kinds = [deck.kind[c] for c in herd]
        values += [game.back[p], kinds.count(data.WHITE), kinds.count(data.BLACK), kinds.count(data.K370),
                   kinds.count(data.K007), len(game.dogs[p]), game.bone == p, game.wool[p], game.scores()[p]]
    return values


LAYOUT = Layout(
    variables={"n": "number of players", "T": "number of distinct card types of the deck (19 for the default deck)"},
    bind=lambda game: {"n": game.num_agents, "T": game.deck.num_types},
    blocks=(
        Block("decision", "5", "pending decision one-hot: bid, roll, black, pick, over", _decision),
        Block("attempt", "3", "attempt one-hot (1, 2, 3) while rolling", _attempt),
        Block("dice", "3", "d12, d10, d8 pips of the current roll while rolling (0 = not rolled)", _dice),
        Block("kept", "3", "dice set aside while rolling (1 = kept)", _kept),
        Block("result", "1", "while rolling: dice sum + negative modifier (VW-9)", _when_rolling("base")),
        Block("bonus", "1", "while rolling: the roller's optional positive modifier", _when_rolling("bonus")),
        Block("target", "1", "while rolling: the roller's target (bid; 26+ → 26)", _when_rolling("target")),
        Block("picking", "2", "while picking: cards still to pick (at most the eligible cards on the display); 1 if only black sheep may be picked (VW-11)",
              _when_picking),
        Block("supply", "1", "wool in the supply", lambda env, seat: [env.game.supply]),
        Block("pile size", "1", "cards left in the draw pile", lambda env, seat: [len(env.game.pile)]),
        Block("round", "1", "round number (1-based)", lambda env, seat: [env.game.round]),
        Block("display", "11*n + 11", "display slots 1…n+1, 11 each: present, kind one-hot (white, black, "
              "3-7-0, 0-0-7, dog, bone), points, modifier (+N/−N, 0), bone symbol, sheep number", _display),
        Block("pile", "T", "draw pile contents by card type (counts; the order is never shown); "
              "`env.unwrapped.card_types()` names the types", _pile),
        Block("players", "20*n", "per player, the observer first, 20 each: to move, has bid, bid known, "
              "bid target (0 unknown), bid is 26+, place in roll order (1…n, 0 before the reveal), has a top "
              "card, top points, top modifier, top bone symbol, tie-break sheep number (VW-8), betting-card "
              "back, white / black / 3-7-0 / 0-0-7 counts, dogs, holds the bone, wool, points so far (VW-16 "
              "as if the game ended now)", _players),
    ),
)
