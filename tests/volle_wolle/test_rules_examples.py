"""The rulebook's worked examples (seed 004, pages 4–8) as tests."""

from __future__ import annotations

import numpy as np
import pytest

from meadowzoo.envs.volle_wolle import rules
from meadowzoo.envs.volle_wolle.rules import VolleWolleGame
from tests.volle_wolle.helpers import act, bid_all, card, cards, legal_names, make_game, script

WHITE_GOOD = cards("white", 7, "-3", 2, skip=1) + cards("white", 6, "-2", 2)


def test_VW_9_VW_10_konrad_succeeds_on_third_attempt_with_his_wool():
    """Konrád: bid 24, top −3, one wool. 12+10+3−3 = 22 (+1 wool = 23): must reroll; keeps the 12,
    rolls 7+3: 19; keeps the 7, rolls 7: 12+7+7−3 = 23, +1 wool = 24: one card."""
    konrad = 0
    display = WHITE_GOOD + [card("dog")]
    g = make_game(3, display, herds={konrad: [card("white", 7, "-3")]}, wool={konrad: 1, 1: 2, 2: 2})
    script(g, "d12=12 d10=10 d8=3", "d10=7 d8=3", "d8=7")
    bid_all(g, ["24", "15", "14"])
    assert g.cur == konrad and g.pending == rules.ROLL and g.attempt == 1
    assert g.base == 22  # 25 − 3: the negative modifier is mandatory
    assert "claim" not in legal_names(g)  # 22 + 1 wool = 23 < 24
    act(g, "keep d12")
    assert g.attempt == 2 and g.dice == [12, 7, 3] and g.base == 19
    assert "claim" not in legal_names(g)
    act(g, "keep d10")
    assert g.attempt == 3 and g.dice == [12, 7, 7] and g.base == 23
    assert legal_names(g) == ["claim", "decline"]
    supply = g.supply
    act(g, "claim")
    assert g.wool[konrad] == 0 and g.supply == supply + 1
    assert g.pending == rules.PICK and g.picks == 1 and g.cur == konrad  # third attempt: one card
    act(g, "take card 2")
    assert g.herd[konrad][-1] == display[1] and len(g.herd[konrad]) == 2


def test_VW_10_kati_declines_at_21_then_takes_exactly_two_cards_with_bonus_and_both_wool():
    """Kati: bid 24, top +1, two wool. 21 after roll 1: bonus and both wool would reach 24 but give
    three cards, so she rerolls; 21 again after roll 2: bonus + 2 wool = 24, exactly two cards."""
    kati = 0
    black, dog = card("black", -3), card("dog")
    wanted = cards("white", 5, "-1", 2)
    display = [black, wanted[0], dog, wanted[1]]
    g = make_game(3, display, herds={kati: [card("white", 3, "+1")]}, wool={kati: 2, 1: 2, 2: 2})
    script(g, "d12=10 d10=6 d8=5", "d10=7 d8=4")
    bid_all(g, ["24", "16", "14"])
    assert g.base == 21 and legal_names(g) == ["claim", "keep d12", "keep d10", "keep d8"]
    act(g, "keep d12")
    assert g.attempt == 2 and g.base == 21
    supply = g.supply
    act(g, "claim")  # bonus 1 + both wool: 21 + 1 + 2 = 24
    assert g.wool[kati] == 0 and g.supply == supply + 2
    assert g.pending == rules.PICK and g.picks == 2
    act(g, "take card 2")
    act(g, "take card 4")
    assert g.herd[kati][1:] == wanted  # exactly the two cards she wanted; no black sheep, no dog
    assert g.dogs[kati] == [] and black not in g.herd[kati] and g.cur != kati


def test_VW_11_robert_below_14_takes_both_black_sheep_and_one_wool():
    """Róbert: top −2, no wool; after the third roll 5 + 4 + 6 = 15 − 2 = 13 < 14: he must take
    both black sheep of the display, and gains one wool."""
    robert = 0
    blacks = [card("black", -1), card("black", -4)]
    display = [blacks[0], card("white", 4, "none"), blacks[1], card("dog")]
    g = make_game(3, display, herds={robert: [card("white", 6, "-2")]}, wool={robert: 0, 1: 2, 2: 2})
    script(g, "d12=9 d10=5 d8=4", "d12=5 d10=5", "d10=6")
    bid_all(g, ["20", "16", "14"])
    act(g, "keep d8")  # sets the four aside
    act(g, "keep d12")  # then one of the fives
    assert g.dice == [5, 6, 4] and g.base == 13
    # no wool, no bonus: 13 < 14 and black sheep on display: forced, two sheep → he orders them
    assert g.pending == rules.PICK and g.black_only and legal_names(g) == ["take card 1", "take card 3"]
    assert g.wool[robert] == 1  # the one wool for failing
    act(g, "take card 3")
    assert g.herd[robert][-2:] == [blacks[1], blacks[0]]  # the second taken lies on top
    assert g.wool[robert] == 1 and g.display[0] == -1 and g.display[2] == -1
    assert g.cur != robert


def test_VW_16_final_scoring_example_totals_42():
    """27 (sheep) + 0 (0-0-7) + 14 (3-7-0) − 10 (black) − 5 (most dogs) + 16 (bone, 4 dogs) = 42."""
    whites = [card("white", 7, "-3"), card("white", 7, "-3", skip=1), card("white", 6, "-2"),
              card("white", 4, "none"), card("white", 3, "+1")]
    herd = whites + cards("0-0-7", count=2) + cards("3-7-0", count=2) + [card("black", -1), card("black", -4),
                                                                         card("black", -5)]
    dogs = cards("dog", count=8)
    g = make_game(2, [], herds={0: herd}, dogs={0: dogs[:4], 1: dogs[4:6]}, wool={0: 0, 1: 0}, bone=0)
    assert sum(g.deck.points[c] for c in whites) == 27
    assert g.score(0) == 27 + 0 + 14 - 10 - 5 + 16 == 42


@pytest.mark.parametrize("players, rounds", [(2, [3] * 20), (3, [4] * 15), (4, [5] * 12), (5, [6] * 10),
                                             (6, [7] * 8 + [4])])
def test_VW_6_rounds_per_player_count(players, rounds):
    g = VolleWolleGame(players, rng=np.random.default_rng(players))
    rng = np.random.default_rng(7)
    seen = []
    last_round = 0
    while not g.is_over:
        if g.round != last_round:
            last_round = g.round
            seen.append(sum(1 for c in g.display if c >= 0))
        legal = g.legal_actions()
        g.apply(legal[int(rng.integers(len(legal)))])
    assert seen == rounds
