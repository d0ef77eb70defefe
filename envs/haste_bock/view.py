"""What one seat of a Haste Bock? game sees, as JSON data for the browser (and the drawing).

Observation principle (``docs/rules/haste_bock.md``): everything is public (the cards lie open)
except future die rolls, so the view is the same for every seat and never carries the generator.

``anchor(game, action)`` names what a legal action is played by clicking on: a card of the
mover's hand (``card-<kind>``), the square of the sheep that moves or rams (``sq<k>``), the square a
caravan moves into, a side of the pasture for the trough (``side-N`` …), the herd arrows
(``herd-cw`` / ``herd-ccw``) or a time tile (``tile-<v>``).
"""

from __future__ import annotations

from meadowzoo.envs.haste_bock import data as D
from meadowzoo.envs.haste_bock.drawing import draw  # noqa: F401  (the game's drawing, see GamePlugin.view)
from meadowzoo.envs.haste_bock.geometry import LINES
from meadowzoo.envs.haste_bock.render import SHEPHERDS
from meadowzoo.envs.haste_bock.rules import (
    ACTION_MOVE, ACTION_TYPE, CARAVAN_FIRST, DIAG_T, HERD_T, LINE_T, MOVE_BASE, NUM_KINDS, PANIC, PANIC_BASE,
    DECISIONS, STEP_T, TILE_BASE, TROUGH_T, TYPE_WORDS, HasteBockGame,
)


def seat_view(game: HasteBockGame, seat: int | None, reveal: bool = False) -> dict:
    """The public state (every seat sees the same; ``seat`` and ``reveal`` change nothing)."""
    n = game.num_agents
    over = game.is_over
    return {
        "game": "haste_bock",
        "num_players": n,
        "over": over,
        "current": game.current_agent,
        "decision": DECISIONS[game.pending],
        "sheep": [{"name": D.SHEEP_NAMES[s], "colour": s // 2, "square": game.pos[s], "owner": game.owner[s]}
                  for s in range(D.NUM_SHEEP)],
        "facing": D.SIDE_NAMES[game.facing],
        "time": game.time,
        "phase": game.phase,
        "shepherd": SHEPHERDS.get(game.phase),
        "panic_spaces": sorted(game.panic_spaces),
        "die": D.DIE_FACES[game.die] if game.pending == PANIC and game.die >= 0 else None,
        "card_played": _card(game.card_kind) if game.card_kind >= 0 and game.pending != PANIC and not over else None,
        "no_trough": D.SIDE_NAMES[game.no_trough] if game.no_trough >= 0 else None,
        "no_herd": ("cw", "ccw")[game.no_herd] if game.no_herd >= 0 else None,
        "players": [{"colour": D.COLOURS[p], "score": game.points[p],
                     "hand": [dict(_card(k), count=game.hands[p][k]) for k in range(NUM_KINDS) if game.hands[p][k]],
                     "tiles": list(game.tiles[p]) if n < 4 else None,
                     "unused_card_value": game.unused_card_value(p)} for p in range(n)],
        "places": game.places() if over else None,
    }


def _card(kind: int) -> dict:
    return {"kind": kind, "type": TYPE_WORDS[kind // 3], "value": kind % 3 + 1}


def anchor(game: HasteBockGame, action: int) -> str | None:
    """What the action is played by clicking on (see the module docstring); ``None`` for ``no time
    tile``, which is a button only."""
    if action < MOVE_BASE:
        return f"card-{action % NUM_KINDS}"
    if action >= TILE_BASE:
        value = action - TILE_BASE
        return f"tile-{value}" if value else None
    if action >= PANIC_BASE:
        return f"sq{game.pos[(action - PANIC_BASE) >> 6]}"
    t, m = ACTION_TYPE[action - MOVE_BASE], ACTION_MOVE[action - MOVE_BASE]
    own = 2 * game.player
    if t == STEP_T:
        return f"sq{game.pos[own + (m >> 3)]}"
    if t in (DIAG_T, LINE_T):  # the square at the front, which the caravan moves into
        line = m // 2 + CARAVAN_FIRST[t]
        return f"sq{LINES[line][0] if m & 1 else LINES[line][-1]}"
    if t == TROUGH_T:
        return f"side-{D.SIDE_NAMES[m]}"
    if t == HERD_T:
        return f"herd-{('cw', 'ccw')[m]}"
    return f"sq{game.pos[own + (m >> 6)]}"  # ram, leap: the moving sheep


