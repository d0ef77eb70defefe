"""Precomputed geometry of the 9×9 pasture, built once at import: rays, neighbours, caravan lines,
trough groups, shepherd row distances and adjacency scores. All plain tuples of ints."""

from __future__ import annotations

from meadowzoo.envs.haste_bock.data import DIRS, SIZE, SQUARES


def square_name(sq: int) -> str:
    return f"r{sq // SIZE}c{sq % SIZE}"


def _on(r: int, c: int) -> bool:
    return 0 <= r < SIZE and 0 <= c < SIZE


def _ray(sq: int, d: int) -> tuple[int, ...]:
    r, c = divmod(sq, SIZE)
    dr, dc = DIRS[d]
    out = []
    r, c = r + dr, c + dc
    while _on(r, c):
        out.append(r * SIZE + c)
        r, c = r + dr, c + dc
    return tuple(out)


#: RAYS[sq][d]: the squares from ``sq`` (exclusive) to the fence in direction ``d``
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(tuple(_ray(sq, d) for d in range(8)) for sq in range(SQUARES))
#: STEP[sq][d]: the neighbouring square in direction ``d`` or -1 beyond the fence
STEP: tuple[tuple[int, ...], ...] = tuple(tuple(r[0] if r else -1 for r in rays) for rays in RAYS)
#: RAY_MASKS[sq][d]: the squares of RAYS[sq][d] as a bit mask (bit ``s`` = square ``s``)
RAY_MASKS: tuple[tuple[int, ...], ...] = tuple(tuple(sum(1 << s for s in r) for r in rays) for rays in RAYS)


# ---- caravan lines (HB-15) ---------------------------------------------------------------------
def _lines() -> tuple[list, list, list]:
    lines, dirs, names = [], [], []
    # "\" diagonals (r - c constant), positive direction SE, named by their north-most square
    for k in range(-(SIZE - 2), SIZE - 1):
        sq = [r * SIZE + (r - k) for r in range(SIZE) if 0 <= r - k < SIZE]
        lines.append(tuple(sq)), dirs.append((3, 7)), names.append(f"diagonal caravan {square_name(sq[0])}")
    # "/" diagonals (r + c constant), positive direction NE (from the south-west end)
    for k in range(1, 2 * SIZE - 2):
        sq = [r * SIZE + (k - r) for r in range(SIZE - 1, -1, -1) if 0 <= k - r < SIZE]
        lines.append(tuple(sq)), dirs.append((1, 5)), names.append(f"diagonal caravan {square_name(sq[-1])}")
    for r in range(SIZE):
        lines.append(tuple(r * SIZE + c for c in range(SIZE))), dirs.append((2, 6)), names.append(f"row caravan {r}")
    for c in range(SIZE):
        lines.append(tuple(r * SIZE + c for r in range(SIZE))), dirs.append((4, 0)), names.append(f"column caravan {c}")
    return lines, dirs, names


_L, _D, _N = _lines()
#: LINES[i]: squares of caravan line ``i`` in its positive direction; 0..29 diagonals, 30..47 rows/columns
LINES: tuple[tuple[int, ...], ...] = tuple(_L)
#: LINE_DIRS[i]: (positive, negative) direction index of line ``i``
LINE_DIRS: tuple[tuple[int, int], ...] = tuple(_D)
LINE_NAMES: tuple[str, ...] = tuple(_N)
NUM_DIAGONALS = 30
NUM_LINES = len(LINES)
#: SQ_LINES[sq]: (line id, index in line) of every caravan line through ``sq``
SQ_LINES: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((i, line.index(sq)) for i, line in enumerate(LINES) if sq in line) for sq in range(SQUARES)
)
#: SQ_LINE_IDS[sq]: ids of the caravan lines through ``sq``
SQ_LINE_IDS: tuple[tuple[int, ...], ...] = tuple(tuple(i for i, _ in lines) for lines in SQ_LINES)


# ---- sides: trough (HB-16) and shepherd rows (HB-21) --------------------------------------------
def _side_tables():
    group, key, back = [], [], []
    for side in range(4):  # N E S W
        g, k, b = [0] * SQUARES, [0] * SQUARES, [0] * SQUARES
        for sq in range(SQUARES):
            r, c = divmod(sq, SIZE)
            gg, kk = ((c, r), (r, SIZE - 1 - c), (c, SIZE - 1 - r), (r, c))[side]
            g[sq], k[sq] = gg, kk
            b[gg * SIZE + kk] = sq
        group.append(tuple(g)), key.append(tuple(k)), back.append(tuple(b))
    return tuple(group), tuple(key), tuple(back)


#: SIDE_GROUP[side][sq]: the column (N/S) or row (E/W) a sheep slides along towards ``side``
#: SIDE_DIST[side][sq]: distance of ``sq`` from the ``side`` edge (0 = on the edge row); this is
#: both the trough key and the row distance from Roger/Jacques standing beyond that edge
#: SIDE_SQUARE[side][group * 9 + dist]: the square back from (group, dist)
SIDE_GROUP, SIDE_DIST, SIDE_SQUARE = _side_tables()
#: SIDE_OFFSET[side]: square offset of one step towards ``side`` (N E S W)
SIDE_OFFSET = (-SIZE, 1, SIZE, -1)

#: ADJ[a * 81 + b]: 2 if orthogonally adjacent, 1 if diagonally adjacent, else 0 (HB-19, HB-20)
ADJ: tuple[int, ...] = tuple(
    (2 if abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE) == 1 else 1)
    if max(abs(a // SIZE - b // SIZE), abs(a % SIZE - b % SIZE)) == 1 else 0
    for a in range(SQUARES) for b in range(SQUARES)
)
