"""The Haste Bock? observation, declared block by block (see :mod:`meadowzoo.envs.core.observation`).

Egocentric: "seat 0" is the observer, then the following seats. The layout does not depend on
the number of players (four seats are always reserved). Each block's reference encoding below is
the specification written out in plain Python; :class:`~meadowzoo.envs.haste_bock.env.HasteBockEnv`
builds the same floats through a byte buffer.
"""

from __future__ import annotations

from typing import Any

from meadowzoo.envs.core.observation import Block, Layout
from meadowzoo.envs.haste_bock import data as D
from meadowzoo.envs.haste_bock.rules import CARD, MOVE, NUM_KINDS, PANIC, TILE

SCORE_SCALE = 50.0
SEATS = 4


def one_hot(size: int, index: int) -> list[float]:
    """``size`` zeros with a 1 at ``index`` (none for a negative index)."""
    values = [0.0] * size
    if index >= 0:
        values[index] = 1.0
    return values


def sheep_plane(sheep: int, owner: int, seat: int, n: int) -> int:
    """The plane of a sheep seen from ``seat``: 2k, 2k+1 for the sheep of egocentric seat k; a
    neutral colour c keeps planes 2c, 2c+1; Thea plane 8."""
    if sheep == D.THEA:
        return 8
    colour_slot = sheep // 2 if owner < 0 else (owner - seat) % n
    return 2 * colour_slot + sheep % 2


def _seats(game: Any, seat: int) -> list[int]:
    return [(seat + k) % game.num_agents for k in range(game.num_agents)]


def _planes(env: Any, seat: int) -> list[float]:
    game = env.game
    values = [0.0] * (9 * D.SQUARES)
    for sheep, square in enumerate(game.pos):
        values[D.SQUARES * sheep_plane(sheep, game.owner[sheep], seat, game.num_agents) + square] = 1.0
    return values


def _shepherds(env: Any, seat: int) -> list[float]:
    phase = env.game.phase
    return [float(phase == 2), float(phase == 4)]


def _scores(env: Any, seat: int) -> list[float]:
    game = env.game
    values = [game.scores()[p] / SCORE_SCALE for p in _seats(game, seat)]
    return values + [0.0] * (SEATS - len(values))


def _cards(env: Any, seat: int) -> list[float]:
    game = env.game
    values: list[float] = []
    for p in _seats(game, seat):
        values += game.hands[p]
    return values + [0.0] * (SEATS * NUM_KINDS - len(values))


def _tiles(env: Any, seat: int) -> list[float]:
    game = env.game
    values: list[float] = []
    for p in _seats(game, seat):
        values += game.tiles[p]
    return values + [0.0] * (SEATS * 3 - len(values))


def _pending(env: Any, seat: int) -> list[float]:
    game = env.game
    if game.pending == CARD:
        return one_hot(5, 1 if game.is_fallback() else 0)
    return one_hot(5, {MOVE: 2, TILE: 3, PANIC: 4}.get(game.pending, -1))


def _decider(env: Any, seat: int) -> list[float]:
    game = env.game
    return one_hot(SEATS, (game.player - seat) % game.num_agents if game.player >= 0 else -1)


def _chosen(env: Any, seat: int) -> list[float]:
    game = env.game
    return one_hot(NUM_KINDS, game.card_kind if game.pending in (MOVE, TILE) else -1)


LAYOUT = Layout(
    variables={},
    bind=lambda game: {},
    blocks=(
        Block("sheep planes", "729", "9 planes of 81 squares (index row·9 + col, row 0 = north): planes 2k, "
              "2k+1 are the first and second sheep (`<colour>-1`, `<colour>-2`, the names the actions use) of "
              "egocentric seat k; a neutral colour c keeps planes 2c, 2c+1; plane 8 is Thea", _planes),
        Block("facing", "4", "common facing, one-hot N E S W", lambda env, seat: one_hot(4, env.game.facing)),
        Block("shepherds", "2", "Roger present (phase 2), Jacques present (phase 4); they stand beyond the "
              "edge the flock faces", _shepherds),
        Block("time", "75", "time marker 0–74, one-hot", lambda env, seat: one_hot(75, env.game.time)),
        Block("phase", "5", "phase 0 (before the first turn) … 4, one-hot",
              lambda env, seat: one_hot(5, env.game.phase)),
        Block("scores", "4", "scores / 50, egocentric seats", _scores),
        Block("cards", "84", "remaining action cards per egocentric seat (21 each): count per kind, kind = "
              "type·3 + value−1, types step, ram, leap, diagonal caravan, row/column caravan, trough, herd",
              _cards),
        Block("tiles", "12", "remaining time tiles per egocentric seat (3 each): count of 1s, 2s, 3s", _tiles),
        # HB-16/17 restrict the card of the immediately following player. A panic ram comes after
        # the roller's card (HB-9 step 4), so it shows the restriction already passed on to the
        # next card's player (the roller has no card left to restrict); once over, nobody's
        Block("no trough", "4", "no-undo: trough side N E S W the player of the current or next action card may "
              "not play (HB-16): during a panic ram the next player's; zeros once over",
              lambda env, seat: one_hot(4, -1 if env.game.is_over else env.game.no_trough)),
        Block("no herd", "2", "no-undo: herd sense cw, ccw the player of the current or next action card may "
              "not play (HB-17): during a panic ram the next player's; zeros once over",
              lambda env, seat: one_hot(2, -1 if env.game.is_over else env.game.no_herd)),
        Block("pending", "5", "pending decision: card, discard fallback, move, time tile, panic ram (zeros "
              "once over)", _pending),
        Block("decider", "4", "deciding player, egocentric seat one-hot (all zero once over)", _decider),
        Block("die", "6", "die result during a panic ram: blue, yellow, green, red, black, white",
              lambda env, seat: one_hot(6, env.game.die if env.game.pending == PANIC else -1)),
        Block("opening", "1", "1 during the opening panic",
              lambda env, seat: [float(env.game.pending == PANIC and env.game.time == 0)]),
        Block("chosen card", "21", "the card chosen this turn (kind one-hot) while its move or the time tile "
              "is pending", _chosen),
        Block("panic track", "75", "panic spaces on the track (from the rule data)",
              lambda env, seat: [float(t in env.game.panic_spaces) for t in range(75)]),
        Block("players", "3", "number of players 2/3/4, one-hot",
              lambda env, seat: one_hot(3, env.game.num_agents - 2)),
    ),
)
