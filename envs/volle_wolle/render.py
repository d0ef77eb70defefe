"""Pictures of a Volle Wolle game: ``ansi`` text and an ``rgb_array`` drawn with Pillow."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from meadowzoo.envs.volle_wolle import data, rules
from meadowzoo.envs.volle_wolle.data import BID_NAMES, DIE_NAMES, card_label
from meadowzoo.envs.volle_wolle.rules import VolleWolleGame

_PHASE_TEXT = ("bidding", "rolling", "black sheep choice", "picking cards", "game over")


def _dice_text(game: VolleWolleGame) -> str:
    if game.pending not in (rules.ROLL, rules.BLACK_CHOICE):
        return "dice: -"
    kept = [DIE_NAMES[d] for d in range(3) if game.kept >> d & 1]
    parts = " ".join(f"{name}={v}" for name, v in zip(DIE_NAMES, game.dice))
    return (
        f"dice: {parts} (set aside: {', '.join(kept) or 'none'}) attempt {game.attempt}: "
        f"result {game.base}, bonus +{game.bonus}, target {game.target}"
    )


def _bid_text(game: VolleWolleGame, p: int) -> str:
    if game.revealed:
        return f"bid {BID_NAMES[game.bids[p]]} (#{game.order.index(p) + 1})"
    return "has bid" if game.pending == rules.BID and p < game.cur else "bidding"


def render_ansi(game: VolleWolleGame, last_action: tuple[str, int] | None = None) -> str:
    deck = game.deck
    lines = [
        f"Volle Wolle  round {game.round}  pile {len(game.pile)}  supply {game.supply} wool  "
        f"— {_PHASE_TEXT[game.pending]}" + (f", player_{game.cur} to act" if game.pending != rules.OVER else ""),
        "display: " + "  ".join(
            f"[{s + 1}] {card_label(deck, c) if c >= 0 else '--'}" for s, c in enumerate(game.display)
        ),
        _dice_text(game),
    ]
    if last_action is not None:
        lines.append(f"last: {last_action[0]} {rules._ACTION_NAMES[last_action[1]]}")
    scores = game.scores()
    for p in range(game.num_agents):
        top = game.top_card(p)
        c = game.counts[p]
        lines.append(
            f"player_{p}: {_bid_text(game, p):14s} top {card_label(deck, top) if top >= 0 else '-':10s} "
            f"white {c[0]} black {c[1]} 3-7-0 {c[2]} 0-0-7 {c[3]}  dogs {len(game.dogs[p])}"
            f"{'  BONE' if game.bone == p else ''}  wool {game.wool[p]}  points {scores[p]}"
        )
    return "\n".join(lines)


_KIND_COLOUR = {
    data.WHITE: (250, 250, 245),
    data.BLACK: (45, 45, 50),
    data.K370: (235, 205, 120),
    data.K007: (160, 200, 235),
    data.DOG: (190, 140, 90),
    data.BONE: (230, 225, 210),
}
_CARD_W, _CARD_H = 70, 96


def _card(draw: ImageDraw.ImageDraw, deck: data.Deck, card: int, x: int, y: int, scale: float = 1.0) -> None:
    w, h = int(_CARD_W * scale), int(_CARD_H * scale)
    if card < 0:
        draw.rounded_rectangle((x, y, x + w, y + h), radius=6, outline=(120, 140, 110), width=2)
        return
    kind = deck.kind[card]
    ink = (255, 255, 255) if kind == data.BLACK else (20, 20, 20)
    draw.rounded_rectangle((x, y, x + w, y + h), radius=6, fill=_KIND_COLOUR[kind], outline=(30, 30, 30), width=2)
    if kind in (data.WHITE, data.BLACK):
        draw.text((x + 5, y + 4), str(deck.points[card]), fill=ink)
        mod = "bone" if deck.bone_symbol[card] else (f"{deck.modifier[card]:+d}" if deck.modifier[card] else "")
        draw.text((x + w - 6 * len(mod) - 6, y + 4), mod, fill=(200, 30, 30) if deck.modifier[card] < 0 else ink)
        draw.ellipse((x + w // 4, y + h // 3, x + 3 * w // 4, y + 2 * h // 3), fill=(200, 200, 200) if kind == data.WHITE else (10, 10, 10), outline=ink)
    else:
        draw.text((x + 6, y + h // 2 - 6), data.KIND_NAMES[kind].upper(), fill=ink)
    if deck.number[card]:
        draw.text((x + w - 18, y + h - 14), str(deck.number[card]), fill=ink)


def render_rgb(game: VolleWolleGame) -> np.ndarray:
    deck = game.deck
    n = game.num_agents
    width = max(720, 20 + (n + 1) * (_CARD_W + 12) + 260)
    height = 170 + n * 76
    image = Image.new("RGB", (width, height), (95, 150, 80))
    draw = ImageDraw.Draw(image)
    draw.text((10, 6), f"Volle Wolle  round {game.round}  pile {len(game.pile)}  supply {game.supply}  {_PHASE_TEXT[game.pending]}", fill=(255, 255, 255))
    for slot, card in enumerate(game.display):
        x = 10 + slot * (_CARD_W + 12)
        _card(draw, deck, card, x, 26)
        draw.text((x + 2, 26 + _CARD_H + 2), str(slot + 1), fill=(255, 255, 255))
    dx = 30 + (n + 1) * (_CARD_W + 12)
    rolled = game.pending in (rules.ROLL, rules.BLACK_CHOICE)
    for d, (name, sides) in enumerate(zip(DIE_NAMES, data.DICE)):
        x = dx + d * 62
        kept = rolled and game.kept >> d & 1
        draw.rounded_rectangle((x, 40, x + 50, 90), radius=8, fill=(255, 240, 200) if kept else (255, 255, 255), outline=(0, 0, 0), width=3 if kept else 1)
        draw.text((x + 18, 58), str(game.dice[d]) if rolled else "-", fill=(0, 0, 0))
        draw.text((x + 12, 94), name, fill=(255, 255, 255))
    if rolled:
        draw.text((dx, 112), f"attempt {game.attempt}: {game.base} (+{game.bonus}) / {game.target}", fill=(255, 255, 255))
    scores = game.scores()
    for p in range(n):
        y = 150 + p * 76
        if p == game.current_agent:
            draw.rectangle((4, y - 4, width - 4, y + 70), outline=(255, 230, 0), width=2)
        draw.text((10, y), f"player_{p}", fill=(255, 255, 255))
        draw.text((10, y + 16), _bid_text(game, p), fill=(255, 255, 255))
        draw.text((10, y + 32), f"points {scores[p]}", fill=(255, 255, 255))
        _card(draw, deck, game.top_card(p), 130, y, scale=0.7)
        draw.text((190, y), f"herd {len(game.herd[p])}", fill=(255, 255, 255))
        for k in range(len(game.dogs[p])):
            draw.rectangle((190 + k * 18, y + 20, 204 + k * 18, y + 34), fill=_KIND_COLOUR[data.DOG], outline=(0, 0, 0))
        if game.bone == p:
            draw.ellipse((190, y + 42, 230, y + 54), fill=_KIND_COLOUR[data.BONE], outline=(0, 0, 0))
        for k in range(game.wool[p]):
            cx = 360 + (k % 13) * 18
            cy = y + 8 + (k // 13) * 18
            draw.ellipse((cx, cy, cx + 14, cy + 14), fill=(245, 245, 235), outline=(90, 90, 90))
    return np.asarray(image, dtype=np.uint8)
