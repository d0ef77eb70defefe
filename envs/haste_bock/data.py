"""Rule data of Haste Bock? (Zoch 2006): the board geometry, the track and the ONE table of
facts that are not published anywhere we could read.

Everything marked **RECONSTRUCTED** lives in :data:`DEFAULT_RULE_DATA` and can be replaced through
the env option ``rule_data`` (a dict with any of its keys) without touching the rules logic.
Choices where the rulebooks are silent are marked **DECISION**:

* HB-11 (spec): a player whose cards all lack a legal move discards one card of its choice; its
  time (and, with 2/3 players, a time tile) still counts.
* HB-21 (spec): phase 2 counts occupied rows only (Hungarian text); env option
  ``phase2_rows="consecutive"`` gives the Chinese reading (four consecutive rows from the front).
* HB-23: the 2-player time tiles are four 1s, four 2s, four 3s (``two_player_tiles``).
* HB-16/17 no-undo: the restriction binds the immediately following player's next card play; a
  panic ram in between does not lift it, the end of that player's turn does.
* HB-9: a turn is the decisions "card", then "move" (then "time tile"); the card leaves the game
  when it is chosen, and only cards with at least one legal move are offered.
* HB-8/HB-9: the panic rammer may be any sheep of the rolled colour, also a neutral one.
* HB-24: the end "no player has an action card left" is checked after the last turn, including a
  panic ram it triggers; with 3 players the unused-tile penalty is applied at either end.
* HB-24: players tied on score and unused card values share the place (and the reward).
* Sheep names: ``<colour>-1`` is the first sheep of its colour in reading order at the start;
  the names stay with the sheep.
"""

from __future__ import annotations

from typing import Any

# ---- the pasture (HB-1) ----------------------------------------------------------------------
SIZE = 9
SQUARES = SIZE * SIZE

#: the 8 directions, clockwise from north, as (d_row, d_col); row 0 is the north edge
DIRS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
DIR_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
#: facings / trough sides / shepherd edges, clockwise: N E S W (index into DIRS is 2 * facing)
SIDE_NAMES = ("N", "E", "S", "W")

# ---- sheep (HB-2) ----------------------------------------------------------------------------
#: colours in seat order; sheep ``2c`` and ``2c+1`` have colour ``c``; sheep 8 is Thea (black)
COLOURS = ("blue", "yellow", "green", "red")
THEA = 8
NUM_SHEEP = 9
SHEEP_NAMES = tuple(f"{COLOURS[s // 2]}-{s % 2 + 1}" for s in range(8)) + ("thea",)
SHEEP_LETTERS = "BYGRT"

# ---- die (HB-6) ------------------------------------------------------------------------------
DIE_FACES = ("blue", "yellow", "green", "red", "black", "white")

# ---- track (HB-4, HB-18) ---------------------------------------------------------------------
TRACK_END = 74
PEN_1 = 37  #: closed pen: the marker stops here, phase-2 scoring
PEN_2 = 74  #: closed pen: the marker stops here, phase-4 scoring, game over
WALL_1 = 24  #: wall between 24 and 25: phase-2 scoring when passed
WALL_2 = 62  #: wall between 62 and 63: phase-4 scoring when passed
PHASE_STARTS = (1, 13, 38, 50)  # phase k starts on PHASE_STARTS[k-1]


def phase_of(time: int) -> int:
    """Phase 1..4 of a marker position; 0 before the first move."""
    if time <= 0:
        return 0
    if time <= 12:
        return 1
    if time <= 37:
        return 2
    if time <= 49:
        return 3
    return 4


# ---- action cards (HB-5) ---------------------------------------------------------------------
#: the seven actions, in action-space order
CARD_TYPES = ("step", "ram", "leap", "diagonal_caravan", "row_column_caravan", "trough", "herd")
CARD_VALUES = (1, 2, 3)

#: The one table of rule facts that are not published (RECONSTRUCTED) or chosen (DECISION).
DEFAULT_RULE_DATA: dict[str, Any] = {
    # RECONSTRUCTED (HB-5): every player's 12 action cards as [type, time value]; the rulebook
    # only says four 1s, four 2s and four 3s per player.
    "cards": [
        ["step", 1], ["step", 1], ["ram", 2], ["ram", 3], ["leap", 3],
        ["diagonal_caravan", 1], ["diagonal_caravan", 2],
        ["row_column_caravan", 2], ["row_column_caravan", 3],
        ["trough", 2], ["trough", 3], ["herd", 1],
    ],
    # RECONSTRUCTED (HB-7): track squares showing the die (panic spaces).
    "panic_spaces": [7, 19, 31, 44, 56, 68],
    # HB-22: the time tiles of a 3-player game (each optional once) and their end penalty.
    "three_player_tiles": [1, 2, 3],
    "unused_tile_penalty": 2,
    # HB-23 / DECISION: the 2-player time tiles are the backs of a non-playing colour's cards,
    # i.e. four 1s, four 2s, four 3s, one of which must be added to every action card.
    "two_player_tiles": [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3],
}


#: Bounds of the rule data, which a game snapshot's check (``HasteBockGame.from_dict``) shares:
#: at most MAX_CARDS action cards and MAX_TILES time tiles a player, so that every count in a hand
#: fits; an end penalty of at most MAX_TILE_PENALTY a tile, so that every score stays within
#: ±SCORE_LIMIT (a game's positive points stay far below SCORE_LIMIT − the largest penalty).
MAX_CARDS = 30
MAX_TILES = 12
MAX_TILE_PENALTY = 50
SCORE_LIMIT = 1000


def check_rule_data(data: Any) -> dict[str, Any]:
    """Merge ``data`` over the defaults and validate it; raises ``ValueError`` naming the key. Every
    accepted table gives games whose snapshots pass the snapshot check (bounds above)."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ValueError(f"rule_data must be a dict, got {type(data).__name__}")
    unknown = set(data) - set(DEFAULT_RULE_DATA)
    if unknown:
        raise ValueError(f"rule_data: unknown keys {sorted(unknown)}; known: {sorted(DEFAULT_RULE_DATA)}")
    merged = {key: data.get(key, value) for key, value in DEFAULT_RULE_DATA.items()}
    cards = merged["cards"]
    if not isinstance(cards, (list, tuple)) or not 1 <= len(cards) <= MAX_CARDS:
        raise ValueError(f"rule_data['cards'] must be a list of 1..{MAX_CARDS} [type, value] pairs")
    for i, card in enumerate(cards):
        if (
            not isinstance(card, (list, tuple)) or len(card) != 2 or card[0] not in CARD_TYPES
            or isinstance(card[1], bool) or card[1] not in CARD_VALUES
        ):
            raise ValueError(
                f"rule_data['cards'][{i}]={card!r} must be [type, value] with type in {CARD_TYPES} "
                f"and value in {CARD_VALUES}"
            )
    for key, lo, hi in (("panic_spaces", 1, TRACK_END - 1), ("three_player_tiles", 1, 3), ("two_player_tiles", 1, 3)):
        value = merged[key]
        longest = MAX_TILES if key.endswith("tiles") else hi
        if not isinstance(value, (list, tuple)) or len(value) > longest or any(
            isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi for v in value
        ):
            raise ValueError(f"rule_data[{key!r}] must be a list of at most {longest} integers in {lo}..{hi}")
    penalty = merged["unused_tile_penalty"]
    if isinstance(penalty, bool) or not isinstance(penalty, int) or not 0 <= penalty <= MAX_TILE_PENALTY:
        raise ValueError(f"rule_data['unused_tile_penalty'] must be an integer in 0..{MAX_TILE_PENALTY}")
    return {
        "cards": [[str(t), int(v)] for t, v in cards],
        "panic_spaces": sorted(set(int(v) for v in merged["panic_spaces"])),
        "three_player_tiles": [int(v) for v in merged["three_player_tiles"]],
        "unused_tile_penalty": int(penalty),
        "two_player_tiles": [int(v) for v in merged["two_player_tiles"]],
    }


# ---- start layouts (HB-3) --------------------------------------------------------------------
CENTRE = 4 * SIZE + 4
_CORNERS = (3 * SIZE + 3, 3 * SIZE + 5, 5 * SIZE + 3, 5 * SIZE + 5)
_EDGES = (3 * SIZE + 4, 4 * SIZE + 3, 4 * SIZE + 5, 5 * SIZE + 4)


def _knight(a: int, b: int) -> bool:
    dr, dc = abs(a // SIZE - b // SIZE), abs(a % SIZE - b % SIZE)
    return {dr, dc} == {1, 2}


def _layouts() -> tuple[tuple[int, ...], ...]:
    """All 48 valid start layouts as the 9 sheep squares (sheep ``2c`` before ``2c+1`` in reading order)."""
    from itertools import permutations

    found = []
    for corner_colours in permutations(range(4)):  # colour on each corner
        for edge_colours in permutations(range(4)):  # colour on each edge square
            ok = all(
                _knight(_CORNERS[i], _EDGES[edge_colours.index(c)]) for i, c in enumerate(corner_colours)
            )
            if not ok:
                continue
            squares = [0] * NUM_SHEEP
            for c in range(4):
                pair = sorted((_CORNERS[corner_colours.index(c)], _EDGES[edge_colours.index(c)]))
                squares[2 * c], squares[2 * c + 1] = pair
            squares[THEA] = CENTRE
            found.append(tuple(squares))
    return tuple(sorted(found))


START_LAYOUTS = _layouts()
#: the fixed layout ``B Y G / R Thea B / Y G R`` (HB-3 option)
FIXED_LAYOUT = (3 * 9 + 3, 4 * 9 + 5, 3 * 9 + 4, 5 * 9 + 3, 3 * 9 + 5, 5 * 9 + 4, 4 * 9 + 3, 5 * 9 + 5, CENTRE)
assert len(START_LAYOUTS) == 48 and FIXED_LAYOUT in START_LAYOUTS
