"""The Hase und Igel observation, declared block by block (see :mod:`meadowzoo.envs.core.observation`).

Seen from the observing player's seat: its own runners and holdings first, then the other players
in turn order. Each block's reference encoding below is the specification written out in plain
Python; :class:`~meadowzoo.envs.hase_und_igel.env.HaseUndIgelEnv` builds the same floats from
byte tables.
"""

from __future__ import annotations

from typing import Any

from meadowzoo.envs.core.observation import Block, Layout
from meadowzoo.envs.hase_und_igel import data
from meadowzoo.envs.hase_und_igel.rules import OVER

NUM_KINDS = len(data.CARD_KINDS)
DECK_SLOTS = 12


def _order(game: Any, seat: int) -> list[int]:
    return [(seat + k) % game.num_agents for k in range(game.num_agents)]


def _runners(env: Any, seat: int) -> list[float]:
    game = env.game
    values: list[float] = []
    for p in _order(game, seat):
        for r in range(p * game.rpp, (p + 1) * game.rpp):
            square = [0.0] * (data.GOAL + 1)
            square[game.pos[r]] = 1.0
            values += square
            values += [game.eat[r], game.miss[r], game.payout[r]]
            values += [game.race_position(r) / game.num_runners, game.place[r] / game.num_runners]
    return values


def _players(env: Any, seat: int) -> list[float]:
    game = env.game
    values: list[float] = []
    for p in _order(game, seat):
        values += [game.carrots[p] / 100, game.lettuces[p] / game.start_lettuces,
                   game.team_of[p] == game.team_of[seat], p == game.current_agent]
    return values


def _deck(env: Any, seat: int) -> list[float]:
    game = env.game
    values: list[float] = []
    for slot in range(DECK_SLOTS):
        cells = [0.0] * (NUM_KINDS + 1)
        if slot < len(game.deck):
            cells[game.deck[slot] if slot >= game.known_from else NUM_KINDS] = 1.0
        values += cells
    return values


def _unseen(env: Any, seat: int) -> list[float]:
    counts = [0.0] * NUM_KINDS
    for card in env.game.deck[: env.game.known_from]:
        counts[card] += 0.5
    return counts


def _last_card(env: Any, seat: int) -> list[float]:
    last = [0.0] * NUM_KINDS
    if env.game.last_card >= 0:
        last[env.game.last_card] = 1.0
    return last


def _decision(env: Any, seat: int) -> list[float]:
    decision = [0.0] * 4
    if env.game.pending != OVER:
        decision[env.game.pending] = 1.0
    return decision


def _card_runner(env: Any, seat: int) -> list[float]:
    game = env.game
    slots = [0.0] * game.rpp
    if game.card_runner >= 0:
        slots[game.card_runner % game.rpp] = 1.0
    return slots


def _progress(env: Any, seat: int) -> list[float]:
    return [min(1.0, env.game.turn / env.max_turns)]


LAYOUT = Layout(
    variables={"n": "number of players", "R": "number of runners (n, or 4 with two runners)",
               "k": "runners per player"},
    bind=lambda game: {"n": game.num_agents, "R": game.num_runners, "k": game.rpp},
    blocks=(
        Block("runners", "70*R", "per runner, the observer's first, then by seat: position one-hot over "
              "0…64 (0 = Start, 64 = Goal) [65]; eats at its next turn; misses its next turn; number/flag "
              "check pending; race position / R; finishing place / R (0 while racing)", _runners),
        Block("players", "4*n", "per player, the observer first: carrots / 100; lettuces / starting "
              "lettuces; on the observer's team (the observer itself: 1); to move now", _players),
        Block("hare deck", "120", "the next 12 draws from the top, 10 each: one-hot card kind (9 kinds in "
              "`data.CARD_KINDS` order) if every player has seen that card go to the bottom, index 9 = "
              "unknown; all zero = no card (reshuffle variant)", _deck),
        Block("unseen cards", "9", "count of each kind among the cards whose order is unknown / 2", _unseen),
        Block("last card", "9", "one-hot kind of the most recently drawn card (zeros before the first draw)",
              _last_card),
        Block("decision", "4", "pending decision one-hot: move, card carrots (take/give/pass), extra move, "
              "stuck (two runners); zeros once over", _decision),
        Block("card runner", "k", "one-hot slot of the runner a card decision is about", _card_runner),
        Block("progress", "1", "turns begun / max_turns (at most 1)", _progress),
    ),
)
