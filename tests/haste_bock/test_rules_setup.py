"""HB-1 … HB-8: pasture, sheep, start block, track, cards, die, panic spaces, opening panic."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from meadowzoo.envs.haste_bock import data as D
from meadowzoo.envs.haste_bock.rules import CARD, PANIC, HasteBockGame
from meadowzoo.envs.haste_bock_v0 import raw_env

from .helpers import game_at, is_legal, legal_strings, moves, play

SPARSE = """
.........
.........
..B......
.........
....T....
......Y..
..G......
.R.....R.
B.Y....G.
"""


def test_HB_1_pasture_is_9x9_and_the_fence_stops_every_action():
    game = HasteBockGame(4, rng=np.random.default_rng(0))
    assert len(game.board) == 81
    corner = """
    B........
    .........
    ..Y......
    .........
    ....T....
    ......Y..
    ..G......
    .R.....R.
    B.......G
    """
    steps = [s.split()[2] for s in moves(game_at(corner), "play step (card 1)") if s.startswith("step blue-1")]
    assert sorted(steps) == ["E", "S", "SE"]


def test_HB_2_seats_take_colours_and_neutral_sheep_belong_to_nobody():
    assert HasteBockGame(4).owner == (0, 0, 1, 1, 2, 2, 3, 3, -1)
    assert HasteBockGame(3).owner == (0, 0, 1, 1, 2, 2, -1, -1, -1)  # red neutral
    assert HasteBockGame(2).owner == (0, 0, 1, 1, -1, -1, -1, -1, -1)  # green and red neutral


def _valid_layouts() -> set[tuple[int, ...]]:
    """Enumerate the HB-3 layouts from the definition (independently of the data module)."""
    block = [(r, c) for r in range(3, 6) for c in range(3, 6) if (r, c) != (4, 4)]
    corners = [(3, 3), (3, 5), (5, 3), (5, 5)]
    found = set()
    for order in itertools.permutations(block):
        colour_of = {sq: i // 2 for i, sq in enumerate(order)}
        if sorted(colour_of[c] for c in corners) != [0, 1, 2, 3]:
            continue
        ok = True
        for colour in range(4):
            a, b = [sq for sq in block if colour_of[sq] == colour]
            if {abs(a[0] - b[0]), abs(a[1] - b[1])} != {1, 2}:
                ok = False
        if ok:
            squares = []
            for colour in range(4):
                squares += sorted(r * 9 + c for (r, c) in block if colour_of[(r, c)] == colour)
            found.add(tuple(squares) + (40,))
    return found


def test_HB_3_there_are_48_start_layouts_and_the_default_is_a_seeded_random_one():
    valid = _valid_layouts()
    assert len(valid) == 48 and set(D.START_LAYOUTS) == valid
    drawn = [HasteBockGame.start_squares(np.random.default_rng(seed)) for seed in range(80)]
    assert all(layout in valid for layout in drawn) and len(set(drawn)) > 20
    env = raw_env()
    env.reset(seed=5)
    first = env.snapshot()["game"]["pos"]
    env.reset(seed=5)
    assert env.snapshot()["game"]["pos"] == first
    assert any(env.reset(seed=s) or env.snapshot()["game"]["pos"] != first for s in range(6, 10))


def test_HB_3_fixed_layout_option_and_common_facing():
    game = HasteBockGame(4, rng=np.random.default_rng(0), layout="fixed")
    assert game.pos == list(D.FIXED_LAYOUT)
    assert game.board_text().splitlines()[3:6] == ["...BYG...", "...RTB...", "...YGR..."]
    assert game.facing == 0  # all sheep face north by default
    assert HasteBockGame(4, facing="E").facing == 1
    with pytest.raises(ValueError, match="layout"):
        HasteBockGame(4, layout="diagonal")


def test_HB_4_track_starts_at_zero_with_phases_walls_and_pens():
    game = HasteBockGame(4, rng=np.random.default_rng(1))
    assert game.time == 0 and game.scores() == [0, 0, 0, 0]
    assert [D.phase_of(t) for t in (1, 12, 13, 37, 38, 49, 50, 74)] == [1, 1, 2, 2, 3, 3, 4, 4]
    assert (D.WALL_1, D.WALL_2, D.PEN_1, D.PEN_2) == (24, 62, 37, 74)


def test_HB_5_twelve_cards_four_of_each_value_from_one_replaceable_table():
    game = HasteBockGame(4, rng=np.random.default_rng(0))
    for p in range(4):
        hand = game.hands[p]
        assert sum(hand) == 12
        assert [sum(hand[k] for k in range(21) if k % 3 == v) for v in range(3)] == [4, 4, 4]
    custom = raw_env(rule_data={"cards": [["leap", 3], ["herd", 1]]})
    custom.reset(seed=0)
    assert sum(custom.game.hands[0]) == 2
    with pytest.raises(ValueError, match="cards"):
        raw_env(rule_data={"cards": [["fly", 1]]})


def test_HB_6_die_faces_choose_the_rammer():
    board = SPARSE
    black = game_at(board, die="black")
    assert {s.split()[2] for s in legal_strings(black)} == {"thea"}
    white = game_at(board, die="white")
    assert {s.split()[2] for s in legal_strings(white)} > {"thea", "blue-1", "red-2"}
    green = game_at(board, die="green", to_move=1)  # any player may have to ram with any colour
    assert {s.split()[2] for s in legal_strings(green)} <= {"green-1", "green-2"}


def test_HB_7_panic_spaces_come_from_the_replaceable_table():
    assert D.DEFAULT_RULE_DATA["panic_spaces"] == [7, 19, 31, 44, 56, 68]
    game = game_at(SPARSE, time=5, rule_data={"panic_spaces": [6]})
    play(game, "step blue-1 N (card 1)")  # 5 -> 6: a panic space of the replaced table
    assert game.pending == PANIC and game.player == 0 and game.time == 6


def test_HB_8_opening_each_player_rams_once_from_the_start_player():
    for seed in range(20):
        game = HasteBockGame(4, rng=np.random.default_rng(seed), layout="fixed")
        rollers = []
        while game.time == 0 and game.pending == PANIC:
            rollers.append(game.player)
            rammers = {game.action_to_string(a).split()[2] for a in game.legal_actions()}
            face = D.DIE_FACES[game.die]
            if face in D.COLOURS:
                assert rammers <= {f"{face}-1", f"{face}-2"}
            game.apply(game.legal_actions()[0])
        assert rollers == sorted(rollers) and len(set(rollers)) == len(rollers)  # void rolls skip
        assert game.pending == CARD and game.player == 0 and game.turn == 1


def test_HB_8_two_players_ram_twice_alternating():
    orders = set()
    for seed in range(20):
        game = HasteBockGame(2, rng=np.random.default_rng(seed), layout="fixed")
        rollers = []
        while game.time == 0 and game.pending == PANIC:
            rollers.append(game.player)
            game.apply(game.legal_actions()[-1])
        orders.add(tuple(rollers))
        assert game.player == 0 and game.pending == CARD
        rest = iter((0, 1, 0, 1))
        assert all(p in rest for p in rollers)  # an in-order subsequence of A B A B (void rolls skip)
    assert (0, 1, 0, 1) in orders


def test_HB_8_a_roll_without_possible_ram_is_void():
    # both red sheep in corners with nothing behind any sheep on their rays: red cannot ram
    board = """
    R........
    .........
    ...B.....
    .........
    .....T...
    ......Y..
    ..G......
    .B.Y..G..
    ........R
    """
    game = game_at(board, time=6)
    # choose a generator whose next die roll is red (face 3)
    seed = next(s for s in range(100) if np.random.default_rng(s).integers(6) == 3)
    game.rng = np.random.default_rng(seed)
    play(game, "step blue-2 N (card 1)")  # 6 -> 7, a panic space; red cannot ram
    assert game.pending == CARD and game.player == 1 and game.die == -1 and game.time == 7
    assert is_legal(game, "herd cw (card 1)")
