"""Geometry and action tables of the Haste Bock? JAX engine, as numpy arrays built once at import
from the reference engine's own tables (:mod:`meadowzoo.envs.haste_bock.geometry`,
:mod:`meadowzoo.envs.haste_bock.rules`), so that both engines share one source of geometry.

Every table that is indexed by a square has one extra square, :data:`OFF` (= 81), standing for
"beyond the fence": it is never occupied, and rays and lines are padded with it. Under ``jit`` the
engine only gathers from these tables; it never loops over squares in Python.
"""

from __future__ import annotations

import numpy as np

from meadowzoo.envs.haste_bock import data as D
from meadowzoo.envs.haste_bock.geometry import ADJ, LINES, NUM_LINES, RAYS, SIDE_DIST, SIDE_GROUP, SIDE_SQUARE, STEP
from meadowzoo.envs.haste_bock.rules import (
    ACTION_MOVE, ACTION_TYPE, DIE_RAMMERS, DISCARD_BASE, MOVE_BASE, NUM_ACTIONS, PANIC_BASE, TILE_BASE,
)

OFF = D.SQUARES  # the padding square beyond the fence
RAY_LEN = 8  # the longest ray on a 9×9 board

#: RAY_SQ[sq, d, i]: the i-th square from ``sq`` towards ``d`` (OFF beyond the fence)
RAY_SQ = np.full((D.SQUARES + 1, 8, RAY_LEN), OFF, np.int32)
#: RAY_POS[sq, d, q]: index of square ``q`` on the ray from ``sq`` towards ``d``, -1 if not on it
RAY_POS = np.full((D.SQUARES + 1, 8, D.SQUARES + 1), -1, np.int32)
for _sq in range(D.SQUARES):
    for _d in range(8):
        for _i, _q in enumerate(RAYS[_sq][_d]):
            RAY_SQ[_sq, _d, _i] = _q
            RAY_POS[_sq, _d, _q] = _i
#: DIR_R / DIR_C[d]: the row and column step of direction ``d``
DIR_R = np.array([dr for dr, _ in D.DIRS], np.int32)
DIR_C = np.array([dc for _, dc in D.DIRS], np.int32)
#: STEP_SQ[sq, d]: the neighbour of ``sq`` towards ``d`` (OFF beyond the fence)
STEP_SQ = np.array([[n if n >= 0 else OFF for n in row] for row in STEP] + [[OFF] * 8], np.int32)

#: caravan moves 0..95 = line * 2 + (0 positive, 1 negative direction), lines as in geometry.LINES
#: (30 diagonals, then 9 rows and 9 columns), i.e. the order of the diagonal and row/column blocks.
NUM_CARAVAN_MOVES = 2 * NUM_LINES
#: CARAVAN_SQ[line, i]: the squares of each line (padded with OFF)
CARAVAN_SQ = np.full((NUM_LINES, D.SIZE), OFF, np.int32)
#: CARAVAN_END[move]: the square the lead sheep would leave the board from (must be empty)
CARAVAN_END = np.zeros(NUM_CARAVAN_MOVES, np.int32)
#: CARAVAN_NEXT[move, q]: where a sheep on ``q`` goes (``q`` itself when off the line)
CARAVAN_NEXT = np.tile(np.arange(D.SQUARES + 1, dtype=np.int32), (NUM_CARAVAN_MOVES, 1))
for _i, _line in enumerate(LINES):
    CARAVAN_SQ[_i, : len(_line)] = _line
    for _neg in (0, 1):
        _ordered = _line[::-1] if _neg else _line
        CARAVAN_END[2 * _i + _neg] = _ordered[-1]
        for _a, _b in zip(_ordered[:-1], _ordered[1:]):
            CARAVAN_NEXT[2 * _i + _neg, _a] = _b
        # the end square never holds a sheep when the move is legal; it stays put in the table

#: trough and shepherd tables per side N E S W (see geometry); SIDE_DIST also gives the rows of HB-21
SIDE_GROUP_T = np.array(SIDE_GROUP, np.int32)
SIDE_DIST_T = np.array(SIDE_DIST, np.int32)
SIDE_SQUARE_T = np.array(SIDE_SQUARE, np.int32)
#: ADJ_T[a, b]: 2 orthogonally, 1 diagonally adjacent, else 0 (HB-19, HB-20)
ADJ_T = np.array(ADJ, np.int32).reshape(D.SQUARES, D.SQUARES)

#: action decoding: category 0 card, 1 discard, 2 move, 3 panic ram, 4 time tile
CAT_CARD, CAT_DISCARD, CAT_MOVE, CAT_PANIC, CAT_TILE = range(5)
ACTION_CAT = np.zeros(NUM_ACTIONS, np.int32)
ACTION_CAT[DISCARD_BASE:MOVE_BASE] = CAT_DISCARD
ACTION_CAT[MOVE_BASE:PANIC_BASE] = CAT_MOVE
ACTION_CAT[PANIC_BASE:TILE_BASE] = CAT_PANIC
ACTION_CAT[TILE_BASE:] = CAT_TILE
#: ACTION_T / ACTION_M: card type and move index inside its block of every move action (-1 / 0
#: elsewhere); panic rams get the ram type and their block index (sheep * 64 + d * 8 + k - 1)
ACTION_T = np.full(NUM_ACTIONS, -1, np.int32)
ACTION_M = np.zeros(NUM_ACTIONS, np.int32)
ACTION_T[MOVE_BASE:PANIC_BASE] = ACTION_TYPE
ACTION_M[MOVE_BASE:PANIC_BASE] = ACTION_MOVE
ACTION_T[PANIC_BASE:TILE_BASE] = 1
ACTION_M[PANIC_BASE:TILE_BASE] = np.arange(TILE_BASE - PANIC_BASE)

#: RAMMERS[die, sheep]: whether the sheep may ram for that die face (HB-6)
RAMMERS = np.zeros((len(D.DIE_FACES), D.NUM_SHEEP), bool)
for _face, _sheep in enumerate(DIE_RAMMERS):
    RAMMERS[_face, list(_sheep)] = True

#: PHASE_OF[time]: the phase 0..4 of a marker position
PHASE_OF = np.array([D.phase_of(t) for t in range(D.TRACK_END + 1)], np.int32)
START_LAYOUTS = np.array(D.START_LAYOUTS, np.int32)
FIXED_LAYOUT_INDEX = D.START_LAYOUTS.index(D.FIXED_LAYOUT)


# ---- rays as 8-bit masks ------------------------------------------------------------------------------
def _jump_table() -> np.ndarray:
    """JUMP_TABLE[length * 256 + occupied]: for a ray of ``length`` squares whose occupied squares
    are the bits of ``occupied`` (bit i = i-th square from the sheep; bits from ``length`` on lie
    beyond the fence and are ignored), bit k-1 is set when the k-th sheep on the ray has an empty
    square on the board right behind it (a legal ram target k, HB-13, or leap over k, HB-14)."""
    table = np.zeros((RAY_LEN + 1) * 256, np.int32)
    for length in range(RAY_LEN + 1):
        for occupied in range(256):
            k, out = 0, 0
            for i in range(length):
                if occupied >> i & 1:
                    k += 1
                    if i + 1 < length and not occupied >> (i + 1) & 1:
                        out |= 1 << (k - 1)
            table[length * 256 + occupied] = out
    return table


#: the engine looks its jumps up here (``HasteBockJax._jumps``, indexed by ``RAY_LENGTH256``)
JUMP_TABLE = _jump_table()
#: RAY_LENGTH256[sq, d]: 256 * the number of squares from ``sq`` to the fence towards ``d``
RAY_LENGTH256 = np.array([[256 * len(RAYS[sq][d]) for d in range(8)] for sq in range(D.SQUARES)] + [[0] * 8], np.int32)
#: KTH[occupied * 8 + k - 1]: index on the ray of its k-th sheep (0 when there is none)
KTH = np.zeros(256 * 8, np.int32)
for _occupied in range(256):
    _idx = [i for i in range(8) if _occupied >> i & 1]
    for _k, _i in enumerate(_idx):
        KTH[_occupied * 8 + _k] = _i
#: RAY_BITS[a * 81 + b, d]: bit i set when square ``b`` is the i-th square of the ray from ``a``
#: towards ``d`` (ray occupancy is the sum over the other sheep: one 8-wide row per pair)
RAY_BITS = np.zeros((D.SQUARES * D.SQUARES, 8), np.int32)
for _a in range(D.SQUARES):
    for _d in range(8):
        for _i, _b in enumerate(RAYS[_a][_d]):
            RAY_BITS[_a * D.SQUARES + _b, _d] = 1 << _i
#: LINE_MASK[sq, line]: whether caravan line ``line`` passes through ``sq``
LINE_MASK = np.zeros((D.SQUARES, NUM_LINES), bool)
for _i, _line in enumerate(LINES):
    LINE_MASK[list(_line), _i] = True
__all__ = [name for name in dir() if name.isupper() and not name.startswith("_")]
