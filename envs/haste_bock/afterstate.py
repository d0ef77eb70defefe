"""Afterstates of Haste Bock? as numbers, for a learned value of "my turn is over, now what?".

An *afterstate* is the position right after a player finished its turn (card played, sheep moved,
marker advanced, the triggered scoring done) and before anything random happens (a panic roll).
Everything in it is public (HB: the cards lie open), so its value is a function of it. (The
encoding leaves out one detail: the reverse trough or turn-back that the turn forbids the next
player, HB-16/HB-17.) The
lookahead player (:mod:`meadowzoo.agents.heuristics.haste_bock_lookahead`) builds the afterstate of every plan it considers, the
fitting script (:mod:`meadowzoo.training.fit_afterstate_value`) records the afterstates of played games; both
use :func:`encode` here, so the two can never disagree.

The record of one afterstate is a small int vector (:data:`RECORD_SIZE` entries, see
:func:`record`), seen from one *viewer* seat; :func:`dense` turns a batch of records into the
network input (:data:`INPUT_SIZE` floats):

* the board, rotated so that the flock faces north (HB-17/HB-21 score rows towards the faced edge;
  every move type is symmetric under quarter turns, so this loses nothing and quarters the data
  the net must see): one 81-square plane per seat *relative to the viewer* (slot 0 = viewer,
  slot 1 = the next seat, …; with 2/3 players the neutral colours fill the last slots), and one
  for Thea — 5 × 81;
* the time marker, one-hot over 0..74 (phase, walls, pens and panic spaces are all positions);
* every slot's score minus the viewer's, / 10, and the viewer's score / 20;
* every slot's hand (21 card-kind counts) and time tiles (3 counts); the tie-break sum of unused
  card values per slot / 24;
* which slot makes the next card decision (one-hot 4);
* the scoring terms of every slot as the position stands (what the strong heuristic weighs; a
  net learns their worth far faster from these than from the planes): its sheep's points if the
  rows were scored now in phase 2 and in phase 4 (HB-21, occupied rows, /8), its pair's adjacency
  (HB-19, /2) and its sheep's adjacency to Thea (HB-20, /4). ``dense(..., rule_terms=False)``
  leaves them at zero (an ablation: the net must then learn them from the planes).

With 2/3 players the slots beyond the players hold the neutral colours' sheep (board planes and
scoring terms) and zeros elsewhere.
"""

from __future__ import annotations

import numpy as np

from meadowzoo.envs.haste_bock import data as D
from meadowzoo.envs.haste_bock.geometry import ADJ

#: the game these afterstates are of (stored in value files, checked by the players that read them)
GAME = "haste_bock"
SLOTS = 4
#: the player counts the encoding describes (the neutral colours fill the slots of absent players)
PLAYER_COUNTS = (2, 3, 4)
#: keyword options of :func:`dense`
INPUT_OPTIONS = ("rule_terms",)
KINDS = 21
#: ROTATE[f][sq]: where square ``sq`` lies after turning the board so that facing ``f`` is north
ROTATE: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (r * 9 + c) if f == 0 else ((8 - c) * 9 + r) if f == 1 else ((8 - r) * 9 + (8 - c)) if f == 2 else (c * 9 + (8 - r))
        for r, c in (divmod(sq, 9) for sq in range(D.SQUARES))
    )
    for f in range(4)
)

# record layout: sheep squares (9, slot-ordered), time, scores (4), hands (4*21), tiles (4*3), next slot
_SHEEP = slice(0, 9)
_TIME = 9
_SCORES = slice(10, 14)
_HANDS = slice(14, 14 + SLOTS * KINDS)
_TILES = slice(14 + SLOTS * KINDS, 14 + SLOTS * KINDS + SLOTS * 3)
_NEXT = 14 + SLOTS * KINDS + SLOTS * 3
RECORD_SIZE = _NEXT + 1
INPUT_SIZE = 5 * 81 + 75 + SLOTS + 1 + SLOTS * KINDS + SLOTS * 3 + SLOTS + SLOTS + 4 * SLOTS
_ADJ = np.array(ADJ, dtype=np.int64)
CARD_VALUES = np.tile(np.array([1, 2, 3], dtype=np.float32), 7)


def outcomes(places: list[int], viewer: int) -> list[float]:
    """Per seat: 1 if ``viewer`` finished ahead of it (HB-24 ``places``, 0 = best), 0.5 if tied
    (the viewer itself too), 0 if behind."""
    mine = places[viewer]
    return [1.0 if mine < theirs else 0.5 if mine == theirs else 0.0 for theirs in places]


def recorded_scores(records: np.ndarray) -> np.ndarray:
    """The scores of ``(…, RECORD_SIZE)`` records, in slot order (viewer first)."""
    return records[..., _SCORES]


def slot_colours(num_players: int, viewer: int) -> list[int]:
    """The colour of every slot: the seats from the viewer on, then the neutral colours."""
    return [(viewer + k) % num_players for k in range(num_players)] + list(range(num_players, SLOTS))


def next_card_seat(hands: list[list[int]], time: int, mover: int) -> int:
    """The seat that makes the next card decision after ``mover``'s turn (or panic ram): the start
    player before the first turn (HB-8 rams come first), else the next seat holding a card."""
    n = len(hands)
    if time == 0:
        return 0
    for i in range(1, n + 1):
        seat = (mover + i) % n
        if sum(hands[seat]):
            return seat
    return -1  # nobody holds a card: the game is over


def ends_a_turn(pending_before: int, mover: int, game) -> bool:
    """Whether the decision ``mover`` just took (at ``pending_before``) finished its turn or panic
    ram: a panic ram always does; a card, move or time tile does unless the same player still has
    to move or pick a tile for it (HB-9)."""
    from meadowzoo.envs.haste_bock.rules import CARD, MOVE, PANIC, TILE

    if pending_before == PANIC:
        return True
    return pending_before in (MOVE, TILE, CARD) and not (game.pending in (MOVE, TILE) and game.player == mover)


def turn_marker(game) -> tuple[int, int]:
    """What :func:`turn_ended` needs from the game before a decision: who decides, and which
    decision (the recorder's protocol, see :mod:`meadowzoo.agents.afterstate_value`)."""
    return game.player, game.pending


def turn_ended(marker: tuple[int, int], game) -> bool:
    """Whether the decision taken since ``marker`` finished its player's turn or panic ram."""
    mover, pending = marker
    return ends_a_turn(pending, mover, game)


def final_targets(game, records: np.ndarray, viewer: int) -> tuple[np.ndarray, np.ndarray]:
    """The outcome of an ended game for ``viewer``'s samples ``records``: the ``(SLOTS,)`` beats
    row (:func:`outcomes` in slot order) and the ``(m, SLOTS)`` points every slot still scored
    after each afterstate."""
    n = game.num_agents
    seats = slot_colours(n, viewer)[:n]
    beats = np.zeros(SLOTS, dtype=np.float32)
    beats[:n] = [outcomes(game.places(), viewer)[seat] for seat in seats]
    gains = np.zeros((len(records), SLOTS), dtype=np.float32)
    gains[:, :n] = np.array([game.points[seat] for seat in seats]) - recorded_scores(records)[:, :n]
    return beats, gains


def game_record(game, mover: int, viewer: int) -> np.ndarray:
    """The record of a live game right after ``mover``'s turn or panic ram, seen from ``viewer``
    (what :mod:`meadowzoo.training.afterstate_data` records; a rolled but unplayed die is left out)."""
    nxt = -1 if game.is_over else next_card_seat(game.hands, game.time, mover)
    return record(game.pos, game.facing, game.time, game.points, game.hands, game.tiles, nxt, viewer)


def record(pos: list[int], facing: int, time: int, scores: list[int], hands: list[list[int]],
           tiles: list[list[int]], next_seat: int, viewer: int) -> np.ndarray:
    """The int record of an afterstate seen from ``viewer`` (``next_seat`` -1: game over)."""
    n = len(scores)
    rot = ROTATE[facing]
    out = np.zeros(RECORD_SIZE, dtype=np.int16)
    colours = slot_colours(n, viewer)
    for slot, colour in enumerate(colours):  # a colour's two sheep are alike: record them in order
        a, b = rot[pos[2 * colour]], rot[pos[2 * colour + 1]]
        out[2 * slot], out[2 * slot + 1] = min(a, b), max(a, b)
    out[8] = rot[pos[D.THEA]]
    out[_TIME] = time
    seats = colours[:n]
    out[_SCORES][:n] = [scores[s] for s in seats]
    out[_HANDS].reshape(SLOTS, KINDS)[:n] = [hands[s] for s in seats]
    out[_TILES].reshape(SLOTS, 3)[:n] = [tiles[s] for s in seats]
    out[_NEXT] = -1 if next_seat < 0 else (next_seat - viewer) % n
    return out


def dense(records: np.ndarray, num_players: int, rule_terms: bool = True) -> np.ndarray:
    """The network input of a batch of records: ``(batch, INPUT_SIZE)`` float32; with
    ``rule_terms=False`` the scoring terms (the last ``4 * SLOTS`` inputs) stay zero."""
    records = np.asarray(records, dtype=np.int64).reshape(-1, RECORD_SIZE)
    b = len(records)
    rows = np.arange(b)
    out = np.zeros((b, INPUT_SIZE), dtype=np.float32)
    planes = out[:, : 5 * 81].reshape(b, 5, 81)
    for sheep in range(9):
        planes[rows, min(sheep // 2, 4), records[:, sheep]] += 1.0
    at = 5 * 81
    out[rows, at + records[:, _TIME]] = 1.0
    at += 75
    scores = records[:, _SCORES].astype(np.float32)
    out[:, at:at + SLOTS] = (scores - scores[:, :1]) / 10.0
    out[:, at:at + SLOTS][:, num_players:] = 0.0
    out[:, at + SLOTS] = scores[:, 0] / 20.0
    at += SLOTS + 1
    hands = records[:, _HANDS].astype(np.float32)
    out[:, at:at + SLOTS * KINDS] = hands
    at += SLOTS * KINDS
    out[:, at:at + SLOTS * 3] = records[:, _TILES]
    at += SLOTS * 3
    out[:, at:at + SLOTS] = (hands.reshape(b, SLOTS, KINDS) * CARD_VALUES).sum(axis=2) / 24.0
    at += SLOTS
    nxt = records[:, _NEXT]
    has_next = nxt >= 0
    out[rows[has_next], at + nxt[has_next]] = 1.0
    at += SLOTS
    if rule_terms:
        out[:, at:at + 4 * SLOTS] = scoring_terms(records[:, :9]).reshape(b, 4 * SLOTS)
    return out


def row_points(squares: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """HB-21 points of every sheep, ``(batch, 9)`` each for phase 2 and phase 4, on boards turned
    to face north (Roger and Jacques beyond row 0; only occupied rows count)."""
    sheep_rows = squares // 9
    b = len(squares)
    occupied = np.zeros((b, 9), dtype=bool)
    occupied[np.arange(b)[:, None], sheep_rows] = True
    nearer = np.cumsum(occupied, axis=1) - occupied  # occupied rows strictly nearer the shepherd
    farther = occupied.sum(axis=1, keepdims=True) - nearer - occupied  # … strictly farther
    ahead = np.take_along_axis(nearer, sheep_rows, axis=1)
    behind = np.take_along_axis(farther, sheep_rows, axis=1)
    phase2 = np.maximum(0, 4 - ahead)
    phase4 = np.where(ahead == 0, 0, np.maximum(0, 4 - behind))  # the row nearest Jacques scores 0
    return phase2, phase4


def scoring_terms(squares: np.ndarray) -> np.ndarray:
    """``(batch, SLOTS, 4)``: per slot its phase-2 row points /8, phase-4 row points /8, pair
    adjacency /2 and adjacency to Thea /4, from the records' sheep squares."""
    squares = np.asarray(squares, dtype=np.int64)
    phase2, phase4 = row_points(squares)
    b = len(squares)
    out = np.zeros((b, SLOTS, 4), dtype=np.float32)
    first, second, thea = squares[:, 0:8:2], squares[:, 1:8:2], squares[:, 8:9]
    out[:, :, 0] = (phase2[:, 0:8:2] + phase2[:, 1:8:2]) / 8.0
    out[:, :, 1] = (phase4[:, 0:8:2] + phase4[:, 1:8:2]) / 8.0
    out[:, :, 2] = _ADJ[first * 81 + second] / 2.0
    out[:, :, 3] = (_ADJ[thea * 81 + first] + _ADJ[thea * 81 + second]) / 4.0
    return out
