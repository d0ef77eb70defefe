"""What the conformance suite (tests/core/test_conformance.py) needs to know about Volle Wolle
beyond the registry (see tests/hase_und_igel/conformance.py for the fields)."""

from __future__ import annotations

from meadowzoo.envs.core.testkit import random_policy
from meadowzoo.envs.volle_wolle import data
from tests.volle_wolle.helpers import check_game

VARIANTS: dict[str, dict] = {}
policy = random_policy
RANDOM_GAMES = 30
RANDOM_MAX_TURNS = None
SNAPSHOT_GAMES = 20
SNAPSHOT_MAX_TURNS = None
ALWAYS_ENDS = True  # the pile runs out

BAD_OPTIONS = [{"num_players": 1}, {"num_players": 7}, {"num_players": "4"}, {"colour": 1}, {"deck": 3}]


def invariant(env) -> None:
    game = env.game
    assert sum(game.wool) + game.supply == data.WOOL_TOTAL and min(game.wool) >= 0
    if game.is_over:  # every card with a player, points equal to a recount
        check_game(game)


CORRUPTIONS = [
    (("game", "wool"), [9, 2, 2, 2], "supply"),
    (("game", "pile"), [0, 0], "every card once"),
    (("game", "display"), [1, 2], "'display' must have 5"),
    (("game", "pending"), 9, "pending"),
    (("game", "pending"), "dance", "pending"),
    (("game", "turn"), -1, "turn"),
    (("game", "dice"), [13, 1, 1], "dice"),
    (("game", "herd"), [[59], [], [], []], "not a sheep"),
    (("game", "rng"), {"bit_generator": "MT"}, "rng"),
    (("game", "deck"), [], "deck"),
    (("game", "bids"), "x", "bids"),
]
