"""Small helpers for the Haste Bock? rule tests: ASCII boards and playing actions by name.

Boards are 9 lines of 9 cells, row 0 = north: ``.`` empty, ``B Y G R`` blue, yellow, green, red
(the first sheep of a colour in reading order is ``<colour>-1``), ``T`` Thea. Seats: player_0 blue
(Doris in the rulebook's examples), player_1 yellow (Peter), player_2 green (Helga), player_3 red
(Albert).
"""

from __future__ import annotations

from envs.haste_bock.rules import HasteBockGame

DORIS, PETER, HELGA, ALBERT = 0, 1, 2, 3


def game_at(board: str, **kwargs) -> HasteBockGame:
    return HasteBockGame.from_position(board, **kwargs)


def norm(board: str) -> str:
    return "\n".join(line.replace(" ", "") for line in board.strip().splitlines())


def legal_strings(game: HasteBockGame) -> list[str]:
    return [game.action_to_string(a) for a in game.legal_actions()]


def play(game: HasteBockGame, *texts: str) -> HasteBockGame:
    """Apply actions by their strings; each must be legal."""
    for text in texts:
        action = game.string_to_action(text)
        assert action in game.legal_actions(), f"{text!r} is not legal; legal: {legal_strings(game)}"
        game.apply(action)
    return game


def is_legal(game: HasteBockGame, text: str) -> bool:
    return game.string_to_action(text) in game.legal_actions()


def after(board: str, action: str, **kwargs) -> str:
    """The board text after one legal action from ``board``."""
    return play(game_at(board, **kwargs), action).board_text()
