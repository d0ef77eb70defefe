"""Set up Hase und Igel positions for rule tests."""

from __future__ import annotations

import numpy as np

from meadowzoo.envs.hase_und_igel import data
from meadowzoo.envs.hase_und_igel.rules import SLOT_ACTIONS, HaseUndIgelGame


def position(
    num_players: int = 4,
    *,
    pos: dict[int, int] | None = None,
    carrots: dict[int, int] | None = None,
    lettuces: dict[int, int] | None = None,
    place: dict[int, int] | None = None,
    eat: set[int] = frozenset(),
    miss: set[int] = frozenset(),
    payout: set[int] = frozenset(),
    deck: list[str] | None = None,
    turn_of: int = 0,
    **options,
) -> HaseUndIgelGame:
    """A game where runners stand as given (runner -> square) and ``turn_of`` begins its turn.

    ``deck`` lists card kinds from the top; the turn start runs the automatic parts (payouts,
    eating, missing) exactly as in play.
    """
    game = HaseUndIgelGame(num_players, start_player=0, rng=np.random.default_rng(0), **options)
    for runner, square in (pos or {}).items():
        game.pos[runner] = square
    for player, amount in (carrots or {}).items():
        game.carrots[player] = amount
    for player, amount in (lettuces or {}).items():
        game.lettuces[player] = amount
    for runner, order in (place or {}).items():
        game.place[runner] = order
        game.pos[runner] = data.GOAL
    game.finished = sum(1 for x in game.place if x)
    for runner in range(game.num_runners):
        game.eat[runner] = runner in eat
        game.miss[runner] = runner in miss
        game.payout[runner] = runner in payout
    game.occupant = [-1] * data.NUM_POSITIONS
    for runner, square in enumerate(game.pos):
        if 0 < square < data.GOAL:
            assert game.occupant[square] < 0, f"two runners on {square}"
            game.occupant[square] = runner
    if deck is not None:
        game.deck = [data.CARD_KINDS.index(kind) for kind in deck]
        rest = list(data.DECK)
        for card in game.deck:
            rest.remove(card)
        game.deck += rest
    game.log = []
    game.turns = 0
    game.cur = turn_of
    game._legal = None
    game._begin_turn()
    return game


def move(game: HaseUndIgelGame, square: int, slot: int = 0) -> int:
    """Action index: forward move to ``square`` (64 = Goal) of runner slot ``slot``."""
    return slot * SLOT_ACTIONS + square - 1


def targets(game: HaseUndIgelGame, slot: int = 0) -> list[int]:
    """Squares the current player's runner ``slot`` may move forward to."""
    base = slot * SLOT_ACTIONS
    return [a - base + 1 for a in game.legal_actions() if base <= a < base + 64]


def named(game: HaseUndIgelGame) -> list[str]:
    return [game.action_to_string(a) for a in game.legal_actions()]


def do(game: HaseUndIgelGame, text: str) -> None:
    game.apply(game.string_to_action(text))
