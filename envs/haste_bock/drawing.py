"""The Haste Bock? pasture as a :class:`~meadowzoo.envs.core.scene.Scene`, drawn from a seat's view
(:mod:`meadowzoo.envs.haste_bock.view`): the same 9×9 checkered pasture, sheep colours (the head
shows the common facing), Roger / Jacques beyond the edge the flock faces and the time track with
walls, pens and panic spaces as the ``rgb_array`` picture (:mod:`meadowzoo.envs.haste_bock.render`),
and a panel with every player's score, action cards and time tiles.

Anchors: ``sq<k>`` on squares and sheep; ``side-N`` … on the fence sides (trough); ``herd-cw`` /
``herd-ccw`` on the herd arrows; ``card-<kind>`` and ``tile-<v>`` on the cards and tiles of the
player to move only (another player's cards are not played by clicking).
"""

from __future__ import annotations

from meadowzoo.envs.core.scene import Scene, hex_colour
from meadowzoo.envs.haste_bock import data as D
from meadowzoo.envs.haste_bock.render import GRASS, GRASS_DARK, SHEEP_RGB

CELL = 50
MARGIN = 44
PANEL = 330
TRACK_CELL = 17
DIE_COLOURS = {"blue": SHEEP_RGB[0], "yellow": SHEEP_RGB[1], "green": SHEEP_RGB[2], "red": SHEEP_RGB[3],
               "black": SHEEP_RGB[4], "white": (250, 250, 250)}


def draw(view: dict) -> Scene:
    board = 9 * CELL
    track_top = board + 2 * MARGIN + 10
    width = board + 2 * MARGIN + PANEL
    height = max(track_top + 3 * (TRACK_CELL + 8) + 40, 120 + 132 * view["num_players"])
    scene = Scene(width, height, background="#ebe6d7")
    facing = D.SIDE_NAMES.index(view["facing"])
    _fence(scene, view, facing)
    for sq in range(D.SQUARES):
        r, c = divmod(sq, 9)
        scene.rect(MARGIN + c * CELL, MARGIN + r * CELL, CELL, CELL,
                   fill=hex_colour(GRASS if (r + c) % 2 else GRASS_DARK), anchor=f"sq{sq}")
    for sheep in view["sheep"]:
        r, c = divmod(sheep["square"], 9)
        _sheep(scene, MARGIN + c * CELL + CELL / 2, MARGIN + r * CELL + CELL / 2, sheep, facing)
    _track(scene, view, track_top)
    _panel(scene, view, board + 2 * MARGIN + 8)
    return scene


def _fence(scene: Scene, view: dict, facing: int) -> None:
    board = 9 * CELL
    lo, hi = MARGIN - 12, MARGIN + board + 2
    sides = {"N": (MARGIN, lo, board, 10), "S": (MARGIN, hi, board, 10),
             "W": (lo, MARGIN, 10, board), "E": (hi, MARGIN, 10, board)}
    for side, (x, y, w, h) in sides.items():  # the trough goes to a side: click the fence there
        scene.rect(x, y, w, h, fill="#8c6428", stroke="#503214", anchor=f"side-{side}")
    scene.rect(MARGIN - 2, MARGIN - 2, board + 4, board + 4, stroke="#6e5028", width=3)
    if view["shepherd"]:
        mid = MARGIN + board / 2
        box = {0: (mid - 45, 2, 90, 26), 2: (mid - 45, hi + 14, 90, 26),
               1: (hi + 14, mid - 45, MARGIN - 18, 90), 3: (2, mid - 45, MARGIN - 18, 90)}[facing]
        scene.rect(*box, fill="#965a28" if view["phase"] == 2 else "#78788c", stroke="#281e14", radius=4)
        scene.text(box[0] + box[2] / 2, box[1] + box[3] / 2 + 5, view["shepherd"] if facing in (0, 2)
                   else view["shepherd"][0], size=12, fill="#ffffff", align="middle", bold=True)


def _sheep(scene: Scene, cx: float, cy: float, sheep: dict, facing: int) -> None:
    r = CELL * 0.36
    colour = SHEEP_RGB[sheep["colour"]]
    anchor = f"sq{sheep['square']}"
    scene.circle(cx, cy, r, fill=hex_colour(colour), stroke="#fafafa", width=2, anchor=anchor)
    dr, dc = D.DIRS[2 * facing]
    scene.circle(cx + dc * r * 0.95, cy + dr * r * 0.95, r * 0.42, fill="#3c2d23", stroke="#fafafa", anchor=anchor)
    label = "Thea" if sheep["name"] == "thea" else sheep["name"][-1]
    ink = "#000000" if sheep["colour"] == 1 else "#ffffff"
    scene.text(cx, cy + 4, label, size=10 if label == "Thea" else 12, fill=ink, align="middle", bold=True,
               anchor=anchor)


def _track(scene: Scene, view: dict, top: int) -> None:
    panic = set(view["panic_spaces"])
    scene.text(MARGIN, top - 4, f"time {view['time']}  (phase {view['phase']})", size=12, fill="#000000")
    for t in range(D.TRACK_END + 1):
        row, col = divmod(t, 25)
        x, y = MARGIN + col * (TRACK_CELL + 1), top + 4 + row * (TRACK_CELL + 8)
        scene.rect(x, y, TRACK_CELL, TRACK_CELL, fill="#ffe696" if t in panic else "#ffffff",
                   stroke="#5a5a5a" if t in (D.PEN_1, D.PEN_2) else "#787878", width=3 if t in (D.PEN_1, D.PEN_2) else 1)
        if t in panic:
            scene.circle(x + TRACK_CELL / 2, y + TRACK_CELL / 2, 3, fill="#282828")
        if t in (D.WALL_1, D.WALL_2):
            scene.rect(x + TRACK_CELL + 1, y - 3, 3, TRACK_CELL + 6, fill="#646464")
        if t == view["time"]:
            scene.circle(x + TRACK_CELL / 2, y + TRACK_CELL / 2, TRACK_CELL / 2 - 2, fill="#000000")


def _panel(scene: Scene, view: dict, px: int) -> None:
    current = view["current"]
    y = 26
    if view["over"]:
        order = sorted(range(view["num_players"]), key=view["places"].__getitem__)
        scene.text(px, y, "game over: " + "  ".join(f"{view['places'][p] + 1}. player_{p}" for p in order),
                   size=13, fill="#000000", bold=True)
    else:
        what = view["decision"] + (f" (die: {view['die']})" if view["die"] else "")
        scene.text(px, y, f"player_{current} to decide: {what}", size=13, fill="#000000", bold=True)
        if view["die"]:
            scene.rect(px + 250, y - 15, 20, 20, fill=hex_colour(DIE_COLOURS[view["die"]]), stroke="#000000", radius=3)
    notes = []
    if view["card_played"]:
        notes.append(f"card played: {view['card_played']['type']} {view['card_played']['value']}")
    if view["no_trough"]:
        notes.append(f"no trough {view['no_trough']}")
    if view["no_herd"]:
        notes.append(f"no herd {view['no_herd']}")
    scene.text(px, y + 18, "  ·  ".join(notes), size=11, fill="#000000")
    for arrow, (dx, symbol) in (("cw", (0, "herd clockwise")), ("ccw", (110, "herd counter-cw"))):
        scene.rect(px + dx, y + 28, 100, 24, fill="#d2c8aa", stroke="#503214", radius=4, anchor=f"herd-{arrow}")
        scene.text(px + dx + 50, y + 45, symbol, size=12, fill="#000000", align="middle", anchor=f"herd-{arrow}")
    for p, player in enumerate(view["players"]):
        _player(scene, view, px, y + 70 + p * 132, p, player, p == current)


def _player(scene: Scene, view: dict, px: int, y: int, p: int, player: dict, moving: bool) -> None:
    if moving:
        scene.rect(px - 5, y - 4, PANEL - 12, 128, stroke="#c89600", width=3, radius=5)
    scene.rect(px, y, 14, 14, fill=hex_colour(SHEEP_RGB[p]), stroke="#000000")
    scene.text(px + 20, y + 12, f"player_{p} ({player['colour']}): {player['score']} points", size=13,
               fill="#000000", bold=True)
    for i, card in enumerate(player["hand"]):
        cx, cy = px + (i % 6) * 52, y + 22 + (i // 6) * 40
        anchor = f"card-{card['kind']}" if moving else None
        scene.rect(cx, cy, 48, 36, fill="#fffaf0", stroke="#5a4632", radius=4, anchor=anchor)
        scene.text(cx + 24, cy + 15, card["type"].replace(" caravan", "").replace("row/column", "row/col"), size=10,
                   fill="#000000", align="middle", anchor=anchor)
        count = f" x{card['count']}" if card["count"] > 1 else ""
        scene.text(cx + 24, cy + 30, f"{card['value']}{count}", size=11, fill="#000000", align="middle", bold=True,
                   anchor=anchor)
    if player["tiles"] is not None:
        scene.text(px, y + 118, "tiles:", size=11, fill="#000000")
        x = px + 40
        for value, count in zip((1, 2, 3), player["tiles"]):
            for _ in range(count):
                anchor = f"tile-{value}" if moving else None
                scene.rect(x, y + 105, 16, 16, fill="#c8dcf0", stroke="#324664", radius=3, anchor=anchor)
                scene.text(x + 8, y + 118, value, size=11, fill="#000000", align="middle", anchor=anchor)
                x += 19
