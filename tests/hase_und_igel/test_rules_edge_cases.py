"""Edge cases of HUI-12, 17, 22, 24, 26–29 that an audit of the rules found untested.

Every expected value comes from the rule text of ``docs/rules/hase_und_igel.md`` (quoted in the
docstrings) or the 1978 rulebook (seed §-references), not from running the engine.
"""

import numpy as np
import pytest

from meadowzoo.envs.hase_und_igel import data
from meadowzoo.envs.hase_und_igel.rules import MOVE, HaseUndIgelGame
from tests.hase_und_igel.helpers import do, named, position


def moves_only(game: HaseUndIgelGame) -> bool:
    """Every legal action is a move (forward or hedgehog back): no staying, no card choice."""
    names = named(game)
    return bool(names) and all(n.startswith("move to") or n == "hedgehog back" for n in names)


# ---- HUI-17: final stretch ---------------------------------------------------------------------------


def test_HUI_17_moves_back_past_several_occupied_hedgehogs_to_the_nearest_free_one():
    """HUI-17: "whose nearest hedgehog is occupied instead moves back to the nearest **free**
    hedgehog, gaining 10 per square" (seed §6: "mindaddig hátra kell lépjen, amíg nem talál üres
    sündisznó-mezőt"). On 63 with a lettuce left the Goal is closed and no square lies ahead;
    hedgehogs 56, 50 and 43 are taken, so the runner goes to 37: 26 squares, +260."""
    game = position(4, pos={0: 63, 1: 56, 2: 50, 3: 43}, carrots={0: 100}, lettuces={0: 1})
    assert game.pos[0] == 37
    assert game.carrots[0] == 100 + 10 * (63 - 37)
    assert game.lettuces[0] == 1  # nothing else changes
    assert game.current_agent == 1  # that was its whole turn
    assert [game.pos[r] for r in (1, 2, 3)] == [56, 50, 43]


def test_HUI_17_too_many_carrots_past_several_occupied_hedgehogs():
    """HUI-17 with the other cause, "too many carrots": no lettuce, 60 carrots on 63 (after the
    1 carrot for the last square, 59 > 10 for the first finisher); hedgehogs 56 and 50 are taken:
    back to 43, 20 squares, +200."""
    game = position(4, pos={0: 63, 1: 56, 2: 50, 3: 20}, carrots={0: 60}, lettuces={0: 0})
    assert game.pos[0] == 43 and game.carrots[0] == 60 + 200
    assert game.current_agent == 1


def test_HUI_17_final_stretch_runner_that_cannot_pay_returns_to_start():
    """HUI-17 covers a runner stuck "because it cannot finish (lettuce left or too many carrots)";
    one that meets the finishing conditions (no lettuce, 2 carrots <= 10) but cannot pay for any
    move is stuck for want of carrots: HUI-16 (seed §5, the carrot supply runs out) sends it to
    Start with the starting carrots, even though hedgehog 50 behind the taken 56 is free.
    From 61: 62 is lettuce (no lettuce held), 63 costs 3, the Goal 6."""
    game = position(4, pos={0: 61, 1: 56}, carrots={0: 2}, lettuces={0: 0})
    assert game.pos[0] == data.START
    assert game.carrots[0] == 68 and game.lettuces[0] == 0
    assert game.current_agent == 1


def test_HUI_17_no_free_hedgehog_behind_falls_back_to_start():
    """HUI-17's move needs a free hedgehog; without one the HUI-16 rule it is an exception to
    applies: back to Start, starting carrots, lettuces kept.

    Unreachable in real play (10 hedgehogs behind the final stretch, at most 5 other runners),
    so the position is artificial: every hedgehog square is marked taken on the board."""
    game = position(4, pos={0: 63, 1: 30}, carrots={0: 100}, lettuces={0: 1}, turn_of=1)
    for hedgehog in data.squares_of(data.HEDGEHOG):
        if game.occupant[hedgehog] < 0:
            game.occupant[hedgehog] = 2  # a runner still on Start stands in for "somebody"
    game.cur = 0
    game._legal = None
    game._begin_turn()
    assert game.pos[0] == data.START
    assert game.carrots[0] == 68 and game.lettuces[0] == 1
    assert game.current_agent == 1


def test_HUI_17_two_runners_first_runner_is_blocked_only_by_lettuce():
    """HUI-17 with HUI-18's two-runner rule ("the first runner of a player needs only all 5
    lettuces eaten (any carrots)"): for a player's first runner only a lettuce left can block the
    Goal, so only then does HUI-17 apply. B misses this turn (HUI-30), so A, on 63 with the
    nearest hedgehogs 56 and 50 taken, is the player's only runner to move."""
    # a lettuce left: A cannot finish and has no other action -> back to the nearest free hedgehog 43
    game = position(2, pos={0: 63, 1: 14, 2: 56, 3: 50}, miss={1}, carrots={0: 98}, lettuces={0: 1})
    assert game.pos[0] == 43 and game.carrots[0] == 98 + 10 * (63 - 43)
    assert game.current_agent == 1
    # all lettuces eaten: 500 carrots do not block the first runner, it may finish instead
    game = position(2, pos={0: 63, 1: 14, 2: 56, 3: 50}, miss={1}, carrots={0: 500}, lettuces={0: 0})
    assert game.pos[0] == 63 and game.current_agent == 0
    assert named(game) == ["A: move to goal"]


def test_HUI_17_two_runners_second_runner_is_blocked_by_the_carrot_limit():
    """HUI-17 with HUI-18: the player's second runner "must also meet the carrot limit for its
    overall finishing place". A is home (1st), so B on 63 would be 2nd: at most 20 carrots after
    paying 1. With 500 it cannot finish; 56 and 50 are taken: back to 43, +200."""
    game = position(2, pos={1: 63, 2: 56, 3: 50}, place={0: 1}, carrots={0: 500}, lettuces={0: 0})
    assert game.pos[1] == 43 and game.carrots[0] == 500 + 200
    assert game.current_agent == 1


# ---- HUI-22: forward / back to the nearest carrot square ---------------------------------------------


def test_HUI_22_no_carrot_square_behind_means_no_effect():
    """HUI-22: "If that square is occupied or does not exist: no effect." Hare square 1 has no
    carrot square behind it (Start is not one): the runner stays on 1, gets no take/give choice
    (it did not arrive anywhere) and its turn ends."""
    game = position(4, deck=["back_to_carrot"])
    do(game, "move to 1")
    assert game.pos[0] == 1 and game.carrots[0] == 67
    assert game.current_agent == 1 and game.pending == MOVE
    assert game.deck[-1] == data.CARD_KINDS.index("back_to_carrot")  # drawn and put under


def test_HUI_22_occupied_carrot_square_behind_means_no_effect_not_the_next_one():
    """HUI-22 / seed §8.3 ("Amennyiben a legközelebbi sárgarépa-mező foglalt, úgy a kártya
    hatástalan"): the nearest carrot square behind hare square 14 is 13; it is taken, so nothing
    happens; the runner does not go on to the next carrot square 5."""
    game = position(4, pos={0: 12, 1: 13}, deck=["back_to_carrot"], carrots={0: 20})
    do(game, "move to 14")
    assert game.pos[0] == 14 and game.carrots[0] == 17
    assert game.current_agent == 1 and game.pending == MOVE


# ---- HUI-24: last move free with chain_hare_cards ------------------------------------------------------


def test_HUI_24_chained_last_move_free_after_a_card_move_refunds_nothing():
    """HUI-24: "refund what was paid for the move onto this hare square (0 if nothing)". With
    chain_hare_cards, "fall back" moves the runner (which paid 6 for 28 -> 31) for free onto hare
    square 25; the card drawn there, "last move free", refunds the 0 paid for that arrival."""
    game = position(4, pos={0: 28, 1: 26}, deck=["fall_back_one_position", "last_move_free"],
                    carrots={0: 20}, chain_hare_cards=True)
    do(game, "move to 31")
    assert game.pos[0] == 25
    assert game.last_card == data.CARD_KINDS.index("last_move_free")  # the chained card was drawn
    assert game.carrots[0] == 20 - 6


def test_HUI_24_chained_last_move_free_after_move_up_refunds_nothing():
    """HUI-24 "(0 if nothing)" after "move up one position": 20 -> 25 costs 15; the runner directly
    ahead is on 30, so the free card move ends on hare square 31, where "last move free" is drawn
    (chain_hare_cards) and refunds nothing."""
    game = position(4, pos={0: 20, 1: 30}, deck=["move_up_one_position", "last_move_free"],
                    carrots={0: 40}, chain_hare_cards=True)
    do(game, "move to 25")
    assert game.pos[0] == 31
    assert game.last_card == data.CARD_KINDS.index("last_move_free")
    assert game.carrots[0] == 40 - 15


# ---- HUI-28: move up one position -------------------------------------------------------------------


def test_HUI_28_move_up_skips_a_lettuce_square_without_lettuce_and_the_hedgehog_after_it():
    """HUI-28: "move for free to the first free square ahead of the runner directly ahead ...;
    never a hedgehog; lettuce only with lettuce". Directly ahead is 41; 42 is lettuce (none held),
    43 a hedgehog: the runner lands on 44, paying only the 1 carrot for 38 -> 39."""
    game = position(4, pos={0: 38, 1: 41}, deck=["move_up_one_position"], carrots={0: 20}, lettuces={0: 0})
    do(game, "move to 39")
    assert game.pos[0] == 44 and game.carrots[0] == 19
    assert not game.eat[0]


def test_HUI_28_move_up_onto_a_lettuce_square_with_lettuce():
    """HUI-28 "lettuce only with lettuce": holding one, the first free square ahead of 41 is the
    lettuce square 42; on it the runner eats at its next turn (HUI-12)."""
    game = position(4, pos={0: 38, 1: 41}, deck=["move_up_one_position"], carrots={0: 20})
    do(game, "move to 39")
    assert game.pos[0] == 42 and game.carrots[0] == 19
    assert game.eat[0]


def test_HUI_28_finished_runners_do_not_count_as_directly_ahead():
    """HUI-28: the runner directly ahead is a track runner ("track runners only"); "No effect if
    first on the track". Runner 2 is home, runner 0 is first on the track: no effect, although
    with no lettuce and 14 carrots left it would meet HUI-18's limit of 20 as second finisher."""
    game = position(4, pos={0: 58, 1: 40}, place={2: 1}, deck=["move_up_one_position"],
                    carrots={0: 20}, lettuces={0: 0})
    do(game, "move to 61")
    assert game.pos[0] == 61 and game.place[0] == 0 and game.carrots[0] == 14


# ---- HUI-27: fall back one position -------------------------------------------------------------------


def test_HUI_27_no_effect_when_last_on_the_track_though_runners_wait_on_start():
    """HUI-27: "move back to the first free square behind the runner directly behind you (track
    runners only) ... No effect if last." Runner 0 on 14 has a runner ahead (30), one home and one
    on Start; by race position (HUI-15) it is 3rd of 4, but no *track* runner is behind it, so the
    card has no effect (it is not sent to Start)."""
    game = position(4, pos={0: 12, 1: 30}, place={2: 1}, deck=["fall_back_one_position"], carrots={0: 20})
    assert game.pos[3] == data.START
    do(game, "move to 14")
    assert game.pos[0] == 14 and game.carrots[0] == 17
    assert game.current_agent == 1


# ---- HUI-12 / HUI-26: after eating, the runner must move -----------------------------------------------


def test_HUI_12_one_runner_eats_once_then_must_leave_the_lettuce_square():
    """HUI-12: "On the runner's next turn it does not move: it discards one lettuce and gains
    10 x its race position. On the turn after that it must leave." (seed §4.4: no two lettuces in a
    row on the same square). Duel: player 1 camps on carrot square 33."""
    game = position(2, two_runners=False, pos={1: 33})
    do(game, "move to 7")  # 7 squares: 28 carrots
    do(game, "stay, take 10")  # player 1
    # player 0's turn was the eating (race position 2: +20); player 1 is to move again
    assert game.current_agent == 1 and game.lettuces[0] == 2 and game.carrots[0] == 40 + 20
    do(game, "stay, take 10")
    # the turn after eating: a decision of player 0, still on 7, no second lettuce, only moves
    assert game.current_agent == 0 and game.pos[0] == 7
    assert game.lettuces[0] == 2 and game.carrots[0] == 60 and not game.eat[0]
    assert moves_only(game)
    do(game, "move to 9")
    assert game.pos[0] == 9 and game.lettuces[0] == 2


def test_HUI_26_eat_a_lettuce_card_then_the_runner_must_move():
    """HUI-26: "next turn it stays and eats ...; the turn after it must move." Duel: hare square 14
    draws "eat a lettuce"; the next turn eats (race position 2: +20), the one after is a move."""
    game = position(2, two_runners=False, pos={0: 12, 1: 33}, deck=["eat_lettuce"], carrots={0: 20})
    do(game, "move to 14")  # 3 carrots
    assert game.eat[0] and game.current_agent == 1
    do(game, "stay, take 10")
    assert game.current_agent == 1 and game.lettuces[0] == 2 and game.carrots[0] == 17 + 20
    do(game, "stay, take 10")
    assert game.current_agent == 0 and game.pos[0] == 14
    assert game.lettuces[0] == 2 and game.carrots[0] == 37 and not game.eat[0]
    assert moves_only(game)
    do(game, "move to 16")
    assert game.pos[0] == 16 and game.lettuces[0] == 2


# ---- HUI-29: team turn order in play -------------------------------------------------------------------


@pytest.mark.parametrize("layout, players", [("2x2", 4), ("3x2", 6), ("2x3", 6)])
def test_HUI_29_turn_order_of_a_played_team_game_alternates_teams(layout, players):
    """HUI-29: "team-mates never move directly one after another". A seeded random team game: while
    every runner is racing, turn t (automatic turns — eating, missing, returning to Start —
    included) belongs to seat (start + t − 1) mod n, and consecutive seats are in different teams.

    Once a player is home its seat is skipped (HUI-19), and two team-mates may then move back to
    back; the spec says nothing about that case, so this test stops recording at the first finish
    and asserts nothing about it."""
    game = HaseUndIgelGame(players, teams=layout, rng=np.random.default_rng(7))
    rng = np.random.default_rng(11)
    team = data.TEAM_LAYOUTS[layout]
    assert game.teams() == list(team)
    start = game.current_agent
    seen: list[tuple[int, int]] = []  # (turn, player) of each decision
    skipped = 0  # turns without a decision (eating, missing, stuck) between two decisions
    while not game.is_over and game.finished == 0 and len(seen) < 400:
        turn, player = game.turn, game.current_agent
        if seen and turn > seen[-1][0] + 1:
            skipped += turn - seen[-1][0] - 1
        seen.append((turn, player))
        legal = game.legal_actions()
        game.apply(legal[int(rng.integers(len(legal)))])
    assert len(seen) > 50 and skipped > 0  # the game ran long enough to have automatic turns
    for turn, player in seen:
        assert player == (start + turn - 1) % players, (turn, player)
    # decisions of consecutive turns: never two team-mates
    for (t1, p1), (t2, p2) in zip(seen, seen[1:]):
        if t2 == t1 + 1:
            assert team[p1] != team[p2], (t1, p1, p2)
    # and every turn, decided or automatic, follows the seating, which alternates teams
    order = [(start + t - 1) % players for t in range(1, seen[-1][0] + 1)]
    assert all(team[a] != team[b] for a, b in zip(order, order[1:]))
