"""Small helpers for the Haste Bock? rule tests: ASCII boards and playing actions by name.

Boards are 9 lines of 9 cells, row 0 = north: ``.`` empty, ``B Y G R`` blue, yellow, green, red
(the first sheep of a colour in reading order is ``<colour>-1``), ``T`` Thea. Seats: player_0 blue
(Doris in the rulebook's examples), player_1 yellow (Peter), player_2 green (Helga), player_3 red
(Albert).
"""

from __future__ import annotations

import re

from meadowzoo.envs.haste_bock.rules import HasteBockGame

DORIS, PETER, HELGA, ALBERT = 0, 1, 2, 3


def game_at(board: str, **kwargs) -> HasteBockGame:
    return HasteBockGame.from_position(board, **kwargs)


def norm(board: str) -> str:
    return "\n".join(line.replace(" ", "") for line in board.strip().splitlines())


TYPE_OF_MOVE = {
    "step": "step", "ram": "ram", "leap": "leap", "diagonal": "diagonal caravan",
    "row": "row/column caravan", "column": "row/column caravan", "trough": "trough", "herd": "herd",
}


def split(text: str) -> list[str]:
    """``"ram blue-1 E target 1 (card 2)"`` -> ``["play ram (card 2)", "ram blue-1 E target 1"]``: the
    card decision and the move decision of one turn; other strings stay one decision."""
    match = re.match(r"^(.*) \(card (\d)\)$", text)
    if not match or text.startswith(("play ", "discard ")):
        return [text]
    move, value = match.groups()
    return [f"play {TYPE_OF_MOVE[move.split()[0]]} (card {value})", move]


def legal_strings(game: HasteBockGame) -> list[str]:
    return [game.action_to_string(a) for a in game.legal_actions()]


def play(game: HasteBockGame, *texts: str) -> HasteBockGame:
    """Apply actions by their strings (a move with ``(card v)`` plays that card first); each must be legal."""
    for text in texts:
        for part in split(text):
            action = game.string_to_action(part)
            assert action in game.legal_actions(), f"{part!r} is not legal; legal: {legal_strings(game)}"
            game.apply(action)
    return game


def is_legal(game: HasteBockGame, text: str) -> bool:
    twin = game.clone()
    for part in split(text):
        action = twin.string_to_action(part)
        if action not in twin.legal_actions():
            return False
        twin.apply(action)
    return True


def moves(game: HasteBockGame, card: str) -> list[str]:
    """The legal move strings after playing ``card`` (e.g. ``"play step (card 1)"``)."""
    return legal_strings(play(game.clone(), card))


def after(board: str, action: str, **kwargs) -> str:
    """The board text after one legal action from ``board``."""
    return play(game_at(board, **kwargs), action).board_text()
