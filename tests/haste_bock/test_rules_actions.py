"""HB-9 … HB-17: the turn and the seven actions, with the rulebook's figures 4.1–4.6, 6, 7, 8, 9, 10."""

from __future__ import annotations

import numpy as np
import pytest

from meadowzoo.envs.haste_bock.rules import CARD, MOVE, PANIC, TILE, HasteBockGame

from .helpers import ALBERT, DORIS, HELGA, PETER, after, game_at, is_legal, legal_strings, moves, norm, play

# ---- HB-13: ram (figures 4.1 – 4.6) -------------------------------------------------------------


def test_HB_13_figure_4_1_albert_rolls_black_and_rams_blue_diagonally_back():
    board = """
    .........
    .........
    .........
    ...GY....
    ...YTR...
    ...GRB...
    .........
    .........
    B........
    """
    game = game_at(board, die="black", to_move=ALBERT)
    assert all(s.startswith("panic ram thea") for s in legal_strings(game))
    play(game, "panic ram thea SE target 1")
    assert game.board_text() == norm("""
    .........
    .........
    .........
    ...GY....
    ...Y.R...
    ...GRT...
    ......B..
    .........
    B........
    """)


def test_HB_13_figure_4_2_the_rammer_runs_over_empty_squares():
    board = """
    .........
    .........
    ..Y......
    .........
    ....R....
    ....T....
    .B.G.....
    .R....Y..
    B.....G..
    """
    # Helga rolls yellow: the yellow sheep runs diagonally over the empty square and rams red
    assert after(board, "panic ram yellow-1 SE target 1", die="yellow", to_move=HELGA) == norm("""
    .........
    .........
    .........
    .........
    ....Y....
    ....TR...
    .B.G.....
    .R....Y..
    B.....G..
    """)


def test_HB_13_figure_4_3_several_sheep_in_a_line_are_rammed_together():
    board = """
    .........
    .........
    .........
    .........
    ..GBR....
    ....T....
    .B.G.....
    .R....Y..
    Y........
    """
    game = game_at(board, die="green", to_move=PETER)
    assert not is_legal(game, "panic ram green-1 E target 1")  # blue cannot move: red stands behind it
    play(game, "panic ram green-1 E target 2")
    assert game.board_text().splitlines()[4] == "...GBR..."


FIG_4_4 = """
.........
.........
.........
.........
..RY.B...
....T....
.B.G.....
.R....Y..
.....G...
"""


def test_HB_13_figure_4_4_doris_rams_yellow_one_square_back():
    assert after(FIG_4_4, "panic ram red-1 E target 1", die="red", to_move=DORIS).splitlines()[4] == "...RYB..."


def test_HB_13_figure_4_5_cannot_push_2_squares_unless_the_next_sheep_is_taken_too():
    game = game_at(FIG_4_4, die="red", to_move=DORIS)
    yellow_two = []
    for action in game.legal_actions():
        twin = game.clone()
        twin.apply(action)
        if twin.pos[2] == game.pos[2] + 2:  # yellow-1 moved 2 squares east
            yellow_two.append(game.action_to_string(action))
    assert yellow_two == ["panic ram red-1 E target 2"]


def test_HB_13_figure_4_6_taking_blue_too_moves_yellow_two_squares():
    # the last sheep (blue) always moves exactly one square; yellow and red pack behind it
    assert after(FIG_4_4, "panic ram red-1 E target 2", die="red", to_move=DORIS).splitlines()[4] == "....RYB.."


def test_HB_13_ram_target_needs_an_empty_square_inside_the_fence():
    board = """
    .........
    .........
    .........
    .........
    B...Y..GR
    ....T....
    .B.G.....
    .R....Y..
    .........
    """
    game = game_at(board, to_move=DORIS)
    assert is_legal(game, "ram blue-1 E target 1 (card 2)")
    assert not is_legal(game, "ram blue-1 E target 2 (card 2)")  # green has red behind it
    assert not is_legal(game, "ram blue-1 E target 3 (card 2)")  # red would cross the fence
    assert not is_legal(game, "ram blue-1 W target 1 (card 2)")  # nobody to ram
    play(game, "ram blue-1 E target 1 (card 2)")
    assert game.board_text().splitlines()[4] == "....BY.GR"


def test_HB_13_ram_is_own_sheep_only():
    game = game_at(FIG_4_4, to_move=PETER)
    rammers = {s.split()[1] for s in moves(game, "play ram (card 2)")}
    assert rammers <= {"yellow-1", "yellow-2"} and rammers


# ---- HB-14: leap (figure 6) ----------------------------------------------------------------------
FIG_6 = """
.........
.........
.........
.........
G.B.R.Y..
.........
.........
.........
R.B..TY.G
"""


def test_HB_14_figure_6_leap_lands_behind_red_or_behind_blue_never_past_the_fence():
    game = game_at(FIG_6, to_move=PETER)
    assert after(FIG_6, "leap yellow-1 W over 1 (card 3)", to_move=PETER).splitlines()[4] == "G.BYR...."
    assert after(FIG_6, "leap yellow-1 W over 2 (card 3)", to_move=PETER).splitlines()[4] == "GYB.R...."
    assert not is_legal(game, "leap yellow-1 W over 3 (card 3)")  # green stands at the fence


def test_HB_14_leap_lands_directly_behind_the_last_sheep_jumped():
    board = """
    .........
    .........
    .........
    ....Y....
    ....B....
    ....R....
    .........
    .........
    R.B..TYGG
    """
    game = game_at(board, to_move=PETER)
    assert not is_legal(game, "leap yellow-1 S over 1 (card 3)")  # red stands right behind blue
    play(game, "leap yellow-1 S over 2 (card 3)")
    assert game.board_text().splitlines()[6] == "....Y...."


# ---- HB-15: caravans (figures 7, 8) --------------------------------------------------------------
def test_HB_15_figure_7_diagonal_caravan_moves_every_sheep_on_the_diagonal():
    board = """
    .........
    .R.......
    .........
    ...Y.....
    ....B....
    .........
    ......T..
    .B.G.....
    R....GY..
    """
    # Helga moves red, yellow, blue (and Thea: every sheep on the diagonal) one square SE
    assert after(board, "diagonal caravan r0c0 SE (card 1)", to_move=HELGA) == norm("""
    .........
    .........
    ..R......
    .........
    ....Y....
    .....B...
    .........
    .B.G...T.
    R....GY..
    """)


def test_HB_15_figure_8a_row_caravan_moves_blue_and_green():
    board = """
    .........
    .........
    .........
    .........
    ..B...G..
    .........
    ....T....
    .B.G.....
    R....YY.R
    """
    assert after(board, "row caravan 4 E (card 2)", to_move=ALBERT).splitlines()[4] == "...B...G."


def test_HB_15_figure_8b_a_caravan_may_not_push_its_lead_sheep_off_the_line():
    board = """
    .........
    .........
    .........
    .........
    ..B.....G
    .........
    ....T....
    .B.G.....
    R....YY.R
    """
    game = game_at(board, to_move=ALBERT)
    assert not is_legal(game, "row caravan 4 E (card 2)")
    assert is_legal(game, "row caravan 4 W (card 2)")
    assert not is_legal(game, "row caravan 2 E (card 2)")  # an empty line moves nothing
    assert not is_legal(game, "column caravan 0 S (card 3)")  # red stands on the south fence


# ---- HB-16: feeding trough (figures 9, 9a – 9d) --------------------------------------------------
FIG_9 = """
.........
..G..B...
.........
.T.R.....
....Y..B.
..R......
....G....
...Y.....
.........
"""


def test_HB_16_figure_9a_everybody_aligns_to_the_black_sheeps_line():
    assert after(FIG_9, "trough W (card 2)") == norm("""
    .........
    .GB......
    .........
    .TR......
    .YB......
    .R.......
    .G.......
    .Y.......
    .........
    """)


def test_HB_16_figure_9b_everybody_aligns_to_green_and_blue():
    assert after(FIG_9, "trough N (card 2)") == norm("""
    .........
    .TGRYB.B.
    ..RYG....
    .........
    .........
    .........
    .........
    .........
    .........
    """)


def test_HB_16_figure_9c_everybody_aligns_to_blue():
    assert after(FIG_9, "trough E (card 3)") == norm("""
    .........
    ......GB.
    .........
    ......TR.
    ......YB.
    .......R.
    .......G.
    .......Y.
    .........
    """)


def test_HB_16_figure_9d_everybody_aligns_to_yellow():
    assert after(FIG_9, "trough S (card 3)") == norm("""
    .........
    .........
    .........
    .........
    .........
    .........
    ..GRY....
    .TRYGB.B.
    .........
    """)


def test_HB_16_trough_that_moves_nothing_is_illegal():
    board = """
    RRBBYYGG.
    T........
    .........
    .........
    .........
    .........
    .........
    .........
    .........
    """
    game = game_at(board)
    assert not is_legal(game, "trough N (card 2)") and not is_legal(game, "trough W (card 2)")
    assert is_legal(game, "trough S (card 2)") and is_legal(game, "trough E (card 2)")


def test_HB_16_next_player_may_not_trough_back_but_may_use_the_other_two_sides():
    game = game_at(FIG_9)
    play(game, "trough N (card 2)")
    assert game.player == PETER and game.no_trough == 2
    assert not is_legal(game, "trough S (card 2)")
    play(game, "trough E (card 2)")
    assert game.player == HELGA and game.no_trough == 3 and not is_legal(game, "trough W (card 2)")
    play(game, "trough S (card 3)")  # Helga: south was forbidden only to Peter
    assert game.no_trough == 0


# ---- HB-17: herd instinct (figure 10) ------------------------------------------------------------
def test_HB_17_figure_10_peter_turns_the_flock_right_and_roger_follows():
    game = game_at(FIG_9, time=20, to_move=PETER)
    assert game.phase == 2 and game.facing == 0  # Roger stands beyond the north edge
    before = game.board_text()
    play(game, "herd cw (card 1)")
    assert game.facing == 1 and game.board_text() == before  # sheep keep their squares
    assert not is_legal(game, "herd ccw (card 1)")  # Helga may not turn back ...
    play(game, "herd cw (card 1)")  # ... but may turn further the same way
    assert game.facing == 2 and game.no_herd == 1


def test_HB_17_herd_in_phase_two_moves_roger_to_the_new_edge_for_scoring():
    board = """
    ........R
    ........R
    .........
    .........
    B........
    B........
    .........
    YYGG.....
    T........
    """
    game = game_at(board, time=22, to_move=DORIS)
    play(game, "herd ccw (card 1)")  # 22 -> 23; Roger now beyond the west edge
    assert game.facing == 3
    game2 = game.clone()
    play(game2, "row caravan 8 E (card 2)")  # Peter: 23 -> 25, phase-2 scoring with Roger west
    # rows are columns now, nearest Roger first: column 0 (B B Y) 4, column 1 (Y, Thea) 3,
    # column 2 (G) 2, column 3 (G) 1, column 8 (R R) 0
    assert game2.scores() == [8, 7, 3, 0]


# ---- HB-9, HB-10, HB-11, HB-12 ---------------------------------------------------------------------
def test_HB_9_card_leaves_the_game_time_moves_then_panic_on_a_panic_space():
    game = game_at(FIG_9, time=4)
    play(game, "trough N (card 3)")  # 4 -> 7: a panic space
    assert game.hands[0][5 * 3 + 2] == 0 and game.time == 7
    assert game.pending == PANIC and game.player == DORIS and game.die >= 0
    scores, time = game.scores(), game.time
    game.apply(game.legal_actions()[0])
    assert game.scores() == scores and game.time == time  # the panic ram scores nothing, moves no time
    assert game.pending == CARD and game.player == PETER


def test_HB_10_every_legal_card_move_moves_a_sheep_or_turns_the_flock():
    rng = np.random.default_rng(3)
    for seed in range(15):
        game = HasteBockGame(4, rng=np.random.default_rng(seed))
        while not game.is_over:
            legal = game.legal_actions()
            if game.pending == CARD:  # a card is offered iff its type has a legal move
                offered = {a // 3 for a in legal if a < 21}
                with_moves = {t for t in range(7) if game._type_moves(t, game._occupancy())}
                held = {k // 3 for k in range(21) if game.hands[game.player][k]}
                assert offered == with_moves & held
            if game.pending == MOVE:
                for action in legal:
                    twin = game.clone()
                    twin.apply(action)
                    assert twin.pos != game.pos or twin.facing != game.facing, game.action_to_string(action)
            game.apply(legal[int(rng.integers(len(legal)))])


def test_HB_11_no_legal_card_means_discarding_one_card_whose_time_counts():
    # both blue sheep are boxed in corners; Doris holds only step cards
    board = """
    BR.....GB
    RY.....YG
    .........
    .........
    ....T....
    .........
    .........
    .........
    .........
    """
    game = game_at(board, rule_data={"cards": [["step", 1], ["step", 2]]})
    assert legal_strings(game) == ["discard step (card 1)", "discard step (card 2)"]
    assert game.is_fallback()
    play(game, "discard step (card 2)")
    assert game.time == 3 and game.hands[0][1] == 0 and game.player == PETER


def test_HB_12_step_moves_one_own_sheep_to_a_free_neighbour():
    game = game_at(FIG_9, to_move=HELGA)
    steps = moves(game, "play step (card 1)")
    assert len(steps) == 15  # green-1 has 8 free neighbours, green-2 7 (yellow stands SW of it)
    assert "step green-2 SW" not in steps
    assert all(s.split()[1] in ("green-1", "green-2") for s in steps)
    play(game, "step green-2 NE (card 1)")
    assert game.board_text().splitlines()[5] == "..R..G..."


def test_HB_9_two_players_choose_a_card_then_a_mandatory_time_tile():
    game = game_at(FIG_9, num_players=2, time=1)
    play(game, "herd cw (card 1)")
    assert game.pending == TILE and game.player == DORIS
    assert legal_strings(game) == ["time tile 1", "time tile 2", "time tile 3"]
    play(game, "time tile 3")
    assert game.time == 5 and game.tiles[0] == [4, 4, 3] and game.player == PETER


@pytest.mark.parametrize(
    "text",
    ["play ram (card 3)", "ram blue-1 NE target 2", "leap blue-2 W over 3", "herd ccw", "discard leap (card 3)",
     "panic ram thea SW target 1", "time tile 2", "no time tile", "diagonal caravan r0c2 SW", "column caravan 4 N"],
)
def test_HB_9_action_strings_are_readable_and_round_trip(text):
    game = game_at(FIG_9)
    assert game.action_to_string(game.string_to_action(text)) == text


def test_HB_9_a_turn_is_card_then_move_of_the_same_player():
    game = game_at(FIG_9)
    assert "play leap (card 3)" in legal_strings(game)
    play(game, "play leap (card 3)")
    assert game.pending == MOVE and game.player == DORIS and game.hands[0][2 * 3 + 2] == 0
    assert all(s.startswith("leap blue-") for s in legal_strings(game))


# ---- HB-16 / HB-17: the no-undo ban survives a panic ram in between ------------------------------
# data.py, DECISION: "HB-16/17 no-undo: the restriction binds the immediately following player's next
# card play; a panic ram in between does not lift it, the end of that player's turn does."


def _panic_rams_after(board: str, first_move: str, time: int) -> list[HasteBockGame]:
    """Doris plays ``first_move`` from ``time`` onto a panic space: one game per legal panic ram,
    each right after that ram (the die is drawn from the seed; a seed whose roll is void is skipped)."""
    for seed in range(40):
        game = game_at(board, time=time, seed=seed)
        play(game, first_move)
        if game.pending == PANIC:
            break
    assert game.pending == PANIC and game.player == DORIS  # HB-9 (4): the active player rolls and rams
    out = []
    for action in game.legal_actions():
        twin = game.clone()
        twin.apply(action)
        assert twin.pending == CARD and twin.player == PETER and twin.time == game.time
        out.append(twin)
    return out


def test_HB_16_no_trough_back_still_binds_the_next_player_after_a_panic_ram():
    """HB-16: "The immediately following player may not play a trough in the opposite direction."
    DECISION (data.py): "the restriction binds the immediately following player's next card play; a
    panic ram in between does not lift it, the end of that player's turn does."
    """
    games = _panic_rams_after(FIG_9, "trough N (card 3)", time=4)  # 4 -> 7: a panic space
    assert games
    for game in games:
        # the same pasture without the ban: a trough south would move sheep, so only the ban forbids it
        free = game_at(game.board_text(), time=game.time, to_move=PETER)
        assert is_legal(free, "trough S (card 2)") and is_legal(free, "trough S (card 3)")
        assert not is_legal(game, "trough S (card 2)") and not is_legal(game, "trough S (card 3)")
        for side in "EW":  # the two other sides are not affected
            assert is_legal(game, f"trough {side} (card 2)") == is_legal(free, f"trough {side} (card 2)")
    # the end of Peter's turn lifts the ban: Helga may trough south
    game = games[0]
    play(game, "herd cw (card 1)")  # Peter: moves no sheep, 7 -> 8 (no panic space)
    assert game.player == HELGA and game.pending == CARD
    assert is_legal(game, "trough S (card 2)")


def test_HB_17_no_turning_back_still_binds_the_next_player_after_a_panic_ram():
    """HB-17: "The immediately following player may not turn back, but may turn further in the same
    sense." DECISION (data.py): "the restriction binds the immediately following player's next card
    play; a panic ram in between does not lift it, the end of that player's turn does."
    """
    games = _panic_rams_after(FIG_9, "herd cw (card 1)", time=6)  # 6 -> 7: a panic space
    assert games
    for game in games:
        assert game.facing == 1  # Doris turned the flock clockwise (N -> E); the panic ram turns nothing
        free = game_at(game.board_text(), time=game.time, to_move=PETER, facing="E")
        assert is_legal(free, "herd ccw (card 1)")  # without the ban turning back is legal
        assert not is_legal(game, "herd ccw (card 1)")
        assert is_legal(game, "herd cw (card 1)")  # turning further the same way stays legal
    # the end of Peter's turn lifts the ban: Helga may turn counter-clockwise
    game = games[0]
    play(game, "trough N (card 2)")  # Peter: 7 -> 9, no panic space
    assert game.player == HELGA and game.pending == CARD
    assert is_legal(game, "herd ccw (card 1)")
