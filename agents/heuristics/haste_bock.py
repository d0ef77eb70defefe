"""Heuristic players of Haste Bock?: ``greedy`` and ``strong``.

A turn is card → move → (time tile). Both players plan the whole turn when the card is chosen:
every card they hold × every legal move of its type × every time tile, played on a light copy of
the board (no die is rolled: only future dice are hidden, and a plan never needs them). The time
marker then lands on ``time + card + tile`` (stopping at the pens 37 and 74, HB-18) and the
scoring it triggers is computed exactly (HB-19..21): the active player's pair (phase 1) or Thea
neighbours (phase 3), or everybody's rows when it passes a wall (24|25, 62|63) or reaches a pen.

**greedy** maximises the points this turn scores for itself minus the mean of what it scores for
the others; ties (most turns of phases 2 and 4 score nothing) are broken by its generator.

**strong** adds what the rules tips of the game say to watch:

* *where the marker lands and which scoring comes next* — the position after the move is valued
  for the next scoring it will face: its pair's adjacency while phase 1 lasts, its row points
  relative to the others before the phase-2 scorings (wall 24|25, pen 37) and phase-4 scorings
  (wall 62|63, pen 74; the row nearest Jacques scores 0), its sheep around Thea in phase 3;
* *spend time wisely* — with 2 players the tile is chosen so that the marker triggers a scoring
  when it favours the player and stops short of one that favours the opponent;
* *keep one card of each kind; spend leap and herd instinct only for big swings* — playing the
  last card of a type costs a little, the last leap / herd instinct / trough more, so those cards
  are played when they gain clearly more than an ordinary move;
* the panic ram (HB-8/HB-9) is chosen by the same position value instead of at random.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from meadowzoo.agents.base import Agent
from meadowzoo.envs.haste_bock import data as D
from meadowzoo.envs.haste_bock.geometry import ADJ
from meadowzoo.envs.haste_bock.rules import (
    CARD,
    DISCARD_BASE,
    HERD_T,
    LEAP_T,
    MOVE,
    PANIC,
    PANIC_BASE,
    RAM_T,
    TILE,
    TILE_BASE,
    TROUGH_T,
    TYPE_BASE,
    HasteBockGame,
)

#: price of playing the last card of a type (strong): the big-swing cards cost most
LAST_CARD_PRICE = {LEAP_T: 1.5, HERD_T: 1.5, TROUGH_T: 1.0, RAM_T: 0.8}
LAST_CARD_DEFAULT = 0.4


def light_copy(game: HasteBockGame) -> HasteBockGame:
    """A copy sharing everything but the board (enough to play one move; never rolls the die)."""
    twin = object.__new__(HasteBockGame)
    twin.__dict__.update(game.__dict__)
    twin.board = game.board[:]
    twin.pos = game.pos[:]
    twin._legal = None
    return twin


def rows_by_player(game: HasteBockGame, phase: int) -> list[int]:
    points = game.row_points(phase)
    out = [0] * game.num_agents
    for s, owner in enumerate(game.owner):
        if owner >= 0:
            out[owner] += points[s]
    return out


def pair(game: HasteBockGame, p: int) -> int:
    return ADJ[game.pos[2 * p] * 81 + game.pos[2 * p + 1]]


def thea(game: HasteBockGame, p: int) -> int:
    t = game.pos[D.THEA] * 81
    return ADJ[t + game.pos[2 * p]] + ADJ[t + game.pos[2 * p + 1]]


def turn_points(game: HasteBockGame, p: int, dt: int) -> tuple[list[int], int]:
    """Points every player scores when ``p`` ends its turn with ``dt`` time (HB-18..21), and the
    new marker position; ``game`` holds the board after the move."""
    old = game.time
    new = min(old + dt, D.PEN_1 if old < D.PEN_1 else D.PEN_2)
    gained = [0] * game.num_agents
    if new <= 12:
        gained[p] += pair(game, p)
    elif new <= D.PEN_1:
        if old <= D.WALL_1 < new:
            gained = [a + b for a, b in zip(gained, rows_by_player(game, 2))]
        if new == D.PEN_1:
            gained = [a + b for a, b in zip(gained, rows_by_player(game, 2))]
    elif new < 50:
        gained[p] += thea(game, p)
    else:
        if old <= D.WALL_2 < new:
            gained = [a + b for a, b in zip(gained, rows_by_player(game, 4))]
        if new == D.PEN_2:
            gained = [a + b for a, b in zip(gained, rows_by_player(game, 4))]
    return gained, new


def relative(values: list[float], p: int) -> float:
    others = [v for q, v in enumerate(values) if q != p]
    return values[p] - sum(others) / len(others)


def tile_options(game: HasteBockGame, p: int) -> list[int]:
    """Time tiles ``p`` may add after its card (0 = none); [0] with 4 players."""
    tiles = game.tiles[p]
    if not sum(tiles):
        return [0]
    out = [] if game.tile_mandatory else [0]
    return out + [v for v in (1, 2, 3) if tiles[v - 1]]


class _HasteBockAgent(Agent):
    """Plans the whole turn at the card decision; re-plans at the move and tile decisions."""

    def position_value(self, game: HasteBockGame, p: int, time: int) -> float:
        return 0.0

    def card_price(self, game: HasteBockGame, p: int, kind: int) -> float:
        return 0.0

    def _finish_value(self, g: HasteBockGame, p: int, value: int, tiles: list[int]) -> tuple[float, int]:
        best, best_tile = -1e9, tiles[0]
        for tile in tiles:
            gained, new = turn_points(g, p, value + tile)
            v = relative(gained, p) + self.position_value(g, p, new)
            if v > best:
                best, best_tile = v, tile
        return best, best_tile

    def _plans(self, game: HasteBockGame, kinds: list[int], discard: bool) -> list[tuple[float, int, int]]:
        """(value, card action, move action) of every card × move (best tile)."""
        p = game.player
        tiles = tile_options(game, p)
        occupancy = game._occupancy()
        out = []
        by_type: dict[int, list[tuple[float, int]]] = {}
        for kind in kinds:
            t, value = kind // 3, kind % 3 + 1
            price = self.card_price(game, p, kind)
            if discard:
                v, _ = self._finish_value(game, p, value, tiles)
                out.append((v - price, DISCARD_BASE + kind, -1))
                continue
            if t not in by_type:
                by_type[t] = [(m, self._moved(game, t, m)) for m in game._type_moves(t, occupancy)]
            for m, g in by_type[t]:
                v, _ = self._finish_value(g, p, value, tiles)
                out.append((v - price, kind, TYPE_BASE[t] + m))
        return out

    @staticmethod
    def _moved(game: HasteBockGame, t: int, m: int) -> HasteBockGame:
        g = light_copy(game)
        g._play(t, m)
        return g

    def _best(self, scored: list[tuple[float, int]]) -> int:
        top = max(v for v, _ in scored)
        return self.choose(sorted({a for v, a in scored if v >= top - 1e-9}))

    def action_values(self, game: HasteBockGame, legal: list[int]) -> list[tuple[float, int]] | None:
        """(value, action) of every legal action at the pending decision (a card: its best plan),
        or None for a decision the player does not value. Search players use it as a move prior."""
        p = game.player
        if game.pending == CARD:
            discard = legal[0] >= DISCARD_BASE
            kinds = [a - DISCARD_BASE if discard else a for a in legal]
            best: dict[int, float] = {}
            for v, card, _ in self._plans(game, kinds, discard):
                best[card] = max(v, best.get(card, -1e18))
            return [(v, card) for card, v in best.items()]
        if game.pending == MOVE:
            t = game.card_kind // 3
            tiles = tile_options(game, p)
            scored = []
            for a in legal:
                g = self._moved(game, t, a - TYPE_BASE[t])
                scored.append((self._finish_value(g, p, game.card_value, tiles)[0], a))
            return scored
        if game.pending == TILE:
            scored = []
            for a in legal:
                gained, new = turn_points(game, p, game.card_value + a - TILE_BASE)
                scored.append((relative(gained, p) + self.position_value(game, p, new), a))
            return scored
        if game.pending == PANIC:
            scored = []
            for a in legal:
                g = light_copy(game)
                m = a - PANIC_BASE
                g._ram(m >> 6, (m >> 3) & 7, (m & 7) + 1)
                scored.append((self.position_value(g, p, g.time), a))
            return scored
        return None

    def act(self, env: Any, agent: str) -> int:
        game: HasteBockGame = env.game
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        scored = self.action_values(game, legal)
        return self.choose(legal) if scored is None else self._best(scored)


class GreedyHasteBock(_HasteBockAgent):
    """Points scored this turn (own minus the others' mean); see the module doc."""

    name = "greedy"


class StrongHasteBock(_HasteBockAgent):
    """Turn points plus the value of the position for the next scoring and card keeping."""

    name = "strong"

    def position_value(self, game: HasteBockGame, p: int, time: int) -> float:
        if time >= D.PEN_2:
            return 0.0
        n = game.num_agents
        if time <= 12:
            value = 0.8 * pair(game, p) - 0.4 * sum(pair(game, q) for q in range(n) if q != p) / (n - 1)
            return value + 0.3 * relative(rows_by_player(game, 2), p)
        if time < D.PEN_1:
            return 0.8 * relative(rows_by_player(game, 2), p)
        if time < 50:
            value = 0.8 * thea(game, p) - 0.4 * sum(thea(game, q) for q in range(n) if q != p) / (n - 1)
            return value + 0.3 * relative(rows_by_player(game, 4), p)
        return 0.8 * relative(rows_by_player(game, 4), p)

    def card_price(self, game: HasteBockGame, p: int, kind: int) -> float:
        hand = game.hands[p]
        t = kind // 3
        left = hand[3 * t] + hand[3 * t + 1] + hand[3 * t + 2]
        if left > 1 or game.time >= 60:
            return 0.0
        return LAST_CARD_PRICE.get(t, LAST_CARD_DEFAULT)


GREEDY, STRONG = GreedyHasteBock, StrongHasteBock


# ---- search guidance (declared in this game's plug-in, see meadowzoo.agents.guides) --------------
@lru_cache(maxsize=1)
def _guide() -> StrongHasteBock:
    """The strong player the search guidance reads (one per process; never draws from its generator)."""
    return StrongHasteBock(seed=0)


def strong_measure(game: HasteBockGame) -> list[float]:
    """``leaf=strong``: points so far plus the strong player's value of the position for the next
    scoring."""
    value = _guide().position_value
    return [game.scores[p] + value(game, p, game.time) for p in range(game.num_agents)]


def strong_prior(game: HasteBockGame, legal: list[int], rng: np.random.Generator) -> dict[int, float] | None:
    """``prior=strong``: the strong player's whole-turn plan values of the legal actions."""
    scored = _guide().action_values(game, legal)
    return None if scored is None else {a: v for v, a in scored}
