"""The Volle Wolle table as a :class:`~meadowzoo.envs.core.scene.Scene`, drawn from a seat's view
(:mod:`meadowzoo.envs.volle_wolle.view`): the display cards, the three dice, every player's herd
(top card last), dogs, bone, wool and bid, in the card colours of the ``rgb_array`` picture
(:mod:`meadowzoo.envs.volle_wolle.render`). A seat about to bid also sees its 13 betting choices.

Anchors: ``slot-<s>`` on display cards, ``die-<d>`` on the dice, ``bid-<b>`` on the betting choices.
"""

from __future__ import annotations

from meadowzoo.envs.core.scene import Scene, hex_colour
from meadowzoo.envs.volle_wolle import data
from meadowzoo.envs.volle_wolle.render import _KIND_COLOUR

CARD_W, CARD_H = 70, 96
KIND_COLOUR = {data.KIND_NAMES[kind]: hex_colour(rgb) for kind, rgb in _KIND_COLOUR.items()}
ROW = 92
WOOL_PER_ROW = 20  # wool tokens drawn per line (two lines at most)
PHASE_TEXT = {"bid": "bidding", "roll": "rolling", "black": "black sheep choice", "pick": "picking cards",
              "over": "game over"}


def draw(view: dict) -> Scene:
    n = view["num_players"]
    width = max(900, 30 + (n + 1) * (CARD_W + 12) + 300)
    bidding = view["decision"] == "bid" and view["viewer"] is not None and view["viewer"] == view["current"]
    top = 190 + (70 if bidding else 0)
    scene = Scene(width, top + n * ROW + 40, background="#5f9650")
    head = f"Volle Wolle   round {view['round']}   pile {view['pile']}   wool in supply {view['supply']}   "
    scene.text(10, 20, head + PHASE_TEXT[view["decision"]], size=15, fill="#ffffff", bold=True)
    for slot, face in enumerate(view["display"]):
        x = 10 + slot * (CARD_W + 12)
        card(scene, face, x, 32, anchor=f"slot-{slot}")
        scene.text(x + CARD_W / 2, 32 + CARD_H + 16, f"card {slot + 1}", size=11, fill="#ffffff", align="middle")
    _dice(scene, view, 40 + (n + 1) * (CARD_W + 12))
    if bidding:
        scene.text(10, 178, "your bid (secret until everybody has bid):", size=12, fill="#ffffff")
        for b, name in enumerate(data.BID_NAMES):
            x = 10 + b * 46
            scene.rect(x, 186, 40, 52, fill="#fff5dc", stroke="#3c2814", width=2, radius=5, anchor=f"bid-{b}")
            scene.text(x + 20, 218, name, size=14, fill="#000000", align="middle", bold=True, anchor=f"bid-{b}")
    for p, player in enumerate(view["players"]):
        _player(scene, view, p, player, top + p * ROW, width)
    if view["over"]:
        order = sorted(range(n), key=view["places"].__getitem__)
        scene.text(10, top + n * ROW + 24, "final places: " + "   ".join(
            f"{view['places'][p] + 1}. player_{p} ({view['players'][p]['points']})" for p in order),
            size=14, fill="#ffe000", bold=True)
    return scene


def card(scene: Scene, face: dict | None, x: float, y: float, scale: float = 1.0, anchor: str | None = None) -> None:
    """One card face (an empty outline for ``None``)."""
    w, h = CARD_W * scale, CARD_H * scale
    if face is None:
        scene.rect(x, y, w, h, stroke="#788c6e", width=2, radius=6)
        return
    kind = face["kind"]
    ink = "#ffffff" if kind == "black" else "#141414"
    scene.rect(x, y, w, h, fill=KIND_COLOUR[kind], stroke="#1e1e1e", width=2, radius=6, anchor=anchor)
    size = max(9, round(13 * scale))
    if kind in ("white", "black"):
        scene.text(x + 5, y + size + 3, face["points"], size=size, fill=ink, bold=True, anchor=anchor)
        mod = "bone" if face["bone_symbol"] else (f"{face['modifier']:+d}" if face["modifier"] else "")
        scene.text(x + w - 5, y + size + 3, mod, size=size, fill="#c81e1e" if face["modifier"] < 0 else ink,
                   align="end", anchor=anchor)
        scene.ellipse(x + w / 2, y + h / 2 + 2, w / 4, h / 6, fill="#c8c8c8" if kind == "white" else "#0a0a0a",
                      stroke=ink, anchor=anchor)
    else:
        scene.text(x + w / 2, y + h / 2 + 4, kind.upper(), size=size, fill=ink, align="middle", bold=True,
                   anchor=anchor)
    if face["number"]:
        scene.text(x + w - 4, y + h - 5, face["number"], size=max(8, round(10 * scale)), fill=ink, align="end",
                   anchor=anchor)


def _dice(scene: Scene, view: dict, dx: float) -> None:
    dice = view["dice"]
    for d, name in enumerate(data.DIE_NAMES):
        x = dx + d * 64
        kept = bool(dice and dice["kept"][d])
        scene.rect(x, 40, 52, 52, fill="#fff0c8" if kept else "#ffffff", stroke="#000000", width=3 if kept else 1,
                   radius=8, anchor=f"die-{d}")
        scene.text(x + 26, 74, dice["values"][d] if dice else "-", size=20, fill="#000000", align="middle", bold=True,
                   anchor=f"die-{d}")
        scene.text(x + 26, 108, name + (" (aside)" if kept else ""), size=11, fill="#ffffff", align="middle")
    if dice:
        scene.text(dx, 132, f"attempt {dice['attempt']}: result {dice['result']} (+{dice['bonus']} bonus), "
                            f"target {dice['target']}", size=12, fill="#ffffff")
    if view["picks"]:
        eligible = [c for c in view["display"] if c and (c["kind"] == "black" or not view["black_only"])]
        what = "black sheep" if view["black_only"] else "cards"
        count = "all the" if view["picks"] >= len(eligible) else f"{view['picks']} more"
        scene.text(dx, 152, f"player_{view['current']} takes {count} {what}", size=12, fill="#ffffff")


def _player(scene: Scene, view: dict, p: int, player: dict, y: float, width: float) -> None:
    if p == view["current"]:
        scene.rect(4, y - 4, width - 8, ROW - 6, stroke="#ffe600", width=2, radius=5)
    you = " (you)" if p == view["viewer"] else ""
    scene.text(10, y + 14, f"player_{p}{you}", size=13, fill="#ffffff", bold=True)
    if player["bid"] is not None:
        bid = f"bid {player['bid']}" + (f"  (#{player['order']})" if player["order"] else "")
    else:
        bid = "has bid (secret)" if player["has_bid"] else "no bid yet"
    scene.text(10, y + 32, bid, size=12, fill="#ffffff")
    scene.text(10, y + 50, f"{player['points']} points", size=12, fill="#ffffff")
    scene.text(10, y + 68, f"betting card {player['back']}", size=11, fill="#dcdcdc")
    herd = player["herd"]
    for i, face in enumerate(herd[-12:]):  # the herd from the bottom up; the top card last
        card(scene, face, 150 + i * 26, y, scale=0.8)
    x = 150 + max(0, min(len(herd), 12) - 1) * 26 + 70
    counts = player["counts"]
    scene.text(x, y + 14, f"herd {len(herd)}: white {counts['white']}, black {counts['black']}, "
                          f"3-7-0 {counts['3-7-0']}, 0-0-7 {counts['0-0-7']}", size=11, fill="#ffffff")
    for k in range(player["dogs"]):
        scene.rect(x + k * 20, y + 24, 16, 16, fill=KIND_COLOUR["dog"], stroke="#000000", radius=3)
    scene.text(x + player["dogs"] * 20 + 2, y + 37, f"{player['dogs']} dogs" + ("   + BONE" if player["bone"] else ""),
               size=11, fill="#ffffff")
    # the count first, then at most two rows of tokens: a third row (or a label under them) would
    # run into the next player's row, and the count is exact however many are drawn
    scene.text(x, y + 61, f"wool {player['wool']}", size=11, fill="#ffffff")
    for k in range(min(player["wool"], 2 * WOOL_PER_ROW)):
        scene.circle(x + 62 + (k % WOOL_PER_ROW) * 16, y + 56 + (k // WOOL_PER_ROW) * 16, 7,
                     fill="#f5f5eb", stroke="#5a5a5a")
