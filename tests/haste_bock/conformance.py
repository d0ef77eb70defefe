"""What the conformance suite (tests/core/test_conformance.py) needs to know about Haste Bock?
beyond the registry (see tests/hase_und_igel/conformance.py for the fields)."""

from __future__ import annotations

from meadowzoo.envs.core.testkit import random_policy

VARIANTS = {
    "4p-fixed-consecutive": {"num_players": 4, "layout": "fixed", "facing": "E", "phase2_rows": "consecutive"},
}
policy = random_policy
RANDOM_GAMES = 40
RANDOM_MAX_TURNS = None  # the default
SNAPSHOT_GAMES = 25
SNAPSHOT_MAX_TURNS = None
ALWAYS_ENDS = True  # 74 on the time track, or no cards left (HB-24): never truncated

BAD_OPTIONS = [{"num_players": 5}, {"layout": "x"}, {"facing": "up"}, {"phase2_rows": "x"}, {"speed": 1},
               {"rule_data": {"panic_spaces": [80]}}]


def check_board(game) -> None:
    pos = game.pos
    assert len(pos) == 9 and len(set(pos)) == 9  # nine sheep, never two on a square
    assert all(0 <= sq < 81 for sq in pos)
    assert sum(1 for s in game.board if s >= 0) == 9 and all(game.board[sq] == s for s, sq in enumerate(pos))


def invariant(env) -> None:
    check_board(env.game)
    assert 0 <= env.game.time <= 74


CORRUPTIONS = [
    (("game", "pos"), [0] * 9, "pos"),
    (("game", "pos"), [0, 1, 2], "pos"),
    (("game", "time"), 75, "time"),
    (("game", "time"), "3", "time"),
    (("game", "facing"), 4, "facing"),
    (("game", "scores"), [0], "scores"),
    (("game", "hands"), [[9] * 21] * 4, "hands"),
    (("game", "tiles"), [[1, 0, 0]] * 4, "tiles"),
    (("game", "die"), 7, "die"),
    (("game", "pending"), 9, "pending"),
    (("game", "pending"), "dance", "pending"),
    (("game", "turn"), -1, "turn"),
    (("game", "no_trough"), 5, "no_trough"),
    (("game", "rng"), {"bit_generator": "MT"}, "rng"),
    (("game", "config"), {"num_players": 5}, "config"),
]
