"""HB-18 … HB-24: time track, the four scorings (figures 11–14), fewer players, the end."""

from __future__ import annotations

import numpy as np
import pytest

from meadowzoo.envs.haste_bock import env as E
from meadowzoo.envs.haste_bock.rules import CARD, OVER, PANIC, TILE, HasteBockGame
from meadowzoo.envs.haste_bock_v0 import raw_env

from .helpers import ALBERT, DORIS, PETER, game_at, legal_strings, play

QUIET = """
.........
.........
.........
.........
...BT....
.........
R.Y.G....
.........
B.Y.G...R
"""


# ---- HB-18: time, stops, Roger and Jacques -------------------------------------------------------
def test_HB_18_marker_stops_at_37_and_the_next_player_moves_on():
    game = game_at(QUIET, time=35)
    play(game, "ram blue-1 E target 1 (card 3)")  # 35 + 3 stops at 37, the excess is lost
    assert game.time == 37 and game.player == PETER
    play(game, "ram yellow-1 E target 1 (card 2)")
    assert game.time == 39


def test_HB_18_marker_stops_at_74_and_the_game_ends():
    game = game_at(QUIET, time=72)
    play(game, "ram blue-1 E target 1 (card 3)")
    assert game.time == 74 and game.is_over and game.pending == OVER and game.legal_actions() == []


def test_HB_18_roger_arrives_in_phase_2_leaves_in_phase_3_and_jacques_arrives_in_phase_4():
    env = raw_env(rule_data={"panic_spaces": []})
    env.reset(seed=0)
    seen = {}
    while not env.game.is_over:
        obs = env.observe(env.agent_selection)["observation"]
        seen[env.game.phase] = (obs[E.SHEPHERD], obs[E.SHEPHERD + 1])
        env.step(env.legal_actions()[0])
    assert seen[1] == (0, 0) and seen[2] == (1, 0) and seen[3] == (0, 0) and seen[4] == (0, 1)


def test_HB_18_time_never_moves_backwards_and_never_passes_37():
    for seed in range(30):
        game = HasteBockGame(2, rng=np.random.default_rng(seed))
        rng = np.random.default_rng(seed)
        last = 0
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[int(rng.integers(len(legal)))])
            assert game.time >= last and not (last < 37 < game.time)
            last = game.time


# ---- HB-19: phase 1 (figure 11) -----------------------------------------------------------------
FIG_11 = """
.........
.........
...RR....
.........
....T....
.....Y...
......Y..
B.......G
G.......B
"""


@pytest.mark.parametrize(
    "player,scores",
    [
        (ALBERT, [0, 0, 0, 2]),  # orthogonal neighbours: 2
        (PETER, [0, 1, 0, 0]),  # diagonal neighbours: 1
        (DORIS, [0, 0, 0, 0]),  # distant sheep: nothing; and only the active player scores
    ],
    ids=["albert_2_orthogonal", "peter_1_diagonal", "doris_0_apart"],
)
def test_HB_19_figure_11_phase_1_the_active_player_scores_its_pair(player, scores):
    game = game_at(FIG_11, time=3, to_move=player)
    play(game, "herd cw (card 1)")  # ends the turn on 4 (phase 1)
    assert game.scores() == scores


# ---- HB-21: phase 2 (figure 12) -----------------------------------------------------------------
# Roger beyond the north edge. Doris blue, Peter yellow, Helga green, Albert red.
FIG_12 = """
.........
..B...G..
.........
.R.T.R.Y.
.........
....Y....
..G......
.........
......B..
"""


def test_HB_21_figure_12_phase_2_scoring_when_the_marker_passes_the_wall():
    game = game_at(FIG_12, time=22, to_move=DORIS)
    play(game, "row caravan 1 E (card 3)")  # 22 -> 25: passes the wall between 24 and 25
    # Albert 3+3, Peter 3+2, Doris 4+0, Helga 4+1; empty rows do not count
    assert game.scores() == [4, 5, 5, 6]


def test_HB_21_figure_12_phase_2_scoring_again_on_the_pen_37():
    game = game_at(FIG_12, time=34, to_move=DORIS)
    play(game, "row caravan 1 E (card 3)")
    assert game.time == 37 and game.scores() == [4, 5, 5, 6]
    quiet = game_at(FIG_12, time=25, to_move=DORIS)
    play(quiet, "row caravan 1 E (card 3)")  # 25 -> 28: no wall, no pen: nobody scores
    assert quiet.scores() == [0, 0, 0, 0]


CHINESE_PHASE_2 = """
Y........
.........
..Y.B....
.........
..R.R....
.........
.........
.........
.BGGT....
"""


def test_HB_21_phase_2_consecutive_rows_option_chinese_reading():
    # the Chinese example: yellow 4 + 2, blue 2, red nothing (the 3- and 1-point rows are empty)
    game = game_at(CHINESE_PHASE_2, time=22, phase2_rows="consecutive")
    play(game, "row caravan 8 W (card 3)")
    assert game.scores() == [2, 6, 0, 0]
    occupied = game_at(CHINESE_PHASE_2, time=22)  # default: only occupied rows count
    play(occupied, "row caravan 8 W (card 3)")
    # rows 0, 2, 4, 8 score 4, 3, 2, 1
    assert occupied.scores() == [3 + 1, 4 + 3, 1 + 1, 2 + 2]


# ---- HB-20: phase 3 (figure 13) -----------------------------------------------------------------
FIG_13 = """
.........
.........
...Y.....
...TY....
..R......
.........
.......R.
B...G....
B...G....
"""


@pytest.mark.parametrize(
    "player,scores",
    [(PETER, [0, 4, 0, 0]), (ALBERT, [0, 0, 0, 1])],  # 2 per orthogonal, 1 per diagonal neighbour
    ids=["peter_2_plus_2", "albert_1_diagonal"],
)
def test_HB_20_figure_13_phase_3_the_active_player_scores_next_to_thea(player, scores):
    game = game_at(FIG_13, time=40, to_move=player)
    play(game, "herd cw (card 1)")  # 40 -> 41, phase 3
    assert game.scores() == scores


# ---- HB-21: phase 4 (figure 14) -----------------------------------------------------------------
# Jacques beyond the north edge; the rows farthest from him score most.
FIG_14 = """
.........
..B.Y....
.........
......Y..
....T....
.B...G...
...G.....
.........
.R....R..
"""


def test_HB_21_figure_14_phase_4_thea_counts_as_a_row_and_the_front_row_scores_0():
    game = game_at(FIG_14, time=60, to_move=DORIS)
    play(game, "row caravan 8 E (card 3)")  # 60 -> 63: passes the wall between 62 and 63
    # Albert 4+4, Helga 3+2, Doris 2 (rear) + 0 (front row), Peter 0 + 0 (Thea's row takes the 1)
    assert game.scores() == [2, 0, 5, 8]


def test_HB_21_phase_4_final_scoring_on_74_and_the_nearest_row_never_scores():
    board = """
    BBYYGGRRT
    .........
    .........
    .........
    .........
    .........
    .........
    .........
    .........
    """
    game = game_at(board, time=72)
    play(game, "column caravan 0 S (card 2)")
    # one sheep in row 1 (farthest from Jacques: 4), the rest in the front row: 0
    assert game.time == 74 and game.is_over and game.scores() == [4, 0, 0, 0]


def test_HB_21_neutral_sheep_occupy_rows_but_score_for_nobody():
    game = game_at(FIG_12, time=22, num_players=2)  # green and red are neutral
    play(game, "row caravan 1 E (card 3)", "time tile 1")  # 22 -> 26
    assert game.scores() == [4, 5]


# ---- HB-22 / HB-23: fewer players ------------------------------------------------------------------
def test_HB_22_three_players_may_add_a_time_tile_and_lose_2_per_unused_tile():
    game = game_at(QUIET, num_players=3, time=1, rule_data={"cards": [["herd", 1]]})
    play(game, "herd cw (card 1)")
    assert game.pending == TILE and legal_strings(game) == ["no time tile", "time tile 1", "time tile 2", "time tile 3"]
    play(game, "time tile 2")  # 1 + 1 + 2
    assert game.time == 4 and game.tiles[0] == [1, 0, 1]
    play(game, "herd cw (card 1)", "no time tile", "herd cw (card 1)", "time tile 3")
    assert game.is_over  # every card is played
    # phase-1 points (none: no pair is adjacent) minus 2 per unused tile
    assert game.scores() == [-4, -6, -4]


def test_HB_23_two_players_must_add_one_of_twelve_tiles():
    game = HasteBockGame(2, rng=np.random.default_rng(0))
    assert game.tiles == [[4, 4, 4], [4, 4, 4]]
    while game.pending != CARD:
        game.apply(game.legal_actions()[0])
    game.apply(game.legal_actions()[0])  # the card
    game.apply(game.legal_actions()[0])  # its move
    assert game.pending == TILE
    assert [game.action_to_string(a) for a in game.legal_actions()] == ["time tile 1", "time tile 2", "time tile 3"]


def test_HB_23_four_players_have_no_time_tiles():
    game = game_at(QUIET, time=1)
    play(game, "herd cw (card 1)")
    assert game.pending == CARD and game.player == PETER and game.time == 2


# ---- HB-24: the end -------------------------------------------------------------------------------
def test_HB_24_game_ends_when_no_player_has_an_action_card_left():
    game = game_at(QUIET, time=1, rule_data={"cards": [["herd", 1], ["herd", 1]], "panic_spaces": []})
    for _ in range(8):
        assert not game.is_over
        play(game, "herd cw (card 1)")
    assert game.is_over and game.time == 9


def test_HB_24_highest_score_wins_ties_go_to_unused_card_values_then_shared():
    game = game_at(QUIET)
    game.points = [5, 5, 7, 5]
    game.hands[0] = [0] * 21
    game.hands[0][2] = 1  # one unused card worth 3
    game.hands[1] = [0] * 21
    game.hands[1][0] = 1  # worth 1
    game.hands[3] = [0] * 21
    game.hands[3][0] = 1  # worth 1: shares the place with Peter
    assert game.places() == [1, 2, 0, 2]


def test_HB_24_panic_after_the_last_card_still_happens():
    rule_data = {"cards": [["ram", 2]], "panic_spaces": [9]}
    for seed in range(20):
        game = game_at(QUIET, time=1, seed=seed, rule_data=rule_data)
        for _ in range(4):  # 1 -> 3 -> 5 -> 7 -> 9: Albert plays the last card onto the panic space
            game.apply(game.legal_actions()[0])
            game.apply(game.legal_actions()[0])
        if game.pending == PANIC:
            break
    assert game.pending == PANIC and game.player == ALBERT and not game.is_over
    game.apply(game.legal_actions()[0])
    assert game.is_over


def test_HB_24_three_players_unused_tiles_cost_2_each_also_when_the_game_ends_on_74():
    """HB-24: the game ends "when the marker reaches 74 (after its scoring)"; HB-22: with 3 players
    "at the end each unused time tile costs 2 points" -- at either end (DECISION in data.py: "with 3
    players the unused-tile penalty is applied at either end"). Hungarian rulebook: every time card
    not played by the end of the game costs 2 spaces on the score track."""
    game = game_at(QUIET, num_players=3, time=72)  # every player still holds 12 action cards
    play(game, "step blue-1 W (card 1)", "time tile 1")  # Doris: 72 + 1 + 1 = 74, the closed pen
    assert game.is_over and game.time == 74
    assert all(sum(game.hands[p]) > 0 for p in range(3))  # the end came from 74, not from the cards
    assert game.tiles == [[0, 1, 1], [1, 1, 1], [1, 1, 1]]
    # HB-21 final phase-4 scoring, Jacques beyond the north edge: occupied rows 4 (B T), 6 (R Y G) and
    # 8 (B Y G R); row 8 (farthest) 4 a sheep, row 6 3, row 4 is nearest Jacques: 0. Red is neutral.
    phase_4 = [0 + 4, 3 + 4, 3 + 4]  # blue rows 4 and 8, yellow rows 6 and 8, green rows 6 and 8
    unused = [2, 3, 3]
    assert game.scores() == [phase_4[p] - 2 * unused[p] for p in range(3)]  # [0, 1, 1]
