"""HUI-1 … HUI-6: board, hare deck, carrots, setup."""

from collections import Counter

import numpy as np
import pytest

from meadowzoo.envs.hase_und_igel import data
from meadowzoo.envs.hase_und_igel.rules import COST, HaseUndIgelGame
from tests.hase_und_igel.helpers import do, position


def test_HUI_1_board_has_65_positions_with_the_printed_square_counts():
    assert len(data.SQUARES) == 65
    assert data.SQUARES[0] == "start" and data.SQUARES[64] == "goal"
    counts = Counter(data.TRACK)
    assert counts == {"hare": 13, "carrot": 11, "hedgehog": 10, "lettuce": 5, "2": 9, "3": 7, "4": 5, "flag": 3}
    assert data.squares_of("hedgehog") == (8, 11, 15, 19, 24, 30, 37, 43, 50, 56)
    assert data.squares_of("lettuce") == (7, 22, 42, 57, 62)
    assert data.squares_of("flag") == (16, 32, 48)
    assert list(data.FINAL_STRETCH) == [60, 61, 62, 63]


def test_HUI_1_first_squares_follow_the_board_order():
    assert data.TRACK[:10] == ("hare", "carrot", "hare", "3", "carrot", "hare", "lettuce", "hedgehog", "4", "2")
    assert data.TRACK[-4:] == ("2", "hare", "lettuce", "hare")


def test_HUI_2_hare_deck_holds_twelve_cards_of_nine_kinds():
    counts = Counter(data.CARD_KINDS[c] for c in data.DECK)
    assert sum(counts.values()) == 12
    assert counts == {"miss_turn": 1, "forward_to_carrot": 1, "back_to_carrot": 1, "move_again": 1,
                      "last_move_free": 2, "take_or_give_10": 2, "eat_lettuce": 1,
                      "fall_back_one_position": 2, "move_up_one_position": 1}


def test_HUI_2_drawn_card_goes_to_the_bottom_and_the_order_cycles():
    game = position(4, pos={0: 12}, deck=["last_move_free", "miss_turn"])
    order = list(game.deck)
    do(game, "move to 14")  # a hare square
    assert game.deck == order[1:] + order[:1]
    assert game.known_from == 11  # the card now at the bottom has been seen by everybody


def test_HUI_2_reshuffle_option_discards_and_reshuffles_when_empty():
    game = position(2, two_runners=False, pos={0: 12, 1: 40}, deck=["last_move_free"], reshuffle_deck=True)
    do(game, "move to 14")
    assert len(game.deck) == 11 and game.discard == [data.CARD_KINDS.index("last_move_free")]
    game.deck, game.discard = [], list(data.DECK)
    game._draw_card(0)
    assert len(game.deck) == 11 and len(game.discard) == 1


def test_HUI_3_carrots_are_unlimited_taking_is_always_possible():
    game = position(4, pos={0: 13}, carrots={0: 5000})
    do(game, "stay, take 10")
    assert game.carrots[0] == 5010


@pytest.mark.parametrize("players, carrots", [(3, 68), (4, 68), (5, 98), (6, 98)])
def test_HUI_4_starting_carrots_and_three_lettuces(players, carrots):
    game = HaseUndIgelGame(players, rng=np.random.default_rng(0))
    assert game.carrots == [carrots] * players
    assert game.lettuces == [3] * players


def test_HUI_5_two_players_have_two_runners_sharing_98_carrots_and_5_lettuces():
    game = HaseUndIgelGame(2, rng=np.random.default_rng(0))
    assert game.num_runners == 4 and game.rpp == 2
    assert game.carrots == [98, 98] and game.lettuces == [5, 5]


def test_HUI_5_one_runner_duel_option():
    game = HaseUndIgelGame(2, two_runners=False, rng=np.random.default_rng(0))
    assert game.num_runners == 2 and game.carrots == [68, 68] and game.lettuces == [3, 3]


def test_HUI_6_start_player_is_drawn_by_lot_and_all_runners_start_on_start():
    starters = {HaseUndIgelGame(4, rng=np.random.default_rng(seed)).current_agent for seed in range(40)}
    assert starters == {0, 1, 2, 3}
    game = HaseUndIgelGame(5, rng=np.random.default_rng(1))
    assert game.pos == [0] * 5
    assert HaseUndIgelGame(4, start_player=2, rng=np.random.default_rng(1)).current_agent == 2


def test_HUI_6_start_and_goal_hold_many_runners():
    game = position(3, place={1: 1})
    assert game.pos.count(0) == 2
    assert game.legal_actions()  # nothing blocks the Start


def test_HUI_9_cost_table_of_the_rulebook():
    # seed §8.2 "Lépésköltség táblázat": steps -> carrots
    table = {1: 1, 2: 3, 3: 6, 4: 10, 5: 15, 6: 21, 10: 55, 11: 66, 14: 105, 20: 210, 41: 861, 43: 946, 44: 990}
    for steps, carrots in table.items():
        assert COST[steps] == carrots


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"num_players": 1}, "num_players"),
        ({"num_players": 7}, "num_players"),
        ({"num_players": 4, "teams": "3x2"}, "needs 6 players"),
        ({"num_players": 4, "teams": "4x1"}, "teams"),
        ({"num_players": 3, "start_player": 3}, "start_player"),
    ],
)
def test_impossible_configurations_are_rejected(kwargs, message):
    with pytest.raises(ValueError, match=message):
        HaseUndIgelGame(**kwargs)
