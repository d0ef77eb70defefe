"""Text and picture rendering of a Hase und Igel game (no game logic here)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from meadowzoo.envs.hase_und_igel import data
from meadowzoo.envs.hase_und_igel.rules import DECISIONS, HaseUndIgelGame

SYMBOL = {
    data.START_SQUARE: "S", data.GOAL_SQUARE: "Z", data.HARE: "H", data.CARROT: "C", data.LETTUCE: "L",
    data.HEDGEHOG: "I", data.FLAG: "F", data.NUM2: "2", data.NUM3: "3", data.NUM4: "4",
}
LEGEND = "S start  H hare  C carrot  L lettuce  I hedgehog (Igel)  2/3/4 number  F flag (1/5/6)  Z goal"
# the six figures of the 1978 box: white, yellow, orange, red, green, blue
PLAYER_COLOURS = [(245, 245, 245), (240, 200, 40), (240, 130, 30), (210, 40, 40), (40, 150, 60), (40, 90, 200)]
SQUARE_COLOURS = {
    data.START_SQUARE: (200, 200, 200), data.GOAL_SQUARE: (200, 200, 200), data.HARE: (190, 160, 120),
    data.CARROT: (245, 150, 60), data.LETTUCE: (120, 200, 90), data.HEDGEHOG: (130, 100, 80),
    data.FLAG: (120, 170, 230), data.NUM2: (230, 220, 150), data.NUM3: (230, 220, 150), data.NUM4: (230, 220, 150),
}


def runner_label(game: HaseUndIgelGame, runner: int) -> str:
    player = runner // game.rpp
    return f"{player}{'AB'[runner % 2]}" if game.rpp == 2 else str(player)


def describe(game: HaseUndIgelGame, event: tuple) -> str:
    """Text of one game event (see ``HaseUndIgelGame.log``)."""
    kind, runner, *rest = event
    who = game.runner_name(runner)
    texts = {
        "stay": lambda square: f"{who} stays on carrot square {square}",
        "miss": lambda: f"{who} misses a turn",
        "payout": lambda position, gain: f"{who} is in position {position}: +{gain} carrots",
        "eat": lambda gain: f"{who} eats a lettuce: +{gain} carrots",
        "no_lettuce": lambda: f"{who} has no lettuce left and misses the turn",
        "final_stretch": lambda hedgehog: f"{who} cannot finish: back to hedgehog {hedgehog}",
        "stuck": lambda carrots: f"{who} is stuck: back to Start with {carrots} carrots",
        "finish": lambda place: f"{who} finishes {place}.",
        "draw": lambda card: f"{who} draws '{data.CARD_KINDS[card].replace('_', ' ')}'",
        "decline": lambda: f"{who} declines the extra move",
    }
    return texts[kind](*rest)


def status_line(game: HaseUndIgelGame) -> str:
    if game.over:
        return f"turn {game.turn}: game over, places {game.final_places}"
    return f"turn {game.turn}: player_{game.cur} to move ({DECISIONS[game.pending].replace('_', ' ')})"


def ansi(game: HaseUndIgelGame, last_action: str) -> str:
    lines = [f"Hase und Igel  {status_line(game)}", f"last action: {last_action}"]
    lines += [f"  - {describe(game, event)}" for event in game.log]
    at = {p: runner_label(game, r) for r, p in enumerate(game.pos) if 0 < p < data.GOAL}
    for row in range(4):
        squares = range(row * 16, row * 16 + 16)
        lines.append(" ".join(f"{s:>3}" for s in squares))
        lines.append(" ".join(f"{SYMBOL[data.SQUARES[s]]:>3}" for s in squares))
        lines.append(" ".join(f"{at.get(s, '.' if s else ''):>3}" for s in squares))
    start = [runner_label(game, r) for r, p in enumerate(game.pos) if p == data.START]
    home = sorted((game.place[r], runner_label(game, r)) for r in range(game.num_runners) if game.place[r])
    lines.append(f"Start: {' '.join(start) or '-'}    Goal: {' '.join(f'{k}.{label}' for k, label in home) or '-'}")
    lines.append(LEGEND)
    for player in range(game.num_agents):
        runners = [r for r in range(player * game.rpp, (player + 1) * game.rpp)]
        where = ", ".join(_runner_state(game, r) for r in runners)
        team = f" team {game.team_of[player]}" if game.team_layout else ""
        lines.append(f"player_{player}{team}: {game.carrots[player]:>4} carrots, {game.lettuces[player]} lettuces; {where}")
    known = [data.CARD_KINDS[c] for c in game.deck[game.known_from:]]
    lines.append(f"hare deck: {game.known_from} unseen on top, then {', '.join(known) if known else 'nothing known'}")
    return "\n".join(lines)


def _runner_state(game: HaseUndIgelGame, runner: int) -> str:
    pos = game.pos[runner]
    where = "home" if game.place[runner] else ("Start" if pos == 0 else f"on {pos} ({data.SQUARES[pos]})")
    flags = [name for name, on in (("eats next", game.eat[runner]), ("misses next", game.miss[runner]),
                                   ("payout check", game.payout[runner])) if on]
    return f"{runner_label(game, runner)} {where}" + (f" [{', '.join(flags)}]" if flags else "")


# ---- picture -------------------------------------------------------------------------------------
CELL = 48
COLUMNS = 13
ROWS = 5
HEADER = 36
PANEL = 300


def cell_origin(position: int) -> tuple[int, int]:
    """Serpentine layout: rows of 13 squares, alternating direction, Start top left."""
    row, col = divmod(position, COLUMNS)
    if row % 2:
        col = COLUMNS - 1 - col
    return col * CELL, HEADER + row * CELL


@lru_cache(maxsize=1)
def _font() -> ImageFont.ImageFont:
    return ImageFont.load_default()


@lru_cache(maxsize=1)
def _board() -> Image.Image:
    width = COLUMNS * CELL + PANEL
    height = HEADER + ROWS * CELL + 120
    image = Image.new("RGB", (width, height), (60, 110, 60))
    draw = ImageDraw.Draw(image)
    for position, kind in enumerate(data.SQUARES):
        x, y = cell_origin(position)
        draw.rectangle([x + 2, y + 2, x + CELL - 3, y + CELL - 3], fill=SQUARE_COLOURS[kind], outline=(30, 30, 30))
        label = {"start": "Start", "goal": "Goal"}.get(kind, SYMBOL[kind])
        draw.text((x + 5, y + 4), f"{position}", fill=(20, 20, 20), font=_font())
        draw.text((x + 5, y + CELL - 16), label, fill=(20, 20, 20), font=_font())
    return image


def rgb(game: HaseUndIgelGame, last_action: str) -> np.ndarray:
    image = _board().copy()
    draw = ImageDraw.Draw(image)
    font = _font()
    draw.text((8, 10), f"Hase und Igel   {status_line(game)}", fill=(255, 255, 255), font=font)
    stacked: dict[int, int] = {}
    for runner, position in enumerate(game.pos):
        x, y = cell_origin(position)
        k = stacked.get(position, 0)
        stacked[position] = k + 1
        cx = x + 30 + (k % 3) * -9
        cy = y + 16 + (k // 3) * 12
        colour = PLAYER_COLOURS[runner // game.rpp]
        draw.ellipse([cx - 8, cy - 8, cx + 8, cy + 8], fill=colour, outline=(0, 0, 0), width=2)
        if game.rpp == 2:
            draw.text((cx - 3, cy - 6), "AB"[runner % 2], fill=(0, 0, 0), font=font)
    px = COLUMNS * CELL + 10
    draw.text((px, 10), f"last: {last_action}"[:46], fill=(255, 255, 255), font=font)
    for player in range(game.num_agents):
        y = HEADER + 6 + player * 40
        draw.rectangle([px, y, px + 14, y + 14], fill=PLAYER_COLOURS[player], outline=(0, 0, 0))
        marker = " <" if player == game.current_agent else ""
        draw.text((px + 20, y), f"player_{player}{marker}", fill=(255, 255, 255), font=font)
        draw.text((px + 20, y + 14), f"carrots {game.carrots[player]}  lettuces {game.lettuces[player]}",
                  fill=(255, 255, 255), font=font)
    base = HEADER + ROWS * CELL + 8
    for line, event in enumerate(game.log[-6:]):
        draw.text((8, base + line * 14), describe(game, event)[:110], fill=(255, 255, 255), font=font)
    known = ", ".join(data.CARD_KINDS[c].replace("_", " ") for c in game.deck[game.known_from:][:4])
    draw.text((8, base + 90), f"deck: {game.known_from} unseen; then {known or '?'}"[:110], fill=(255, 255, 255), font=font)
    return np.asarray(image, dtype=np.uint8).copy()
