"""The Hase und Igel board as a :class:`~meadowzoo.envs.core.scene.Scene`, drawn from a seat's view
(:mod:`meadowzoo.envs.hase_und_igel.view`): the same serpentine track, square colours and figure
colours as the ``rgb_array`` picture (:mod:`meadowzoo.envs.hase_und_igel.render`), a panel with every
player's carrots and lettuces, and the hare deck as far as it is known. Each square carries the
anchor ``sq<k>`` (0 = Start, 64 = Goal)."""

from __future__ import annotations

from meadowzoo.envs.core.scene import Scene, hex_colour
from meadowzoo.envs.hase_und_igel import data
from meadowzoo.envs.hase_und_igel.render import (
    CELL, COLUMNS, HEADER, PLAYER_COLOURS, ROWS, SQUARE_COLOURS, SYMBOL, cell_origin,
)

PANEL = 300
LABEL = {data.START_SQUARE: "Start", data.GOAL_SQUARE: "Goal", data.HARE: "hare", data.CARROT: "carrot",
         data.LETTUCE: "lettuce", data.HEDGEHOG: "hedgehog", data.FLAG: "flag 1/5/6"}


def draw(view: dict) -> Scene:
    width = COLUMNS * CELL + PANEL
    height = HEADER + ROWS * CELL + 92
    scene = Scene(width, height, background="#3c6e3c")
    scene.text(8, 24, f"Hase und Igel   {view['status']}", size=15, fill="#ffffff", bold=True)
    for position, kind in enumerate(data.SQUARES):
        x, y = cell_origin(position)
        scene.rect(x + 2, y + 2, CELL - 4, CELL - 4, fill=hex_colour(SQUARE_COLOURS[kind]), stroke="#1e1e1e",
                   radius=4, anchor=f"sq{position}")
        scene.text(x + 5, y + 14, position, size=10, fill="#141414")
        label = LABEL.get(kind, SYMBOL[kind])
        scene.text(x + CELL / 2, y + CELL - 7, label, size=(8 if len(label) > 7 else 9) if kind in LABEL else 12,
                   fill="#141414", align="middle", bold=kind not in LABEL)
    stacked: dict[int, int] = {}
    for runner in view["runners"]:
        position = runner["pos"]
        x, y = cell_origin(position)
        k = stacked.get(position, 0)
        stacked[position] = k + 1
        cx, cy = x + 33 - (k % 3) * 11, y + 20 + (k // 3) * 11
        colour = PLAYER_COLOURS[runner["player"]]
        scene.circle(cx, cy, 9, fill=hex_colour(colour), stroke="#000000", width=2, anchor=f"sq{position}")
        ink = "#ffffff" if sum(colour) < 350 else "#000000"
        scene.text(cx, cy + 4, runner["label"][-1] if len(runner["label"]) > 1 else runner["label"], size=10,
                   fill=ink, align="middle", anchor=f"sq{position}")
    _panel(scene, view)
    _footer(scene, view, HEADER + ROWS * CELL + 22)
    return scene


def _panel(scene: Scene, view: dict) -> None:
    px = COLUMNS * CELL + 12
    for player, holdings in enumerate(view["players"]):
        y = HEADER + 4 + player * 38
        if player == view["current"]:
            scene.rect(px - 6, y - 4, PANEL - 12, 36, stroke="#ffe000", width=2, radius=4)
        scene.rect(px, y, 14, 14, fill=hex_colour(PLAYER_COLOURS[player]), stroke="#000000")
        team = f"  team {holdings['team']}" if holdings["team"] is not None else ""
        runners = ", ".join(_where(r) for r in view["runners"] if r["player"] == player)
        scene.text(px + 20, y + 12, f"player_{player}{team}: {runners}", size=12, fill="#ffffff", bold=True)
        scene.text(px + 20, y + 27, f"{holdings['carrots']} carrots, {holdings['lettuces']} lettuces", size=12,
                   fill="#ffffff")


def _where(runner: dict) -> str:
    if runner["place"]:
        where = f"home {runner['place']}."
    else:
        where = "Start" if runner["pos"] == 0 else f"on {runner['pos']}"
    flags = [text for key, text in (("eat", "eats"), ("miss", "misses"), ("payout", "payout")) if runner[key]]
    name = runner["label"][-1] + " " if len(runner["label"]) > 1 else ""
    return name + where + (f" ({', '.join(flags)})" if flags else "")


def _footer(scene: Scene, view: dict, y: int) -> None:
    deck = view["deck"]
    known = ", ".join(kind.replace("_", " ") for kind in deck["known"][:5])
    more = f" … ({len(deck['known'])} known)" if len(deck["known"]) > 5 else ""
    scene.text(8, y, f"hare deck: {deck['unseen']} cards face down on top; below them: {known or 'nothing known'}{more}",
               size=12, fill="#ffffff")
    last = deck["last"].replace("_", " ") if deck["last"] else "none yet"
    scene.text(8, y + 20, f"last hare card drawn: {last}", size=12, fill="#ffffff")
    if view["over"] and view["places"] is not None:
        order = sorted(range(len(view["places"])), key=view["places"].__getitem__)
        text = "   ".join(f"{view['places'][p] + 1}. player_{p}" for p in order)
        scene.text(8, y + 44, f"final places: {text}", size=14, fill="#ffe000", bold=True)
    elif view["current"] >= 0:
        scene.text(8, y + 44, f"player_{view['current']} to decide: {view['decision'].replace('_', ' ')}", size=13,
                   fill="#ffe000")
