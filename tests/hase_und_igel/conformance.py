"""What the conformance suite (tests/core/test_conformance.py) needs to know about Hase und Igel
beyond the registry: variant configurations, a policy that finishes games, the per-step
invariants, and corrupted snapshots with the field each must be rejected for."""

from __future__ import annotations

from meadowzoo.envs.hase_und_igel import data
from tests.hase_und_igel.policies import racing_random

#: configurations besides the plain player counts (label -> options)
VARIANTS = {
    "2p-duel": {"num_players": 2, "two_runners": False},
    "4p-teams-2x2": {"num_players": 4, "teams": "2x2"},
    "6p-teams-3x2": {"num_players": 6, "teams": "3x2"},
    "6p-teams-2x3": {"num_players": 6, "teams": "2x3"},
    "6p-variants": {"num_players": 6, "teams": "3x2", "chain_hare_cards": True, "reshuffle_deck": True},
}
#: pure random runners hoard carrots and never finish: this one heads for the Goal
policy = racing_random
#: random games per configuration (1,000 in all with the five player counts and the variants)
RANDOM_GAMES = 100
RANDOM_MAX_TURNS = 300  # HUI-19/20: every game ends or truncates
SNAPSHOT_GAMES = 10
SNAPSHOT_MAX_TURNS = 150
#: all random games may truncate (max_turns) but some must end by the rules
ALWAYS_ENDS = False

BAD_OPTIONS = [{"num_players": 1}, {"num_players": 7}, {"num_players": "4"}, {"two_runners": "yes"},
               {"teams": "2x2", "num_players": 6}, {"chain_hare_cards": 1}, {"start_player": 4}]


def invariant(env) -> None:
    game = env.game
    assert min(game.carrots) >= 0, "carrots went negative"
    assert min(game.lettuces) >= 0, "lettuces went negative"
    on_track = [p for p in game.pos if 0 < p < data.GOAL]
    assert len(on_track) == len(set(on_track)), "two runners on one square"
    for runner, square in enumerate(game.pos):
        assert 0 <= square <= data.GOAL
        assert (square == data.GOAL) == bool(game.place[runner])
        if 0 < square < data.GOAL:
            assert game.occupant[square] == runner


#: (path in the snapshot, bad value, words the error must contain), for a 4-player game
CORRUPTIONS = [
    (("game", "pos"), [1, 1, 0, 0], "pos"),
    (("game", "carrots"), [-5, 68, 68, 68], "carrots"),
    (("game", "lettuces"), [1, 2, 9, 3], "lettuces"),
    (("game", "deck"), [0] * 12, "deck"),
    (("game", "pending"), "dance", "pending"),
    (("game", "pending"), "over", "pending"),  # not over
    (("game", "turn"), -1, "turn"),
    (("game", "rng"), {"bit_generator": "MT19937"}, "rng"),
    (("game", "num_players"), 9, "num_players"),
    (("game", "current"), "player_1", "current"),
    (("game", "place"), [1, 0, 0, 0], "place"),
]
