"""Text and picture renderings of a Haste Bock? game."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from meadowzoo.envs.haste_bock import data as D
from meadowzoo.envs.haste_bock.rules import PANIC, DECISIONS, HasteBockGame

ARROWS = "^>v<"
SHEPHERDS = {2: "Roger", 4: "Jacques"}
CARD_LABELS = ("step", "ram", "leap", "diag", "rowcol", "trough", "herd")


def _track_line(game: HasteBockGame) -> str:
    cells = []
    for t in range(D.TRACK_END + 1):
        if t == game.time:
            cells.append("X")
        elif t in (D.PEN_1, D.PEN_2):
            cells.append("#")
        elif t in game.panic_spaces:
            cells.append("*")
        else:
            cells.append(".")
        if t in (D.WALL_1, D.WALL_2):
            cells.append("|")
    return "".join(cells)


def _status(game: HasteBockGame) -> list[str]:
    lines = []
    for p in range(game.num_agents):
        hand = game.hands[p]
        cards = " ".join(
            f"{CARD_LABELS[k // 3]}{k % 3 + 1}" + (f"x{hand[k]}" if hand[k] > 1 else "")
            for k in range(len(hand)) if hand[k]
        )
        tiles = " ".join(str(v) for v in (1, 2, 3) for _ in range(game.tiles[p][v - 1]))
        mark = ">" if p == game.current_agent else " "
        lines.append(
            f"{mark} player_{p} ({D.COLOURS[p]}) score {game.points[p]:3d} | cards: {cards or '-'}"
            + (f" | tiles: {tiles or '-'}" if game.num_agents < 4 else "")
        )
    pending = DECISIONS[game.pending]
    if game.pending == PANIC:
        pending += f" (die: {D.DIE_FACES[game.die]})"
    if game.card_kind >= 0:
        pending += f" (card played: {D.CARD_TYPES[game.card_kind // 3]} {game.card_value})"
    forbidden = []
    if game.no_trough >= 0:
        forbidden.append(f"no trough {D.SIDE_NAMES[game.no_trough]}")
    if game.no_herd >= 0:
        forbidden.append(f"no herd {('cw', 'ccw')[game.no_herd]}")
    lines.append(f"pending: {pending}" + (f" | {', '.join(forbidden)}" if forbidden else ""))
    return lines


def ansi(game: HasteBockGame) -> str:
    """The pasture (sheep letter + facing arrow, Roger/Jacques at their edge), the track, scores."""
    phase = game.phase
    shepherd = SHEPHERDS.get(phase)
    arrow = ARROWS[game.facing]
    cells = [" ." for _ in range(D.SQUARES)]
    for s, sq in enumerate(game.pos):
        cells[sq] = D.SHEEP_LETTERS[s // 2] + arrow
    rows = [f"{r} " + " ".join(cells[r * 9 : r * 9 + 9]) for r in range(9)]
    side = game.facing
    if shepherd and side == 1:
        rows[4] += f"  <{shepherd}"
    if shepherd and side == 3:
        rows = [(f"{shepherd}> " if r == 4 else " " * (len(shepherd) + 2)) + row for r, row in enumerate(rows)]
    out = [
        f"Haste Bock?  time {game.time} (phase {phase})  facing {D.SIDE_NAMES[game.facing]}"
        + (f"  {shepherd} beyond {D.SIDE_NAMES[side]}" if shepherd else "")
    ]
    pad = " " * (len(shepherd) + 2) if shepherd and side == 3 else ""
    if shepherd and side == 0:
        out.append(pad + f"      v {shepherd} v")
    out.append(pad + "   " + "  ".join(str(c) for c in range(9)))
    out.extend(rows)
    if shepherd and side == 2:
        out.append(pad + f"      ^ {shepherd} ^")
    out.append("track " + _track_line(game) + "   (X marker, * panic, | wall, # pen)")
    out.extend(_status(game))
    return "\n".join(out)


# ---- picture ------------------------------------------------------------------------------------
CELL = 44
MARGIN = 36
SHEEP_RGB = ((50, 100, 220), (240, 205, 40), (50, 160, 60), (215, 45, 45), (25, 25, 25))
GRASS = (150, 200, 110)
GRASS_DARK = (130, 180, 95)
TRACK_CELL = 15


def _sheep(draw: ImageDraw.ImageDraw, cx: int, cy: int, colour: tuple, facing: int, label: str) -> None:
    r = CELL * 0.36
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=(250, 250, 250), width=2)
    dr, dc = D.DIRS[2 * facing]
    hx, hy = cx + dc * r * 0.95, cy + dr * r * 0.95  # the head on the facing side
    h = r * 0.42
    draw.ellipse((hx - h, hy - h, hx + h, hy + h), fill=(60, 45, 35), outline=(250, 250, 250))
    text_colour = (0, 0, 0) if colour == SHEEP_RGB[1] else (255, 255, 255)
    draw.text((cx - 3, cy - 6), label, fill=text_colour)


def rgb(game: HasteBockGame) -> np.ndarray:
    """A picture: the pasture with the sheep in their colours (head = facing), Roger or Jacques at
    their edge, and the time track (three rows of 25) with walls, pens, panic spaces and marker."""
    board_px = 9 * CELL
    width = board_px + 2 * MARGIN
    track_top = board_px + 2 * MARGIN + 8
    height = track_top + 3 * (TRACK_CELL + 8) + 18 * game.num_agents + 10
    image = Image.new("RGB", (width, height), (235, 230, 215))
    draw = ImageDraw.Draw(image)
    for r in range(9):
        for c in range(9):
            x, y = MARGIN + c * CELL, MARGIN + r * CELL
            draw.rectangle((x, y, x + CELL - 1, y + CELL - 1), fill=GRASS if (r + c) % 2 else GRASS_DARK)
    draw.rectangle((MARGIN - 3, MARGIN - 3, MARGIN + board_px + 2, MARGIN + board_px + 2), outline=(110, 80, 40), width=3)
    for s, sq in enumerate(game.pos):
        r, c = divmod(sq, 9)
        label = "T" if s == D.THEA else str(s % 2 + 1)
        _sheep(draw, MARGIN + c * CELL + CELL // 2, MARGIN + r * CELL + CELL // 2, SHEEP_RGB[s // 2], game.facing, label)
    shepherd = SHEPHERDS.get(game.phase)
    if shepherd:
        fill = (150, 90, 40) if game.phase == 2 else (120, 120, 140)
        mid, near, far = MARGIN + board_px // 2, 6, MARGIN + board_px + 6
        box = {
            0: (mid - 40, near, mid + 40, MARGIN - 8),
            2: (mid - 40, far, mid + 40, far + MARGIN - 14),
            1: (far, mid - 40, width - 6, mid + 40),
            3: (near, mid - 40, MARGIN - 8, mid + 40),
        }[game.facing]
        draw.rectangle(box, fill=fill, outline=(40, 30, 20))
        draw.text((box[0] + 3, (box[1] + box[3]) // 2 - 6), shepherd[0], fill=(255, 255, 255))
    # the time track
    for t in range(D.TRACK_END + 1):
        row, col = divmod(t, 25)
        x = MARGIN + col * (TRACK_CELL + 1)
        y = track_top + row * (TRACK_CELL + 8)
        fill = (255, 255, 255)
        if t in game.panic_spaces:
            fill = (255, 230, 150)
        draw.rectangle((x, y, x + TRACK_CELL, y + TRACK_CELL), fill=fill, outline=(120, 120, 120))
        if t in game.panic_spaces:  # a die pip
            draw.ellipse((x + 6, y + 6, x + 11, y + 11), fill=(40, 40, 40))
        if t in (D.PEN_1, D.PEN_2):
            draw.rectangle((x - 1, y - 1, x + TRACK_CELL + 1, y + TRACK_CELL + 1), outline=(90, 90, 90), width=3)
        if t in (D.WALL_1, D.WALL_2):
            draw.rectangle((x + TRACK_CELL + 1, y - 3, x + TRACK_CELL + 4, y + TRACK_CELL + 3), fill=(100, 100, 100))
        if t == game.time:
            draw.ellipse((x + 2, y + 2, x + TRACK_CELL - 2, y + TRACK_CELL - 2), fill=(0, 0, 0))
    y = track_top + 3 * (TRACK_CELL + 8)
    for p in range(game.num_agents):
        draw.rectangle((MARGIN, y + 2, MARGIN + 10, y + 12), fill=SHEEP_RGB[p])
        mark = "  <" if p == game.current_agent else ""
        draw.text((MARGIN + 16, y), f"player_{p}: {game.points[p]} points{mark}", fill=(0, 0, 0))
        y += 18
    return np.asarray(image, dtype=np.uint8)
