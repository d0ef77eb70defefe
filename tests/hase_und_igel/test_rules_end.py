"""HUI-16 … HUI-20 (stuck, final stretch, finishing, end, truncation), HUI-29/30 (variants)."""

import numpy as np
import pytest

from meadowzoo.envs import hase_und_igel_v0
from meadowzoo.envs.hase_und_igel import data
from tests.hase_und_igel.helpers import do, move, named, position, targets


def test_HUI_16_stuck_runner_returns_to_start_with_starting_carrots_not_lettuces():
    # on hare square 25 with no carrots, its nearest hedgehog (24) taken: no legal action
    game = position(4, pos={0: 25, 1: 24}, carrots={0: 0}, lettuces={0: 1})
    assert game.pos[0] == 0 and game.carrots[0] == 68 and game.lettuces[0] == 1
    assert game.current_agent == 1  # that was its whole turn


def test_HUI_16_five_players_reset_to_98():
    game = position(5, pos={0: 25, 1: 24}, carrots={0: 0})
    assert game.pos[0] == 0 and game.carrots[0] == 98


def test_HUI_17_final_stretch_moves_back_to_the_nearest_free_hedgehog():
    # on 61 with a lettuce left: 62 and 63 taken, Goal forbidden, nearest hedgehog 56 taken
    game = position(4, pos={0: 61, 1: 56, 2: 62, 3: 63}, carrots={0: 100}, lettuces={0: 1})
    assert game.pos[0] == 50 and game.carrots[0] == 100 + 10 * 11
    assert game.lettuces[0] == 1 and game.current_agent == 1


def test_HUI_17_too_many_carrots_in_the_final_stretch():
    game = position(4, pos={0: 63, 1: 56}, carrots={0: 50}, lettuces={0: 0})
    assert game.pos[0] == 50 and game.carrots[0] == 50 + 130


def test_HUI_17_applies_only_without_another_legal_action():
    game = position(4, pos={0: 61, 1: 56}, carrots={0: 100}, lettuces={0: 1})
    assert game.current_agent == 0 and targets(game) == [62, 63]


def test_HUI_18_finish_needs_no_lettuce_and_at_most_ten_carrots_first():
    game = position(4, pos={0: 60}, carrots={0: 20}, lettuces={0: 0})  # 4 squares = 10, 10 left
    assert 64 in targets(game)
    game = position(4, pos={0: 60}, carrots={0: 21}, lettuces={0: 0})  # 11 left
    assert 64 not in targets(game)
    game = position(4, pos={0: 60}, carrots={0: 20}, lettuces={0: 1})
    assert 64 not in targets(game)


def test_HUI_18_second_finisher_may_keep_twenty():
    game = position(4, pos={0: 60}, place={1: 1}, carrots={0: 30}, lettuces={0: 0})
    assert 64 in targets(game)
    game = position(4, pos={0: 60}, place={1: 1}, carrots={0: 31}, lettuces={0: 0})
    assert 64 not in targets(game)


def test_HUI_18_finish_exactly_on_the_goal():
    game = position(4, pos={0: 60}, carrots={0: 20}, lettuces={0: 0})
    do(game, "move to goal")
    assert game.place[0] == 1 and game.pos[0] == data.GOAL and game.carrots[0] == 10


def test_HUI_18_two_runner_first_runner_needs_only_all_lettuces_eaten():
    game = position(2, pos={0: 63}, carrots={0: 500}, lettuces={0: 0})
    assert 64 in targets(game, slot=0)
    game = position(2, pos={0: 63}, carrots={0: 500}, lettuces={0: 1})
    assert 64 not in targets(game, slot=0)


def test_HUI_18_two_runner_second_runner_needs_the_carrot_limit_of_its_overall_place():
    # runner 0 (player 0 A) home first, runner 2 (player 1 A) second: player 0's B would be 3rd
    game = position(2, pos={1: 60}, place={0: 1, 2: 2}, carrots={0: 40}, lettuces={0: 0})
    assert 64 in targets(game, slot=1)  # 40 - 10 = 30 <= 30
    game = position(2, pos={1: 60}, place={0: 1, 2: 2}, carrots={0: 41}, lettuces={0: 0})
    assert 64 not in targets(game, slot=1)


def test_HUI_19_three_players_end_when_one_runner_is_left():
    game = position(3, pos={0: 60, 2: 30}, place={1: 1}, carrots={0: 30}, lettuces={0: 0})
    do(game, "move to goal")
    assert game.is_over and game.places() == [1, 0, 2]


def test_HUI_19_four_players_continue_after_the_first_finishes():
    game = position(4, pos={0: 60}, carrots={0: 20}, lettuces={0: 0})
    do(game, "move to goal")
    assert not game.is_over and game.current_agent == 1


def test_HUI_19_finished_players_are_skipped():
    game = position(4, pos={0: 60, 2: 40}, place={1: 1}, carrots={0: 30}, lettuces={0: 0})
    do(game, "move to 61")
    assert game.current_agent == 2


def test_HUI_19_two_runners_the_first_player_with_both_home_wins():
    game = position(2, pos={1: 60, 2: 30, 3: 20}, place={0: 1}, carrots={0: 20}, lettuces={0: 0})
    do(game, "B: move to goal")
    assert game.is_over and game.places() == [0, 1]


def test_HUI_19_duel_first_runner_home_wins():
    game = position(2, two_runners=False, pos={0: 60, 1: 50}, carrots={0: 20}, lettuces={0: 0})
    do(game, "move to goal")
    assert game.is_over and game.places() == [0, 1]


def test_HUI_19_and_29_first_team_with_all_runners_home_wins():
    game = position(4, teams="2x2", pos={0: 60, 1: 40, 3: 30}, place={2: 1}, carrots={0: 30}, lettuces={0: 0})
    do(game, "move to goal")
    assert game.is_over and game.places() == [0, 1, 0, 1]


def test_HUI_19_rewards_by_final_rank():
    env = hase_und_igel_v0.raw_env(num_players=3)
    env.reset(seed=0)
    env.game = position(3, pos={0: 60, 2: 30}, place={1: 1}, carrots={0: 30}, lettuces={0: 0})
    env._refresh()
    env._settle()
    env.step(env.string_to_action("move to goal"))
    assert env.terminations == {"player_0": True, "player_1": True, "player_2": True}
    assert env.rewards == {"player_0": 0.0, "player_1": 1.0, "player_2": -1.0}


def test_HUI_20_max_turns_truncates_with_zero_reward():
    env = hase_und_igel_v0.raw_env(num_players=4, max_turns=6)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    steps = 0
    while not env.truncations[env.agent_selection]:
        legal = env.legal_actions()
        env.step(legal[int(rng.integers(len(legal)))])
        steps += 1
    assert env.game.turn == 6 and all(env.truncations.values())
    assert all(r == 0 for r in env._cumulative_rewards.values())
    assert not env.observe(env.agent_selection)["action_mask"].any()


@pytest.mark.parametrize("layout, players", [("2x2", 4), ("3x2", 6), ("2x3", 6)])
def test_HUI_29_team_mates_never_move_one_after_another(layout, players):
    team = data.TEAM_LAYOUTS[layout]
    assert len(team) == players and len(set(team)) == {"2x2": 2, "3x2": 3, "2x3": 2}[layout]
    assert all(team[i] != team[(i + 1) % players] for i in range(players))


def test_HUI_29_team_reward_is_shared():
    env = hase_und_igel_v0.raw_env(num_players=6, teams="3x2")
    env.reset(seed=0)
    env.game = position(6, teams="3x2", pos={1: 60, 0: 30, 2: 20, 3: 10, 5: 5}, place={4: 1},
                        carrots={1: 30}, lettuces={1: 0}, turn_of=1)
    env._refresh()
    env._settle()
    env.step(env.string_to_action("move to goal"))
    # team 1 (players 1 and 4) wins; the two other teams share the remaining places
    assert env.rewards == {"player_0": -0.5, "player_1": 1.0, "player_2": -0.5,
                           "player_3": -0.5, "player_4": 1.0, "player_5": -0.5}


def test_HUI_30_two_runners_automatic_parts_then_another_runner_moves():
    # A eats (automatic), so only B may move
    game = position(2, pos={0: 7, 1: 3, 2: 20, 3: 21}, eat={0}, lettuces={0: 5})
    assert game.lettuces[0] == 4 and game.current_agent == 0
    assert all(name.startswith("B: ") for name in named(game))


def test_HUI_30_both_runners_busy_ends_the_turn():
    game = position(2, pos={0: 7, 1: 14, 2: 20, 3: 21}, eat={0}, miss={1})
    assert game.current_agent == 1


def test_HUI_30_payouts_checked_for_each_runner():
    game = position(2, pos={0: 4, 1: 9, 2: 20, 3: 21}, payout={0, 1}, carrots={0: 0})
    # race positions: 21 -> 1, 20 -> 2, 9 -> 3, 4 -> 4: A on "3" in 4th, B on "4" in 3rd: no match
    assert game.carrots[0] == 0
    game = position(2, pos={0: 9, 1: 4, 2: 20, 3: 21}, payout={0, 1}, carrots={0: 0})
    # A on "4" square 9 is 3rd, B on "3" square 4 is 4th: neither matches
    assert game.carrots[0] == 0
    game = position(2, pos={0: 9, 1: 12, 2: 20, 3: 21}, payout={0, 1}, carrots={0: 0})
    # A on "4" square 9 is 4th (+40), B on "3" square 12 is 3rd (+30)
    assert game.carrots[0] == 70


def test_HUI_30_a_stuck_runner_is_not_picked_while_the_other_runner_can_move():
    """HUI-30 DECISION (seed §7.1, runners "able to move"): A on 25 has no legal action (no
    carrots, hedgehog 24 taken), B on 12 may go back to hedgehog 11: the player must move B, and
    A neither gives up nor returns to Start."""
    game = position(2, pos={0: 25, 1: 12, 2: 24, 3: 30}, carrots={0: 0})
    assert game.current_agent == 0 and set(named(game)) == {"B: hedgehog back"}
    do(game, "B: hedgehog back")
    assert game.pos[0] == 25 and game.pos[1] == 11 and game.carrots[0] == 10


def test_HUI_30_stuck_player_chooses_which_runner_goes_back():
    """HUI-30 DECISION: only when none of the player's runners has a real move does it pick the
    stuck runner that returns to Start (HUI-16) or makes its final-stretch move (HUI-17)."""
    # both runners without any legal action: A on 25 (hedgehog 24 taken), B on 14 (hedgehog 11 taken)
    game = position(2, pos={0: 25, 1: 14, 2: 24, 3: 11}, carrots={0: 0})
    assert game.current_agent == 0 and set(named(game)) == {"A: give up", "B: give up"}
    do(game, "B: give up")
    assert game.pos[1] == 0 and game.pos[0] == 25 and game.carrots[0] == 98


def test_HUI_30_action_index_layout():
    game = position(2)
    assert game.num_actions == 139
    assert game.action_to_string(move(game, 5, slot=1)) == "B: move to 5"
    assert game.action_to_string(136) == "card: take 10"
