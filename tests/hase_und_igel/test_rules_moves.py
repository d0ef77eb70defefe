"""HUI-7 … HUI-15: a turn, moves, squares, race positions."""

import pytest

from meadowzoo.envs.hase_und_igel import data
from meadowzoo.envs.hase_und_igel.rules import HaseUndIgelGame
from tests.hase_und_igel.helpers import do, move, named, position, targets


def test_HUI_7_payout_comes_before_the_action():
    # runner 0 on the "2" square 10, one runner ahead: position 2 -> +20 before it decides
    game = position(4, pos={0: 10, 1: 30}, payout={0}, carrots={0: 40})
    assert game.current_agent == 0
    assert game.carrots[0] == 60


def test_HUI_7_forced_state_takes_the_whole_turn():
    game = position(4, pos={0: 7}, eat={0}, lettuces={0: 2})
    assert game.current_agent == 1  # player 0 ate and had no decision


def test_HUI_8_occupied_squares_cannot_be_entered_but_are_counted():
    game = position(4, pos={0: 1, 1: 3}, carrots={0: 10})
    assert 3 not in targets(game)
    assert 4 in targets(game)
    do(game, "move to 4")
    assert game.carrots[0] == 10 - 6  # 3 squares counted including the occupied one


def test_HUI_9_affordable_free_targets_from_start_with_68_carrots():
    game = position(4)
    # 11 squares cost 66 <= 68; 12 would cost 78. Hedgehogs 8 and 11 are never forward targets.
    assert targets(game) == [1, 2, 3, 4, 5, 6, 7, 9, 10]


def test_HUI_9_lettuce_square_only_with_a_lettuce():
    game = position(4, lettuces={0: 0})
    assert 7 not in targets(game)


def test_HUI_9_cost_is_paid_before_moving():
    game = position(4, pos={0: 2}, carrots={0: 10})
    assert max(targets(game)) == 6  # 4 squares for 10 carrots
    do(game, "move to 6")
    assert game.carrots[0] == 0 and game.pos[0] == 6


def test_HUI_9_carrots_earned_by_the_move_cannot_pay_for_it():
    # moving back onto a hedgehog would earn carrots, but a forward move must be affordable now
    game = position(4, pos={0: 20}, carrots={0: 0})
    assert targets(game) == []


def test_HUI_10_back_to_the_nearest_hedgehog_earns_ten_per_square():
    game = position(4, pos={0: 23}, carrots={0: 0})
    assert "hedgehog back" in named(game)
    do(game, "hedgehog back")
    assert game.pos[0] == 19 and game.carrots[0] == 40


def test_HUI_10_only_the_nearest_hedgehog_and_only_if_free():
    game = position(4, pos={0: 23, 1: 19}, carrots={0: 50})
    assert "hedgehog back" not in named(game)  # 15 is free but not the nearest


def test_HUI_10_no_backward_move_before_the_first_hedgehog():
    for square in (1, 2, 5, 6):
        game = position(4, pos={0: square})
        assert "hedgehog back" not in named(game)
    game = position(4, pos={0: 9})
    assert "hedgehog back" in named(game)


def test_HUI_10_hedgehog_squares_are_entered_only_backwards():
    game = position(4, pos={0: 5}, carrots={0: 100})
    assert 8 not in targets(game) and 11 not in targets(game)


def test_HUI_11_arriving_on_a_carrot_square_gives_nothing():
    game = position(4, pos={0: 1}, carrots={0: 20})
    do(game, "move to 2")
    assert game.carrots[0] == 19


def test_HUI_11_staying_on_a_carrot_square_take_or_give_ten():
    game = position(4, pos={0: 13}, carrots={0: 30})
    assert {"stay, take 10", "stay, give 10"} <= set(named(game))
    do(game, "stay, give 10")
    assert game.pos[0] == 13 and game.carrots[0] == 20


def test_HUI_11_giving_needs_ten_carrots_and_staying_can_repeat():
    game = position(2, two_runners=False, pos={0: 13, 1: 40}, carrots={0: 9})
    assert "stay, give 10" not in named(game) and "stay, take 10" in named(game)
    do(game, "stay, take 10")
    do(game, "stay, take 10")  # player 1 stays too
    assert game.current_agent == 0 and "stay, take 10" in named(game)
    assert game.carrots[0] == 19


def test_HUI_11_no_staying_elsewhere():
    game = position(4, pos={0: 14})
    assert not any(name.startswith("stay") for name in named(game))


def test_HUI_12_lettuce_next_turn_eats_and_gains_ten_times_position():
    game = position(2, two_runners=False, pos={1: 33})
    do(game, "move to 7")  # player 0 pays 28
    assert game.carrots[0] == 40 and game.eat[0] and game.lettuces[0] == 3
    do(game, "stay, take 10")  # player 1
    # player 0's turn: it eats automatically in race position 2, no decision; player 1 moves again
    assert game.lettuces[0] == 2 and game.carrots[0] == 40 + 20
    assert game.current_agent == 1


def test_HUI_12_after_eating_the_runner_must_leave():
    game = position(4, pos={0: 7}, eat={0}, lettuces={0: 2})
    game.cur = 0
    game._legal = None
    game._begin_turn()  # the turn after eating
    assert game.current_agent == 0
    assert all(n.startswith("move") or n == "hedgehog back" for n in named(game))


def test_HUI_12_eating_position_counts_finished_runners():
    game = position(4, pos={0: 22, 1: 40}, place={2: 1}, eat={0}, carrots={0: 0})
    assert game.carrots[0] == 30  # one finished, one ahead: position 3


def test_HUI_13_hare_square_draws_the_top_card():
    game = position(4, pos={0: 12}, deck=["take_or_give_10"], carrots={0: 40})
    do(game, "move to 14")
    assert game.last_card == game.deck[-1]
    assert set(named(game)) == {"card: take 10", "card: give 10", "card: pass"}


def test_HUI_13_arriving_through_a_card_draws_no_second_card():
    # fall back lands on hare square 25: by default (chain_hare_cards off) nothing more is drawn
    game = position(4, pos={0: 28, 1: 26}, deck=["fall_back_one_position", "miss_turn"], carrots={0: 20})
    do(game, "move to 31")
    assert game.pos[0] == 25 and not game.miss[0]
    assert game.last_card == data.CARD_KINDS.index("fall_back_one_position")
    assert game.deck[0] == data.CARD_KINDS.index("miss_turn")  # still on top: nothing more drawn


def test_HUI_13_chain_option_draws_again():
    game = position(4, pos={0: 28, 1: 26}, deck=["fall_back_one_position", "miss_turn"], carrots={0: 20},
                    chain_hare_cards=True)
    do(game, "move to 31")
    assert game.pos[0] == 25 and game.miss[0]


@pytest.mark.parametrize(
    "square, ahead, paid",
    [
        (10, 1, 20),  # "2" square in position 2
        (4, 2, 30),  # "3" square in position 3
        (9, 3, 40),  # "4" square in position 4
        (10, 0, 0),  # "2" square in position 1: no payout
        (16, 0, 10),  # flag in position 1
    ],
)
def test_HUI_14_number_and_flag_squares_pay_ten_times_a_matching_position(square, ahead, paid):
    others = {1 + k: 40 + k for k in range(ahead)}
    game = position(4, pos={0: square, **others}, payout={0}, carrots={0: 0})
    assert game.carrots[0] == paid


def test_HUI_14_flag_pays_positions_five_and_six():
    game = position(6, pos={0: 16, 1: 40, 2: 41, 3: 42, 4: 43}, payout={0}, carrots={0: 0})
    assert game.race_position(0) == 5 and game.carrots[0] == 50
    game = position(6, pos={0: 16, 1: 40, 2: 41, 3: 42, 4: 43, 5: 44}, payout={0}, carrots={0: 0})
    assert game.race_position(0) == 6 and game.carrots[0] == 60
    game = position(6, pos={0: 16, 1: 40, 2: 41}, payout={0}, carrots={0: 0})
    assert game.race_position(0) == 3 and game.carrots[0] == 0


def test_HUI_14_checked_at_the_start_of_the_next_turn_not_on_arrival():
    game = position(2, two_runners=False, pos={1: 33})
    do(game, "move to 10")
    assert game.payout[0] and game.carrots[0] == 68 - 55  # nothing on arrival
    do(game, "stay, take 10")  # player 1 stays on its carrot square
    assert game.current_agent == 0 and game.carrots[0] == 68 - 55 + 20  # position 2 on a "2"


def test_HUI_14_arrival_through_a_card_counts_too():
    # fall back puts runner 0 on the "2" square 17; at its next turn it is in position 2
    game = position(2, two_runners=False, pos={0: 28, 1: 18}, deck=["fall_back_one_position"], carrots={0: 20})
    do(game, "move to 31")
    assert game.pos[0] == 17 and game.payout[0]
    do(game, game.action_to_string(game.legal_actions()[0]))  # player 1 moves on, ahead of 17
    assert game.current_agent == 0 and game.carrots[0] == 20 - 6 + 20


def test_HUI_14_numbers_above_the_runner_count_never_pay():
    # three players: a "4" square cannot match, the last runner is in position 3
    game = position(3, pos={0: 9, 1: 40, 2: 41}, payout={0}, carrots={0: 0})
    assert game.race_position(0) == 3 and game.carrots[0] == 0


def test_HUI_15_race_position_finished_first_then_by_square_start_ties_last():
    game = position(6, pos={2: 30, 3: 20}, place={0: 1, 1: 2})
    assert [game.race_position(r) for r in range(6)] == [1, 2, 3, 4, 5, 5]


def test_forward_move_names_are_readable_and_typeable():
    game = HaseUndIgelGame(4, start_player=0)
    assert game.action_to_string(move(game, 7)) == "move to 7"
    assert game.action_to_string(move(game, 64)) == "move to goal"
    assert game.string_to_action("Move  to 7") == move(game, 7)
