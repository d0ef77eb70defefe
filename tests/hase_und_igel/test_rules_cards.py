"""HUI-21 … HUI-28: the hare cards (seed §8.3)."""

import pytest

from meadowzoo.envs.hase_und_igel import data
from meadowzoo.envs.hase_und_igel.env import HaseUndIgelEnv
from meadowzoo.envs.hase_und_igel.rules import HaseUndIgelGame
from tests.hase_und_igel.helpers import do, named, position


def kinds(cards: list[int]) -> list[str]:
    return [data.CARD_KINDS[card] for card in cards]


def test_HUI_13_a_card_drawn_while_move_again_is_resolved_goes_under_first():
    """The reproduction of issue 16: "move again" onto another hare square draws "fall back", which
    is resolved first and goes to the bottom first; "move again" follows once its move is done."""
    env = HaseUndIgelEnv(num_players=2)
    env.reset(seed=128)
    game = env.game
    assert kinds(game.deck[:2]) == ["move_again", "fall_back_one_position"]
    env.step(env.string_to_action("A: move to 6"))
    assert game.pending == 2 and game.unresolved == 1  # the extra move: "move again" is not resolved
    env.step(env.string_to_action("A: move to 14"))
    assert kinds(game.deck[-2:]) == ["fall_back_one_position", "move_again"]
    assert game.unresolved == 0 and game.known_from == 10
    assert sorted(game.deck) == sorted(data.DECK)


def test_HUI_13_declined_or_plain_move_again_goes_under_alone():
    game = position(4, pos={0: 12}, deck=["move_again", "last_move_free"], carrots={0: 100})
    do(game, "move to 14")
    do(game, "move to 16")  # not a hare square: nothing else drawn
    assert kinds(game.deck[-1:]) == ["move_again"] and kinds(game.deck[:1]) == ["last_move_free"]
    assert game.unresolved == 0


def test_HUI_13_chained_cards_go_under_innermost_first():
    """chain_hare_cards: "fall back" onto hare square 25 draws "move up", which moves onto hare
    square 31 and draws "miss a turn"; they are resolved, and go under, in the reverse order."""
    game = position(5, pos={0: 23, 1: 26, 2: 27, 3: 28, 4: 29}, chain_hare_cards=True, carrots={0: 68},
                    deck=["fall_back_one_position", "move_up_one_position", "miss_turn", "eat_lettuce"])
    do(game, "move to 31")
    assert game.pos[0] == 31 and game.miss[0]
    assert kinds(game.deck[:1]) == ["eat_lettuce"]
    assert kinds(game.deck[-3:]) == ["miss_turn", "move_up_one_position", "fall_back_one_position"]
    assert game.known_from == 9 and game.unresolved == 0


def test_HUI_13_reshuffle_leaves_out_the_cards_still_being_resolved():
    """Reshuffle variant: "move again" is the last card of the deck; the extra move onto a hare
    square reshuffles the discard pile without it (it is not on the pile until resolved), and
    it lands on the pile after the card drawn during its resolution."""
    game = position(4, pos={0: 12}, carrots={0: 100}, reshuffle_deck=True)
    game.discard = [card for card in data.DECK if data.CARD_KINDS[card] != "move_again"]
    game.deck = [data.CARD_KINDS.index("move_again")]
    game.known_from = 0
    do(game, "move to 14")
    assert game.deck == [] and kinds(game.discard[-1:]) == ["move_again"] and game.unresolved == 1
    do(game, "move to 25")
    assert len(game.deck) == 10 and len(game.discard) == 2 and game.known_from == 10
    assert "move_again" not in kinds(game.deck)
    assert kinds(game.discard)[-1] == "move_again" and game.discard[0] == game.last_card


def test_HUI_13_unresolved_cards_survive_a_snapshot():
    game = position(4, pos={0: 12}, deck=["move_again", "last_move_free"], carrots={0: 100})
    do(game, "move to 14")
    twin = HaseUndIgelGame.from_dict(game.to_dict())
    assert twin.unresolved == 1
    old_format = game.to_dict()
    del old_format["unresolved"]  # a current-format snapshot must carry the field ...
    with pytest.raises(ValueError, match="unresolved"):
        HaseUndIgelGame.from_dict(old_format)
    # ... format 1 (written before the field existed) gets the pending card's one on upgrade
    assert HaseUndIgelGame.from_dict(HaseUndIgelGame.upgrade(old_format, 1)).unresolved == 1
    do(twin, "move to 25")
    do(game, "move to 25")
    assert twin.deck == game.deck and kinds(game.deck[-2:]) == ["last_move_free", "move_again"]


def test_HUI_21_miss_a_turn():
    game = position(2, two_runners=False, pos={0: 12, 1: 33}, deck=["miss_turn"])
    do(game, "move to 14")
    assert game.miss[0] and game.current_agent == 1
    do(game, "stay, take 10")
    assert game.current_agent == 1  # player 0's turn was skipped
    assert not game.miss[0] and game.pos[0] == 14


def test_HUI_22_forward_to_the_nearest_carrot_square_free_then_take_or_give():
    game = position(4, pos={0: 12}, deck=["forward_to_carrot"], carrots={0: 20})
    do(game, "move to 14")
    assert game.pos[0] == 21 and game.carrots[0] == 17  # nothing paid for the card move
    assert set(named(game)) == {"card: take 10", "card: give 10", "card: pass"}
    do(game, "card: take 10")
    assert game.carrots[0] == 27 and game.current_agent == 1


def test_HUI_22_back_to_the_nearest_carrot_square():
    game = position(4, pos={0: 12}, deck=["back_to_carrot"], carrots={0: 20})
    do(game, "move to 14")
    assert game.pos[0] == 13
    do(game, "card: pass")
    assert game.carrots[0] == 17


def test_HUI_22_occupied_carrot_square_means_no_effect():
    game = position(4, pos={0: 12, 1: 21}, deck=["forward_to_carrot"], carrots={0: 20})
    do(game, "move to 14")
    assert game.pos[0] == 14 and game.current_agent == 1  # no effect, no choice


def test_HUI_22_no_carrot_square_ahead_means_no_effect():
    game = position(4, pos={0: 60}, deck=["forward_to_carrot"], carrots={0: 100})
    do(game, "move to 61")
    assert game.pos[0] == 61 and game.current_agent == 1


def test_HUI_23_move_again_is_optional():
    game = position(4, pos={0: 12}, deck=["move_again"], carrots={0: 20})
    do(game, "move to 14")
    options = named(game)
    assert "card: pass" in options and "move to 16" in options
    assert not any(name.startswith("stay") for name in options)
    do(game, "move to 16")
    assert game.pos[0] == 16 and game.carrots[0] == 20 - 3 - 3 and game.current_agent == 1


def test_HUI_23_move_again_may_be_declined():
    game = position(4, pos={0: 12}, deck=["move_again"], carrots={0: 20})
    do(game, "move to 14")
    do(game, "card: pass")
    assert game.pos[0] == 14 and game.current_agent == 1


def test_HUI_23_the_extra_move_onto_a_hare_square_draws_again():
    game = position(4, pos={0: 12}, deck=["move_again", "last_move_free"], carrots={0: 100})
    do(game, "move to 14")  # 3 carrots
    do(game, "move to 25")  # 11 squares: 66 carrots, then "last move free" refunds them
    assert game.pos[0] == 25 and game.carrots[0] == 97 and game.current_agent == 1


def test_HUI_24_last_move_free_refunds_the_move_onto_the_hare_square():
    game = position(4, pos={0: 10}, deck=["last_move_free"], carrots={0: 20})
    do(game, "move to 14")  # 4 squares: 10 carrots
    assert game.carrots[0] == 20


def test_HUI_25_take_or_give_ten_and_no_staying_on_the_hare_square():
    game = position(2, two_runners=False, pos={0: 12, 1: 33}, deck=["take_or_give_10"], carrots={0: 20})
    do(game, "move to 14")
    do(game, "card: give 10")
    assert game.carrots[0] == 7
    do(game, "stay, take 10")  # player 1
    assert not any(name.startswith("stay") for name in named(game))


def test_HUI_25_give_needs_ten_carrots():
    game = position(4, pos={0: 12}, deck=["take_or_give_10"], carrots={0: 12})
    do(game, "move to 14")
    assert set(named(game)) == {"card: take 10", "card: pass"}


def test_HUI_26_eat_a_lettuce_card_acts_like_a_lettuce_square():
    game = position(2, two_runners=False, pos={0: 12, 1: 33}, deck=["eat_lettuce"], carrots={0: 20})
    do(game, "move to 14")
    assert game.eat[0]
    do(game, "stay, take 10")
    assert game.lettuces[0] == 2 and game.carrots[0] == 17 + 20  # position 2
    assert game.current_agent == 1


def test_HUI_26_without_lettuce_the_turn_is_still_missed():
    game = position(2, two_runners=False, pos={0: 12, 1: 33}, deck=["eat_lettuce"], carrots={0: 20},
                    lettuces={0: 0})
    do(game, "move to 14")
    do(game, "stay, take 10")
    assert game.lettuces[0] == 0 and game.carrots[0] == 17 and game.current_agent == 1


def test_HUI_27_fall_back_behind_the_runner_directly_behind():
    # runner 1 is directly behind on 20; 19 and 18 are taken: the first free square is 17
    game = position(4, pos={0: 28, 1: 20, 2: 19, 3: 18}, deck=["fall_back_one_position"], carrots={0: 20})
    do(game, "move to 31")
    assert game.pos[0] == 17 and game.carrots[0] == 14  # no carrots for falling back


def test_HUI_27_fall_back_skips_lettuce_without_lettuce_and_may_use_a_hedgehog():
    game = position(4, pos={0: 28, 1: 23}, deck=["fall_back_one_position"], carrots={0: 20}, lettuces={0: 0})
    do(game, "move to 31")
    assert game.pos[0] == 21
    game = position(4, pos={0: 28, 1: 20}, deck=["fall_back_one_position"], carrots={0: 20})
    do(game, "move to 31")
    assert game.pos[0] == 19  # a hedgehog square is allowed, no carrots for it
    assert game.carrots[0] == 14


def test_HUI_27_fall_back_can_reach_start_and_has_no_effect_when_last():
    game = position(4, pos={0: 12, 1: 1}, deck=["fall_back_one_position"], carrots={0: 20})
    do(game, "move to 14")
    assert game.pos[0] == 0
    game = position(4, pos={0: 12}, deck=["fall_back_one_position"], carrots={0: 20})
    do(game, "move to 14")
    assert game.pos[0] == 14  # last on the track (the others are on Start)


def test_HUI_28_move_up_ahead_of_the_runner_directly_ahead():
    game = position(4, pos={0: 23, 1: 26, 2: 27}, deck=["move_up_one_position"], carrots={0: 20})
    do(game, "move to 25")
    assert game.pos[0] == 28 and game.carrots[0] == 17  # free move
    game = position(4, pos={0: 23, 1: 28}, deck=["move_up_one_position"], carrots={0: 20})
    do(game, "move to 25")
    assert game.pos[0] == 29


def test_HUI_28_move_up_never_onto_a_hedgehog():
    # directly ahead on 28: 29 is free ("2"), so that is the target; ahead on 29: 30 is a hedgehog
    game = position(4, pos={0: 23, 1: 29}, deck=["move_up_one_position"], carrots={0: 20})
    do(game, "move to 25")
    assert game.pos[0] == 31


def test_HUI_28_no_effect_when_first_on_the_track():
    game = position(4, pos={0: 23, 1: 10}, deck=["move_up_one_position"], carrots={0: 20})
    do(game, "move to 25")
    assert game.pos[0] == 25


def test_HUI_28_goal_only_if_the_finishing_rule_holds():
    game = position(4, pos={0: 58, 1: 62, 2: 63}, deck=["move_up_one_position"], carrots={0: 13},
                    lettuces={0: 0})
    do(game, "move to 61")  # 3 squares: 6 carrots, 7 left <= 10
    assert game.place[0] == 1 and game.pos[0] == data.GOAL
    game = position(4, pos={0: 58, 1: 62, 2: 63}, deck=["move_up_one_position"], carrots={0: 30},
                    lettuces={0: 0})
    do(game, "move to 61")  # 24 carrots left: cannot finish, no effect
    assert game.pos[0] == 61
