"""The Haste Bock? forward model (rules HB-1 … HB-24 of ``docs/rules/haste_bock.md``).

State is plain lists of ints: ``board[81]`` (sheep id or -1), ``pos[9]`` (square of each sheep;
sheep ``2c``/``2c+1`` have colour ``c`` = blue, yellow, green, red; sheep 8 is Thea), the common
``facing`` (0..3 = N E S W; Roger in phase 2 and Jacques in phase 4 always stand beyond that edge),
the ``time`` marker, ``points`` (the scores so far), every player's ``hands`` (count per card kind, kind = type * 3 +
value - 1) and time ``tiles`` (count of 1s, 2s, 3s).

Decisions (``pending``, named by :data:`DECISIONS`; the game always rests at one of them):

* ``CARD`` – the player picks one of its action cards (only cards with at least one legal move
  are offered); when no card has a legal move (HB-11, DECISION) the legal actions are
  "discard <card>" instead.
* ``MOVE`` – the same player picks the concrete move of the chosen card.
* ``TILE`` – 2/3 players: the same player then picks a time tile (3 players: or none).
* ``PANIC`` – the rolling player picks the ram of the rolled colour (opening HB-8, panic spaces
  HB-9). The die is drawn from ``self.rng`` when the panic is triggered; a roll without any
  possible ram is void and resolved automatically.

Action index layout (``NUM_ACTIONS`` = 996), see :func:`action_layout` and the env docstring:
cards 0..20 (kind = type * 3 + value - 1), discards 21..41, moves 42..415 (per type), panic rams
416..991, time tiles 992..995.
"""

from __future__ import annotations

import copy
from bisect import bisect_left
from typing import Any

import numpy as np

from meadowzoo.envs.core.game import Game, IllegalActionError
from meadowzoo.envs.core.options import check_choice, check_int
from meadowzoo.envs.core.snapshot import (
    require, require_choice, require_int, require_int_list, rng_from_dict, rng_to_dict,
)
from meadowzoo.envs.haste_bock import data as D
from meadowzoo.envs.haste_bock.geometry import (
    ADJ, LINE_DIRS, LINE_NAMES, LINES, NUM_DIAGONALS, NUM_LINES, RAY_MASKS, RAYS, SIDE_DIST, SIDE_GROUP,
    SIDE_SQUARE, SQ_LINE_IDS, STEP,
)

# ---- action layout -----------------------------------------------------------------------------
STEP_T, RAM_T, LEAP_T, DIAG_T, LINE_T, TROUGH_T, HERD_T = range(7)
#: number of concrete moves of each card type
MOVES_PER_TYPE = (2 * 8, 2 * 8 * 8, 2 * 8 * 8, 2 * NUM_DIAGONALS, 2 * (NUM_LINES - NUM_DIAGONALS), 4, 2)
NUM_KINDS = 7 * 3
CARD_BASE = 0
DISCARD_BASE = CARD_BASE + NUM_KINDS  # 21
MOVE_BASE = DISCARD_BASE + NUM_KINDS  # 42
#: TYPE_BASE[t]: first action index of the moves of card type t
TYPE_BASE: tuple[int, ...] = tuple(MOVE_BASE + sum(MOVES_PER_TYPE[:t]) for t in range(7))
PANIC_BASE = MOVE_BASE + sum(MOVES_PER_TYPE)  # 416
TILE_BASE = PANIC_BASE + D.NUM_SHEEP * 64  # 992: no tile, 1, 2, 3
NUM_ACTIONS = TILE_BASE + 4  # 996
#: ACTION_TYPE[a - MOVE_BASE] / ACTION_MOVE[a - MOVE_BASE] for move actions
ACTION_TYPE: tuple[int, ...] = tuple(t for t in range(7) for _ in range(MOVES_PER_TYPE[t]))
ACTION_MOVE: tuple[int, ...] = tuple(m for t in range(7) for m in range(MOVES_PER_TYPE[t]))

CARD, MOVE, TILE, PANIC, OVER = range(5)
#: names of the ``pending`` decision kinds
DECISIONS = ("card", "move", "tile", "panic", "over")
#: sheep a panic ram may use per die face (HB-6): colours, black = Thea, white = any
DIE_RAMMERS = ((0, 1), (2, 3), (4, 5), (6, 7), (8,), tuple(range(9)))
#: STEP_MOVES[sq]: (direction, neighbour) pairs of a square inside the fence
STEP_MOVES = tuple(tuple((d, n) for d, n in enumerate(STEP[sq]) if n >= 0) for sq in range(D.SQUARES))
#: CARAVAN_CHECKS[row/column?]: (move index, line mask, end-square bit) per line and direction
CARAVAN_CHECKS = tuple(
    tuple(
        (2 * (i - first) + neg, sum(1 << q for q in LINES[i]), 1 << LINES[i][0 if neg else -1])
        for i in range(first, last)
        for neg in (0, 1)
    )
    for first, last in ((0, NUM_DIAGONALS), (NUM_DIAGONALS, NUM_LINES))
)
#: LINES_THROUGH[row/column?][sq]: the diagonals (False) or the row and column (True) through sq
LINES_THROUGH = tuple(
    tuple(tuple(i for i in SQ_LINE_IDS[sq] if (i >= NUM_DIAGONALS) == rc) for sq in range(D.SQUARES))
    for rc in (False, True)
)
#: bit masks of the squares strictly below / above a row and left / right of a column
BELOW_ROW = tuple(sum(1 << q for q in range(D.SQUARES) if q // 9 > r) for r in range(9))
ABOVE_ROW = tuple(sum(1 << q for q in range(D.SQUARES) if q // 9 < r) for r in range(9))
LEFT_OF_COL = tuple(sum(1 << q for q in range(D.SQUARES) if q % 9 < c) for c in range(9))
RIGHT_OF_COL = tuple(sum(1 << q for q in range(D.SQUARES) if q % 9 > c) for c in range(9))
TYPE_WORDS = tuple(t.replace("_", " ").replace("row column", "row/column") for t in D.CARD_TYPES)
#: CARAVAN_FIRST[t]: first caravan line id of a caravan type
CARAVAN_FIRST = {DIAG_T: 0, LINE_T: NUM_DIAGONALS}


def action_layout() -> list[tuple[str, int, int]]:
    """(block name, first index, size) of every block of the action space."""
    out = [("card", CARD_BASE, NUM_KINDS), ("discard", DISCARD_BASE, NUM_KINDS)]
    out += [(f"{D.CARD_TYPES[t]} move", TYPE_BASE[t], MOVES_PER_TYPE[t]) for t in range(7)]
    out.append(("panic ram", PANIC_BASE, D.NUM_SHEEP * 64))
    out.append(("time tile", TILE_BASE, 4))
    return out


def check_config(num_players: Any, layout: Any = "random", facing: Any = "N", phase2_rows: Any = "occupied") -> None:
    """Reject impossible configurations with a clear message (the rule data is checked by
    :func:`meadowzoo.envs.haste_bock.data.check_rule_data`)."""
    check_int("num_players", num_players, 2, 4)
    check_choice("layout", layout, ("random", "fixed"))
    check_choice("facing", facing, D.SIDE_NAMES)
    check_choice("phase2_rows", phase2_rows, ("occupied", "consecutive"))


class HasteBockGame(Game):
    name = "haste_bock"
    num_actions = NUM_ACTIONS
    DECISIONS = DECISIONS

    def __init__(
        self,
        num_players: int = 4,
        *,
        rng: np.random.Generator | None = None,
        layout: str = "random",
        facing: str = "N",
        rule_data: dict | None = None,
        phase2_rows: str = "occupied",
    ):
        """A game at its first decision: the start layout placed (HB-3) and the opening panic
        rolled (HB-8)."""
        self._set_up(num_players, rng, layout, facing, rule_data, phase2_rows)
        self._place(self.start_squares(self.rng, layout))
        self._next_opening()

    @classmethod
    def _empty(cls, num_players: int = 4, rng: np.random.Generator | None = None, facing: str = "N",
               rule_data: dict | None = None, phase2_rows: str = "occupied") -> "HasteBockGame":
        """A game with its hands and tiles dealt but no sheep placed and no opening rolled (for
        :meth:`from_dict` and :meth:`from_position`, which place the sheep themselves)."""
        game = cls.__new__(cls)
        game._set_up(num_players, rng, "random", facing, rule_data, phase2_rows)
        return game

    def _set_up(self, num_players: int, rng: np.random.Generator | None, layout: str, facing: str,
                rule_data: dict | None, phase2_rows: str) -> None:
        check_config(num_players, layout, facing, phase2_rows)
        self.num_agents = num_players
        self.rng = rng if rng is not None else np.random.default_rng()
        self.rule_data = D.check_rule_data(rule_data)
        self.phase2_rows = phase2_rows
        self._setup_tables()
        n = num_players
        self.board = [-1] * D.SQUARES
        self.pos = [0] * D.NUM_SHEEP
        self.facing = D.SIDE_NAMES.index(facing)
        self.time = 0
        self.points = [0] * n  # the scores so far (HB-19 … HB-22)
        self.hands = [list(self.start_hand) for _ in range(n)]
        self.tiles = [list(self.start_tiles) for _ in range(n)]
        self.pending = CARD
        self.player = 0
        self.die = -1
        self.opening = [0, 1, 0, 1] if n == 2 else list(range(n))
        self.card_value = 0  # value of the card played this turn (while its move or tile is pending)
        self.card_kind = -1  # the card chosen this turn while its move or time tile is pending
        self.no_trough = -1  # trough side the player to move may not play (HB-16)
        self.no_herd = -1  # herd sense (0 cw, 1 ccw) the player to move may not play (HB-17)
        self.after_trough = -1  # what the current turn forbids the next player
        self.after_herd = -1
        self.turn = 0
        self._legal: list[int] | None = None

    @staticmethod
    def start_squares(rng: np.random.Generator, layout: str = "random") -> tuple[int, ...]:
        """HB-3: the squares of the 9 sheep at the start (fixed layout, or one of the 48 valid
        layouts drawn from ``rng``)."""
        if layout == "fixed":
            return D.FIXED_LAYOUT
        return D.START_LAYOUTS[int(rng.integers(len(D.START_LAYOUTS)))]

    # ---- configuration ----------------------------------------------------------------------
    def _setup_tables(self) -> None:
        rd = self.rule_data
        hand = [0] * NUM_KINDS
        for t, v in rd["cards"]:
            hand[D.CARD_TYPES.index(t) * 3 + v - 1] += 1
        self.start_hand = tuple(hand)
        source = {2: rd["two_player_tiles"], 3: rd["three_player_tiles"]}.get(self.num_agents, [])
        self.start_tiles = tuple(source.count(v) for v in (1, 2, 3))
        self.tile_mandatory = self.num_agents == 2
        self.panic_spaces = frozenset(rd["panic_spaces"])
        #: owner seat of each sheep, -1 for neutral sheep and Thea (HB-2)
        self.owner = tuple(s // 2 if s < 8 and s // 2 < self.num_agents else -1 for s in range(D.NUM_SHEEP))

    def config(self) -> dict:
        return {"num_players": self.num_agents, "rule_data": self.rule_data, "phase2_rows": self.phase2_rows}

    def _place(self, squares) -> None:
        self.board = [-1] * D.SQUARES
        self.pos = list(squares)
        for s, sq in enumerate(self.pos):
            self.board[sq] = s

    # ---- Game API ---------------------------------------------------------------------------
    @property
    def current_agent(self) -> int:
        return -1 if self.pending == OVER else self.player

    @property
    def is_over(self) -> bool:
        return self.pending == OVER

    @property
    def phase(self) -> int:
        return D.phase_of(self.time)

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def is_fallback(self) -> bool:
        """True when the pending card decision is the HB-11 discard fallback."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return self.pending == CARD and bool(self._legal) and self._legal[0] >= DISCARD_BASE

    def apply(self, action: int) -> None:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        i = bisect_left(legal, action)
        if i == len(legal) or legal[i] != action:
            raise IllegalActionError(
                f"illegal action {action!r} for player {self.current_agent}; legal: {self._legal}"
            )
        self._legal = None
        if action < DISCARD_BASE:  # choose a card: the card leaves the game, its move follows
            self.hands[self.player][action] -= 1
            self.card_kind = action
            self.card_value = action % 3 + 1
            self.pending = MOVE
        elif action < MOVE_BASE:
            kind = action - DISCARD_BASE
            self.hands[self.player][kind] -= 1
            self.card_kind = kind
            self._after_card(kind % 3 + 1)
        elif action < PANIC_BASE:
            self._play(ACTION_TYPE[action - MOVE_BASE], ACTION_MOVE[action - MOVE_BASE])
            self._after_card(self.card_value)
        elif action < TILE_BASE:
            m = action - PANIC_BASE
            self._ram(m >> 6, (m >> 3) & 7, (m & 7) + 1)
            self.die = -1
            if self.opening or self.time == 0:
                self._next_opening()
            else:
                self._next_turn()
        else:
            value = action - TILE_BASE
            if value:
                self.tiles[self.player][value - 1] -= 1
            self._finish_turn(self.card_value + value)

    # ---- legal actions ----------------------------------------------------------------------
    def _compute_legal(self) -> list[int]:
        pending = self.pending
        if pending == CARD:
            hand = self.hands[self.player]
            occupancy = self._occupancy()
            out = []
            jumps = None  # ram and leap have the same legal targets
            for t in range(7):
                k = 3 * t
                if hand[k] or hand[k + 1] or hand[k + 2]:
                    if t == RAM_T or t == LEAP_T:
                        if jumps is None:
                            jumps = self._has_move(t, occupancy)
                        possible = jumps
                    else:
                        possible = self._has_move(t, occupancy)
                    if possible:
                        out += [k + v for v in (0, 1, 2) if hand[k + v]]
            if not out:  # HB-11 fallback: discard any card
                out = [DISCARD_BASE + k for k in range(NUM_KINDS) if hand[k]]
            return out
        if pending == MOVE:
            t = self.card_kind // 3
            base = TYPE_BASE[t]
            return [base + m for m in self._type_moves(t, self._occupancy())]
        if pending == TILE:
            tiles = self.tiles[self.player]
            out = [] if self.tile_mandatory else [TILE_BASE]
            out.extend(TILE_BASE + v for v in (1, 2, 3) if tiles[v - 1])
            return out
        if pending == PANIC:
            rammers = DIE_RAMMERS[self.die]
            return self._jump_moves([self.pos[s] for s in rammers], PANIC_BASE + rammers[0] * 64, self._occupancy())
        return []

    def _occupancy(self) -> int:
        occupancy = 0
        for sq in self.pos:
            occupancy |= 1 << sq
        return occupancy

    def _has_move(self, t: int, occupancy: int) -> bool:
        """Whether card type ``t`` has at least one legal move (the card decision; early exits)."""
        board = self.board
        own = (self.pos[2 * self.player], self.pos[2 * self.player + 1])
        if t == STEP_T:
            return any(board[n] < 0 for sq in own for _, n in STEP_MOVES[sq])
        if t == RAM_T or t == LEAP_T:
            for sq in own:
                rays, masks = RAYS[sq], RAY_MASKS[sq]
                for d in range(8):
                    if occupancy & masks[d]:
                        occupied = False
                        for s in rays[d]:
                            if board[s] >= 0:
                                occupied = True
                            elif occupied:
                                return True
            return False
        if t == DIAG_T or t == LINE_T:
            through = LINES_THROUGH[t == LINE_T]
            for sq in self.pos:
                for i in through[sq]:
                    line = LINES[i]
                    if board[line[0]] < 0 or board[line[-1]] < 0:
                        return True
            return False
        if t == TROUGH_T:
            return bool(self._trough_sides(occupancy))
        return True  # herd: at most one of the two senses is forbidden

    def _type_moves(self, t: int, occupancy: int) -> list[int]:
        """Legal move indices (inside the type's block) of card type ``t`` for the player to move."""
        board = self.board
        own = (self.pos[2 * self.player], self.pos[2 * self.player + 1])
        if t == STEP_T:  # HB-12
            moves = [m for m, n in STEP_MOVES[own[0]] if board[n] < 0]
            return moves + [m + 8 for m, n in STEP_MOVES[own[1]] if board[n] < 0]
        if t == RAM_T or t == LEAP_T:  # HB-13, HB-14
            return self._jump_moves(own, 0, occupancy)
        if t == DIAG_T or t == LINE_T:
            # a line is legal in a direction when it holds a sheep and its end square that way
            # is empty, i.e. the lead sheep does not stand on the fence (HB-15)
            return [m for m, line, end in CARAVAN_CHECKS[t == LINE_T] if occupancy & line and not occupancy & end]
        if t == TROUGH_T:  # HB-16
            return self._trough_sides(occupancy)
        return [sense for sense in (0, 1) if sense != self.no_herd]  # HB-17

    def _jump_moves(self, rammers, base: int, occupancy: int) -> list[int]:
        """``base + (index * 8 + d) * 8 + k - 1`` for every legal ram / leap of each rammer square.

        Target k is legal when the k-th sheep on the ray has an empty square behind it: the ram's
        target moves there (HB-13), the leaper lands there (HB-14)."""
        board = self.board
        out = []
        for j, sq in enumerate(rammers):
            rays = RAYS[sq]
            masks = RAY_MASKS[sq]
            for d in range(8):
                if not occupancy & masks[d]:
                    continue
                b = base + (j * 8 + d) * 8 - 1
                k = 0
                occupied = False
                for s in rays[d]:
                    if board[s] >= 0:
                        k += 1
                        occupied = True
                    elif occupied:
                        out.append(b + k)
                        occupied = False
        return out

    def _trough_sides(self, occupancy: int) -> list[int]:
        """Sides N E S W (0..3) towards which a trough moves at least one sheep and is not
        forbidden (HB-16). A trough moves a sheep iff some sheep off the trough line has an empty
        square on that side; with bit boards: occupied, neighbour that way empty, beyond the line."""
        top = ((occupancy & -occupancy).bit_length() - 1) // 9
        bottom = (occupancy.bit_length() - 1) // 9
        cols = [sq % 9 for sq in self.pos]
        left, right = min(cols), max(cols)
        out = []
        if occupancy & ~(occupancy << 9) & BELOW_ROW[top]:
            out.append(0)
        if occupancy & ~(occupancy >> 1) & LEFT_OF_COL[right]:
            out.append(1)
        if occupancy & ~(occupancy >> 9) & ABOVE_ROW[bottom]:
            out.append(2)
        if occupancy & ~(occupancy << 1) & RIGHT_OF_COL[left]:
            out.append(3)
        if self.no_trough in out:
            out.remove(self.no_trough)
        return out

    # ---- actions ------------------------------------------------------------------------------
    def _move(self, s: int, to: int) -> None:
        self.board[self.pos[s]] = -1
        self.pos[s] = to
        self.board[to] = s

    def _play(self, t: int, m: int) -> None:
        own = 2 * self.player
        if t == STEP_T:  # HB-12
            s = own + (m >> 3)
            self._move(s, STEP[self.pos[s]][m & 7])
        elif t == RAM_T:  # HB-13
            self._ram(own + (m >> 6), (m >> 3) & 7, (m & 7) + 1)
        elif t == LEAP_T:  # HB-14
            s = own + (m >> 6)
            ray = RAYS[self.pos[s]][(m >> 3) & 7]
            k = (m & 7) + 1
            for sq in ray:
                if self.board[sq] >= 0:
                    k -= 1
                    if k == 0:
                        break
            self._move(s, ray[ray.index(sq) + 1])
        elif t == DIAG_T or t == LINE_T:  # HB-15
            self._caravan(m // 2 + CARAVAN_FIRST[t], m & 1)
        elif t == TROUGH_T:  # HB-16
            self._trough(m)
            self.after_trough = (m + 2) % 4
        else:  # HB-17: 0 = clockwise, 1 = counter-clockwise
            self.facing = (self.facing + (1 if m == 0 else 3)) % 4
            self.after_herd = 1 - m

    def _ram(self, rammer: int, d: int, k: int) -> None:
        """HB-13: the k-th sheep on the rammer's ray moves one square along ``d``; the sheep before
        it and the rammer pack contiguously behind it."""
        board = self.board
        ray = RAYS[self.pos[rammer]][d]
        chain = [rammer]
        for i, sq in enumerate(ray):
            if board[sq] >= 0:
                chain.append(board[sq])
                if len(chain) == k + 1:
                    break
        # ray[i] is the target's square, ray[i + 1] its destination
        for s in chain:
            board[self.pos[s]] = -1
        for j, s in enumerate(reversed(chain)):
            sq = ray[i + 1 - j]  # i + 1 - k >= 0: the k sheep lie within ray[0..i]
            self.pos[s] = sq
            board[sq] = s

    def _caravan(self, line_id: int, negative: int) -> None:
        line = LINES[line_id]
        if negative:
            line = line[::-1]
        board = self.board
        for idx in range(len(line) - 2, -1, -1):  # from the lead sheep backwards
            s = board[line[idx]]
            if s >= 0:
                self._move(s, line[idx + 1])

    def _trough(self, side: int) -> None:
        group, dist, back = SIDE_GROUP[side], SIDE_DIST[side], SIDE_SQUARE[side]
        line = min(dist[sq] for sq in self.pos)
        order = sorted(range(D.NUM_SHEEP), key=lambda s: dist[self.pos[s]])
        filled = [line] * 9
        new = [0] * D.NUM_SHEEP
        for s in order:
            g = group[self.pos[s]]
            new[s] = back[g * 9 + filled[g]]
            filled[g] += 1
        self._place(new)

    # ---- the turn sequence -------------------------------------------------------------------
    def _after_card(self, value: int) -> None:
        self.card_value = value
        if sum(self.tiles[self.player]):
            self.pending = TILE
        else:
            self._finish_turn(value)

    def _roll(self) -> bool:
        """Roll the die for ``self.player``; True if a panic ram is pending, False if void."""
        self.die = int(self.rng.integers(len(D.DIE_FACES)))
        self.pending = PANIC
        self._legal = self._compute_legal()
        if self._legal:
            return True
        self.die = -1
        self._legal = None
        return False

    def _next_opening(self) -> None:
        while self.opening:  # HB-8
            self.player = self.opening.pop(0)
            if self._roll():
                return
        self.player = -1
        self._next_turn()

    def _next_turn(self) -> None:
        n = self.num_agents
        for i in range(1, n + 1):
            p = (self.player + i) % n
            if sum(self.hands[p]):
                self.player = p
                self.pending = CARD
                self.turn += 1
                return
        self._end()  # HB-24: no player has an action card left

    def _finish_turn(self, dt: int) -> None:
        self.no_trough, self.no_herd = self.after_trough, self.after_herd
        self.after_trough = self.after_herd = -1
        self.card_value = 0
        self.card_kind = -1
        old = self.time
        new = min(old + dt, D.PEN_1 if old < D.PEN_1 else D.PEN_2)  # HB-18
        self.time = new
        if new <= 12:
            self._score_pair(self.player)
        elif new <= D.PEN_1:
            if old <= D.WALL_1 < new:
                self._score_rows(2)
            if new == D.PEN_1:
                self._score_rows(2)
        elif new < 50:
            self._score_thea(self.player)
        else:
            if old <= D.WALL_2 < new:
                self._score_rows(4)
            if new == D.PEN_2:
                self._score_rows(4)
                self._end()
                return
        if new in self.panic_spaces and self._roll():  # HB-9 (4)
            return
        self._next_turn()

    def _end(self) -> None:
        if self.num_agents == 3:  # HB-22
            penalty = self.rule_data["unused_tile_penalty"]
            for p in range(3):
                self.points[p] -= penalty * sum(self.tiles[p])
        self.pending = OVER
        self.player = -1
        self.die = -1
        self._legal = None

    # ---- scoring -------------------------------------------------------------------------------
    def _score_pair(self, p: int) -> None:  # HB-19
        self.points[p] += ADJ[self.pos[2 * p] * 81 + self.pos[2 * p + 1]]

    def _score_thea(self, p: int) -> None:  # HB-20
        thea = self.pos[D.THEA] * 81
        self.points[p] += ADJ[thea + self.pos[2 * p]] + ADJ[thea + self.pos[2 * p + 1]]

    def row_points(self, phase: int) -> list[int]:
        """HB-21: points of every sheep in a phase-2 or phase-4 scoring with the current facing."""
        dist = SIDE_DIST[self.facing]
        rows = [dist[sq] for sq in self.pos]
        if phase == 2 and self.phase2_rows == "consecutive":
            front = min(rows)
            return [max(0, 4 - (r - front)) for r in rows]
        occupied = sorted(set(rows), reverse=(phase == 4))
        rank = {r: 4 - i for i, r in enumerate(occupied[:4])}
        if phase == 4:
            rank[occupied[-1]] = 0  # the row nearest Jacques never scores
        return [rank.get(r, 0) for r in rows]

    def _score_rows(self, phase: int) -> None:
        owner = self.owner
        for s, points in enumerate(self.row_points(phase)):
            if owner[s] >= 0:
                self.points[owner[s]] += points

    # ---- outcome -------------------------------------------------------------------------------
    def unused_card_value(self, p: int) -> int:
        return sum(c * (k % 3 + 1) for k, c in enumerate(self.hands[p]))

    def scores(self) -> list[int]:
        """Every player's points so far (HB-19 … HB-22; the end's HB-22 tile penalty included once over)."""
        return list(self.points)

    def places(self) -> list[int]:
        """HB-24: score, then the sum of unused action-card values; further ties share."""
        keys = [(self.points[p], self.unused_card_value(p)) for p in range(self.num_agents)]
        return [sum(other > key for other in keys) for key in keys]

    # ---- text ----------------------------------------------------------------------------------
    def _string_table_key(self) -> Any:
        return self.current_agent

    def action_to_string(self, action: int) -> str:
        if not 0 <= action < NUM_ACTIONS:
            raise ValueError(f"action {action} out of range 0..{NUM_ACTIONS - 1}")
        if action < MOVE_BASE:
            kind = action % NUM_KINDS
            verb = "play" if action < DISCARD_BASE else "discard"
            return f"{verb} {TYPE_WORDS[kind // 3]} (card {kind % 3 + 1})"
        if action < PANIC_BASE:
            t, m = ACTION_TYPE[action - MOVE_BASE], ACTION_MOVE[action - MOVE_BASE]
            if t in (STEP_T, RAM_T, LEAP_T):
                j = m >> 3 if t == STEP_T else m >> 6
                p = self.current_agent
                sheep = D.SHEEP_NAMES[2 * p + j] if p >= 0 else f"own-{j + 1}"
                if t == STEP_T:
                    return f"step {sheep} {D.DIR_NAMES[m & 7]}"
                word, what = ("ram", "target") if t == RAM_T else ("leap", "over")
                return f"{word} {sheep} {D.DIR_NAMES[(m >> 3) & 7]} {what} {(m & 7) + 1}"
            if t in (DIAG_T, LINE_T):
                i = m // 2 + CARAVAN_FIRST[t]
                return f"{LINE_NAMES[i]} {D.DIR_NAMES[LINE_DIRS[i][m & 1]]}"
            if t == TROUGH_T:
                return f"trough {D.SIDE_NAMES[m]}"
            return f"herd {('cw', 'ccw')[m]}"
        if action < TILE_BASE:
            m = action - PANIC_BASE
            return f"panic ram {D.SHEEP_NAMES[m >> 6]} {D.DIR_NAMES[(m >> 3) & 7]} target {(m & 7) + 1}"
        value = action - TILE_BASE
        return f"time tile {value}" if value else "no time tile"

    # ---- positions for tests and puzzles -------------------------------------------------------
    @classmethod
    def from_position(
        cls,
        board: str,
        num_players: int = 4,
        facing: str = "N",
        time: int = 1,
        to_move: int = 0,
        seed: int = 0,
        die: str | None = None,
        **options: Any,
    ) -> "HasteBockGame":
        """A game at a card decision of ``to_move`` with the sheep of an ASCII ``board`` (or, with
        ``die`` = a die face name, at ``to_move``'s panic ram with that roll).

        ``board``: 9 lines of 9 cells (spaces ignored), ``.`` empty, ``B Y G R`` blue, yellow,
        green, red (the first of a colour in reading order is ``-1``), ``T`` Thea."""
        rows = [line.replace(" ", "") for line in board.strip().splitlines()]
        if len(rows) != 9 or any(len(r) != 9 for r in rows):
            raise ValueError("board must be 9 lines of 9 cells")
        squares: list[list[int]] = [[] for _ in range(5)]
        for sq, cell in enumerate("".join(rows).upper()):
            if cell != ".":
                squares[D.SHEEP_LETTERS.index(cell)].append(sq)
        if any(len(squares[c]) != 2 for c in range(4)) or len(squares[4]) != 1:
            raise ValueError("board must hold two sheep of each colour and Thea")
        options.pop("layout", None)  # the board gives the layout
        game = cls._empty(num_players, np.random.default_rng(seed), facing=facing, **options)
        game._place([sq for c in range(4) for sq in squares[c]] + squares[4])
        game.opening = []
        game.time = time
        game.player = to_move
        game.pending = CARD
        if die is not None:
            game.pending = PANIC
            game.die = D.DIE_FACES.index(die)
        return game

    def board_text(self) -> str:
        """The pasture as 9 lines of letters (the inverse of :meth:`from_position`)."""
        cells = ["."] * D.SQUARES
        for s, sq in enumerate(self.pos):
            cells[sq] = D.SHEEP_LETTERS[s // 2]
        return "\n".join("".join(cells[r * 9 : r * 9 + 9]) for r in range(9))

    # ---- copies and snapshots ------------------------------------------------------------------
    def clone(self) -> "HasteBockGame":
        twin = copy.copy(self)
        twin.board = self.board[:]
        twin.pos = self.pos[:]
        twin.points = self.points[:]
        twin.hands = [h[:] for h in self.hands]
        twin.tiles = [t[:] for t in self.tiles]
        twin.opening = self.opening[:]
        twin.rng = copy.deepcopy(self.rng)
        return twin

    _INT_FIELDS = (
        ("facing", 0, 3), ("time", 0, D.TRACK_END), ("player", -1, 3), ("die", -1, 5),
        ("card_value", 0, 3), ("card_kind", -1, NUM_KINDS - 1), ("no_trough", -1, 3), ("no_herd", -1, 1), ("after_trough", -1, 3),
        ("after_herd", -1, 1), ("turn", 0, 10**6),
    )

    def to_dict(self) -> dict:
        out = {"config": copy.deepcopy(self.config()), "pos": self.pos[:], "scores": self.points[:]}
        out["hands"] = [h[:] for h in self.hands]
        out["tiles"] = [t[:] for t in self.tiles]
        out["opening"] = self.opening[:]
        out["pending"] = DECISIONS[self.pending]
        for field, _, _ in self._INT_FIELDS:
            out[field] = getattr(self, field)
        out["rng"] = rng_to_dict(self.rng)
        return out

    @classmethod
    def upgrade(cls, data: Any, version: int) -> Any:
        """Version 1 stored the pending decision as its number."""
        if version == 1 and isinstance(data, dict):
            pending = data.get("pending")
            if type(pending) is int and 0 <= pending < len(DECISIONS):
                data = {**data, "pending": DECISIONS[pending]}
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "HasteBockGame":
        where = "game snapshot"
        config = require(data, "config", dict, where)
        if set(config) != {"num_players", "rule_data", "phase2_rows"}:  # as config() writes it
            raise ValueError(f"{where}: field 'config' must hold exactly num_players, rule_data and phase2_rows")
        try:
            game = cls._empty(
                require(config, "num_players", int, where + " config"),
                rng_from_dict(require(data, "rng", dict, where), where),
                rule_data=require(config, "rule_data", dict, where + " config"),
                phase2_rows=require(config, "phase2_rows", str, where + " config"),
            )
        except ValueError as error:
            raise ValueError(f"{where}: field 'config' is invalid ({error})") from None
        if game.rule_data != config["rule_data"]:  # as to_dict writes it: every key, sorted panic spaces
            raise ValueError(f"{where}: field 'config' holds rule data not in its complete, normalised form")
        n = game.num_agents
        pos = require_int_list(data, "pos", D.NUM_SHEEP, 0, D.SQUARES - 1, where)
        if len(set(pos)) != D.NUM_SHEEP:
            raise ValueError(f"{where}: field 'pos' puts two sheep on one square")
        scores = require_int_list(data, "scores", n, -D.SCORE_LIMIT, D.SCORE_LIMIT, where)
        hands = require(data, "hands", list, where)
        tiles = require(data, "tiles", list, where)
        if len(hands) != n or len(tiles) != n:
            raise ValueError(f"{where}: fields 'hands' and 'tiles' need one entry per player")
        for p in range(n):
            hand = require_int_list({"hands": hands[p]}, "hands", NUM_KINDS, 0, D.MAX_CARDS, where)
            if any(h > s for h, s in zip(hand, game.start_hand)):
                raise ValueError(f"{where}: field 'hands'[{p}] holds cards the card table does not give")
            tile = require_int_list({"tiles": tiles[p]}, "tiles", 3, 0, D.MAX_TILES, where)
            if any(h > s for h, s in zip(tile, game.start_tiles)):
                raise ValueError(f"{where}: field 'tiles'[{p}] holds tiles this player count does not give")
        opening = require_int_list(data, "opening", None, 0, n - 1, where)
        values = {f: require_int(data, f, lo, hi, where) for f, lo, hi in cls._INT_FIELDS}
        pending = values["pending"] = require_choice(data, "pending", DECISIONS, where)
        player, die = values["player"], values["die"]
        if (pending == OVER) != (player == -1 and not opening) or player >= n:
            raise ValueError(f"{where}: field 'player'={player} does not fit field 'pending'={DECISIONS[pending]!r}")
        if opening and pending != PANIC:
            raise ValueError(f"{where}: field 'opening' lists rollers but no panic ram is pending")
        if (pending == PANIC) != (die >= 0):
            raise ValueError(f"{where}: field 'die' must be set exactly while a panic ram is pending")
        if (pending in (MOVE, TILE)) != (values["card_value"] > 0):
            raise ValueError(f"{where}: field 'card_value' must be set exactly while a move or time tile is pending")
        if (pending in (MOVE, TILE)) != (values["card_kind"] >= 0) or (
            values["card_kind"] >= 0 and values["card_kind"] % 3 + 1 != values["card_value"]
        ):
            raise ValueError(f"{where}: field 'card_kind' must name the chosen card exactly while its move or tile is pending")
        game._place(pos)
        game.points = list(scores)
        game.hands = [list(h) for h in hands]
        game.tiles = [list(t) for t in tiles]
        game.opening = list(opening)
        for field, value in values.items():
            setattr(game, field, value)
        if pending != OVER and not game.legal_actions():
            raise ValueError(f"{where}: field 'pending'={DECISIONS[pending]!r} has no legal action in this position")
        return game
