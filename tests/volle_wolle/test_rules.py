"""One or more tests per rule VW-1 … VW-17 (docs/rules/volle_wolle.md)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from meadowzoo.envs.core.game import IllegalActionError
from meadowzoo.envs.volle_wolle import data, rules
from meadowzoo.envs.volle_wolle.data import load_deck
from meadowzoo.envs.volle_wolle.rules import VolleWolleGame, default_deck
from tests.volle_wolle.helpers import act, bid_all, card, cards, legal_names, make_game, recount_scores, script


FILL = cards("white", 4, "none", 4)  # plain display cards


def kinds_of(deck, ids):
    return [data.KIND_NAMES[deck.kind[c]] for c in ids]


# ---- components --------------------------------------------------------------------------------------
def test_VW_1_pile_of_60_cards_51_sheep_8_dogs_1_bone_shuffled():
    deck = default_deck()
    names = kinds_of(deck, range(60))
    assert len(names) == 60 and names.count("dog") == 8 and names.count("bone") == 1
    assert sum(names.count(k) for k in ("white", "black", "3-7-0", "0-0-7")) == 51
    a = VolleWolleGame(3, rng=np.random.default_rng(1))
    b = VolleWolleGame(3, rng=np.random.default_rng(2))
    assert sorted(a.pile + a.display) == list(range(60)) and a.pile != b.pile


def test_VW_2_VW_3_reconstructed_sheep_cards_and_numbers():
    deck = default_deck()
    white = [(deck.points[c], deck.modifier[c], deck.bone_symbol[c]) for c in range(60) if deck.kind[c] == data.WHITE]
    expect = ([(1, 3, False)] * 3 + [(2, 2, False)] * 5 + [(3, 1, False)] * 5 + [(3, 0, True)] * 2
              + [(4, 0, False)] * 4 + [(4, 0, True)] * 2 + [(5, -1, False)] * 5 + [(5, 0, True)] * 2
              + [(6, -2, False)] * 5 + [(7, -3, False)] * 5)
    assert white == expect
    blacks = sorted(deck.points[c] for c in range(60) if deck.kind[c] == data.BLACK)
    assert blacks == [-5, -4, -3, -2, -1]
    assert sum(deck.kind[c] == data.K007 for c in range(60)) == 4 and sum(deck.kind[c] == data.K370 for c in range(60)) == 4
    sheep = [c for c in range(60) if deck.kind[c] in data.SHEEP_KINDS]
    assert [deck.number[c] for c in sheep] == list(range(7, 58))  # in the listed order
    for c in range(60):
        if deck.kind[c] in (data.DOG, data.BONE):
            assert deck.number[c] == 0 and deck.modifier[c] == 0 and not deck.bone_symbol[c]


def test_VW_3_deck_replaceable_from_file_and_list(tmp_path):
    cards_ = json.load(open(data.DECK_PATH))["cards"]
    cards_[0] = {"kind": "white", "points": 9, "modifier": "+4", "number": 7}
    path = tmp_path / "deck.json"
    path.write_text(json.dumps({"cards": cards_}))
    for source in (str(path), cards_):
        deck = load_deck(source)
        assert deck.points[0] == 9 and deck.modifier[0] == 4


@pytest.mark.parametrize("index, change, words", [
    (5, {"kind": "white", "points": 2, "modifier": "+x", "number": 12}, "modifier"),
    (40, {"kind": "goat"}, "kind"),
    (3, {"kind": "white", "points": "one", "modifier": "+3", "number": 10}, "points"),
    (12, {"kind": "white", "points": 3, "modifier": "+1", "number": 7}, "sheep number 7"),
    (59, {"kind": "dog", "points": 3}, "unexpected field 'points'"),
    (44, {"kind": "black", "points": -2}, "missing field 'number'"),
])
def test_VW_3_malformed_deck_error_names_the_card(index, change, words):
    cards_ = json.load(open(data.DECK_PATH))["cards"]
    cards_[index] = change
    with pytest.raises(ValueError, match=f"deck card {index} .*{words}"):
        load_deck(cards_)


def test_VW_3_deck_composition_checked(tmp_path):
    cards_ = json.load(open(data.DECK_PATH))["cards"]
    with pytest.raises(ValueError, match="60 cards"):
        load_deck(cards_[:-1])
    swapped = cards_[:]
    swapped[59] = {"kind": "dog"}  # the bone replaced by a ninth dog
    with pytest.raises(ValueError, match="8 dog"):
        load_deck(swapped)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ValueError, match="not valid JSON"):
        load_deck(str(bad))


def test_VW_4_dice_faces_and_wool_setup():
    g = VolleWolleGame(4, rng=np.random.default_rng(0))
    assert g.wool == [2, 2, 2, 2] and g.supply == 25 - 8
    seen = [set(), set(), set()]
    for seed in range(300):
        g = VolleWolleGame(2, rng=np.random.default_rng(seed))
        bid_all(g, ["25", "24"])
        for d in range(3):
            seen[d].add(g.dice[d])
    assert seen == [set(range(1, 13)), set(range(1, 11)), set(range(1, 9))]


def test_VW_4_gaining_from_an_empty_supply_gives_nothing():
    display = cards("white", 2, "+2", 3)
    g = make_game(2, display, wool={0: 13, 1: 12})
    assert g.supply == 0
    script(g, "d12=1 d10=1 d8=1", "d10=1 d8=1", "d8=1", "d12=12 d10=10 d8=8")
    bid_all(g, ["25", "14"])
    act(g, "keep d12")
    act(g, "keep d10")  # 3 + 13 wool < 25: fails after attempt 3, but the supply is empty
    assert g.wool[0] == 13 and g.supply == 0 and sum(g.wool) == 25


def test_VW_5_bids_and_action_names():
    g = VolleWolleGame(3, rng=np.random.default_rng(0))
    assert legal_names(g) == [f"bid {b}" for b in range(14, 26)] + ["bid 26+"]
    for a in range(rules.NUM_ACTIONS):
        assert g.string_to_action(g.action_to_string(a)) == a


# ---- a round -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_VW_6_display_holds_players_plus_one(players):
    g = VolleWolleGame(players, rng=np.random.default_rng(0))
    assert sum(c >= 0 for c in g.display) == players + 1 and len(g.pile) == 60 - players - 1


def test_VW_7_26_plus_needs_a_wool_and_costs_it_at_the_reveal_target_26():
    g = make_game(3, cards("white", 2, "+2", 4), wool={0: 0, 1: 2, 2: 2})
    assert "bid 26+" not in legal_names(g)
    with pytest.raises(IllegalActionError, match="bid 26\\+"):
        g.apply(rules.BID_26_PLUS)
    act(g, "bid 25")
    act(g, "bid 26+")
    assert g.wool[1] == 2  # still secret: nothing paid yet
    script(g, "d12=1 d10=1 d8=1")
    act(g, "bid 26+")
    assert g.wool[1] == 1 and g.wool[2] == 1 and g.supply == 25 - 2
    assert g.target == 26 and g.cur in (1, 2)


def test_VW_8_order_by_bid_then_lower_sheep_number():
    g = make_game(4, cards("white", 2, "+2", 5), herds={2: [card("white", 7, "-3")], 3: [card("white", 1, "+3")]},
                  backs=[5, 2, 1, 3])
    script(g, "d12=1 d10=1 d8=1")
    bid_all(g, ["20", "20", "20", "22"])
    # 22 first; ties at 20: player 1 (back 2) < player 0 (back 5) < player 2 (sheep 40)
    assert g.order == [3, 1, 0, 2]
    g2 = make_game(3, cards("white", 2, "+2", 4), herds={0: [card("white", 1, "+3")]}, backs=[1, 2, 3])
    script(g2, "d12=1 d10=1 d8=1")
    bid_all(g2, ["26+", "26+", "26+"])  # everybody 26+: sheep numbers decide; player 0's top is #7
    assert g2.order == [1, 2, 0]


def test_VW_9_set_aside_dice_keep_their_value_and_three_attempts():
    g = make_game(3, cards("white", 2, "+2", 4), wool={0: 10})
    script(g, "d12=2 d10=3 d8=4", "d10=5 d8=6", "d10=7")
    bid_all(g, ["25", "14", "14"])
    assert g.attempt == 1 and legal_names(g) == ["keep d12", "keep d10", "keep d8"]
    act(g, "keep d12")
    assert g.dice == [2, 5, 6] and legal_names(g) == ["keep d10", "keep d8"]
    act(g, "keep d8")
    assert g.dice == [2, 7, 6] and g.attempt == 3 and g.base == 15 and legal_names(g) == ["claim", "decline"]


def test_VW_9_negative_modifier_mandatory_positive_optional_bone_none():
    for top, roll, base, bonus in ((card("white", 6, "-2"), "d12=10 d10=10 d8=2", 20, 0),
                                   (card("white", 1, "+3"), "d12=10 d10=5 d8=5", 20, 3),
                                   (card("white", 3, "bone"), "d12=10 d10=5 d8=5", 20, 0)):
        g = make_game(3, cards("white", 2, "+2", 4), herds={0: [top]}, wool={0: 0})
        script(g, roll)
        bid_all(g, ["22", "14", "14"])
        assert (g.base, g.bonus) == (base, bonus)
        assert ("claim" in legal_names(g)) == (base + bonus >= 22)


@pytest.mark.parametrize("rolls, keeps, won", [
    (["d12=12 d10=5 d8=1"], [], 3),
    (["d12=1 d10=1 d8=1", "d10=10 d8=8"], ["keep d12"], 2),
    (["d12=1 d10=1 d8=1", "d10=1 d8=8", "d10=10"], ["keep d12", "keep d8"], 1),
])
def test_VW_10_forced_success_wins_3_2_1_cards(rolls, keeps, won):
    g = make_game(3, FILL, wool={0: 0})
    script(g, *rolls)
    bid_all(g, ["18", "14", "14"])
    for keep in keeps:
        assert g.pending == rules.ROLL and "claim" not in legal_names(g)
        act(g, keep)
    assert g.pending == rules.PICK and g.picks == won and g.cur == 0  # success without a choice


def test_VW_10_fewer_cards_when_the_display_is_short():
    g = make_game(3, [FILL[0], card("dog")])
    script(g, "d12=12 d10=10 d8=8")
    bid_all(g, ["20", "14", "14"])
    # won three, only two there: both taken (one sheep: the order cannot matter, nothing asked)
    assert g.herd[0] == [FILL[0]] and len(g.dogs[0]) == 1 and g.round == 2


def test_VW_10_optional_success_may_be_declined_on_attempt_3():
    g = make_game(3, FILL, herds={0: [card("white", 2, "+2")]}, wool={0: 1})
    script(g, "d12=1 d10=1 d8=1", "d12=1 d8=1", "d12=12")
    bid_all(g, ["17", "14", "14"])
    act(g, "keep d10")
    act(g, "keep d8")
    assert g.base == 14 and legal_names(g) == ["claim", "decline"]
    act(g, "decline")
    assert g.wool[0] == 2 and len(g.herd[0]) == 1 and g.cur != 0  # failed: one wool, no card


def test_VW_11_failure_gives_one_wool_no_cards():
    g = make_game(3, cards("white", 2, "+2", 4), wool={0: 0})
    script(g, "d12=6 d10=6 d8=6", "d10=1 d8=1", "d8=1")
    bid_all(g, ["25", "14", "14"])
    act(g, "keep d12")
    act(g, "keep d10")
    assert g.wool[0] == 1 and g.herd[0] == [] and g.cur != 0


def test_VW_11_below_14_may_pay_to_avoid_the_black_sheep():
    blacks = cards("black", count=2)
    g = make_game(3, blacks + FILL[:2], herds={0: [card("white", 2, "+2")]}, wool={0: 3})
    script(g, "d12=1 d10=1 d8=1", "d12=1 d8=1", "d12=7")
    bid_all(g, ["25", "14", "14"])
    act(g, "keep d10")
    act(g, "keep d8")
    assert g.base == 9 and g.pending == rules.BLACK_CHOICE  # 9 + 2 bonus + 3 wool ≥ 14
    assert legal_names(g) == ["avoid black sheep", "take black sheep"]
    act(g, "avoid black sheep")  # pays 14 − 9 − 2 = 3 wool, then gains one for failing
    assert g.wool[0] == 1 and g.herd[0] == [card("white", 2, "+2")] and g.cur != 0


def test_VW_11_below_14_taking_black_sheep_only_blacks_eligible():
    blacks = cards("black", count=2)
    display = [blacks[0], card("dog"), blacks[1], card("white", 2, "+2")]
    g = make_game(3, display, wool={0: 5})
    script(g, "d12=1 d10=1 d8=1", "d12=1 d8=1", "d12=7")
    bid_all(g, ["25", "14", "14"])
    act(g, "keep d10")
    act(g, "keep d8")
    assert g.base == 9 and legal_names(g) == ["avoid black sheep", "take black sheep"]
    act(g, "take black sheep")
    assert g.wool[0] == 6 and legal_names(g) == ["take card 1", "take card 3"]
    act(g, "take card 1")  # the other black sheep follows by itself
    assert g.herd[0] == blacks and g.dogs[0] == [] and g.cur != 0


def test_VW_11_no_black_sheep_rule_at_14_or_without_black_sheep():
    g = make_game(3, [card("black", -1)] + cards("white", 2, "+2", 3), wool={0: 0})
    script(g, "d12=5 d10=5 d8=4", "d10=5 d8=4", "d8=4")
    bid_all(g, ["25", "14", "14"])
    act(g, "keep d12")
    act(g, "keep d10")
    assert g.herd[0] == [] and g.wool[0] == 1  # exactly 14: no black sheep


@pytest.mark.parametrize("wool", [0, 3])
def test_VW_11_positive_modifier_alone_reaches_14_avoid_black_sheep_for_0_wool(wool):
    """VW-11: "If the result after attempt 3 is below 14 (negative modifier counted; the player may add
    its positive modifier and spend wool to reach 14), the player must take all black sheep in the
    display; it still gains just that 1 wool." Here 12 + the +2 modifier = 14: no wool is needed."""
    blacks = cards("black", count=2)
    top = card("white", 2, "+2")
    g = make_game(3, [blacks[0], FILL[0], blacks[1], FILL[1]], herds={0: [top]}, wool={0: wool, 1: 2, 2: 2})
    supply = g.supply
    # player 0: 2+1+1, keeps d12: 2+2+1, keeps d10: 2+2+8 = 12 < 14; then the next roller's first roll
    script(g, "d12=2 d10=1 d8=1", "d10=2 d8=1", "d8=8", "d12=1 d10=1 d8=1")
    bid_all(g, ["25", "14", "14"])
    act(g, "keep d12")
    act(g, "keep d10")
    assert (g.attempt, g.base, g.bonus) == (3, 12, 2) and g.cur == 0
    assert g.pending == rules.BLACK_CHOICE and legal_names(g) == ["avoid black sheep", "take black sheep"]
    act(g, "avoid black sheep")
    assert g.wool[0] == wool + 1 and g.supply == supply - 1  # pays 0 wool, gains the 1 wool for failing
    assert g.herd[0] == [top]  # no black sheep, no card
    assert g.display[0] == blacks[0] and g.display[2] == blacks[1]  # the black sheep stay on display
    assert g.cur != 0 and g.pending == rules.ROLL  # the next player in bid order rolls
    # without the +2 modifier (plain top card) and without wool, the same 12 must take both black sheep
    plain = FILL[2]  # a white 4 without modifier
    g = make_game(3, [blacks[0], FILL[0], blacks[1], FILL[1]], herds={0: [plain]}, wool={0: 0, 1: 2, 2: 2})
    script(g, "d12=2 d10=1 d8=1", "d10=2 d8=1", "d8=8", "d12=1 d10=1 d8=1")
    bid_all(g, ["25", "14", "14"])
    act(g, "keep d12")
    act(g, "keep d10")
    assert g.base == 12 and g.pending == rules.PICK and legal_names(g) == ["take card 1", "take card 3"]
    act(g, "take card 3")
    assert g.herd[0] == [plain, blacks[1], blacks[0]] and g.wool[0] == 1


def test_VW_12_last_player_takes_the_rest_without_rolling_or_wool():
    display = [card("dog"), card("white", 5, "-1"), card("white", 2, "+2"), card("bone")]
    g = make_game(3, display, wool={0: 2, 1: 2, 2: 2})
    script(g, "d12=12 d10=10 d8=8", "d12=1 d10=1 d8=1", "d10=1 d8=1", "d8=1")
    bid_all(g, ["25", "16", "14"])
    act(g, "take card 2")
    act(g, "take card 3")
    act(g, "take card 1")  # player 0 took three cards; player 1 rolls and fails
    act(g, "keep d12")
    act(g, "keep d10")
    assert g.wool[1] == 3
    assert g.bone == 2 and g.wool[2] == 2 and g.round == 2  # player 2: the bone, no roll, no wool


def test_VW_12_empty_display_means_nothing_to_do():
    g = make_game(3, cards("white", 2, "+2", 2), wool={0: 2, 1: 2, 2: 2})
    script(g, "d12=12 d10=10 d8=8")
    bid_all(g, ["25", "16", "14"])
    act(g, "take card 1")  # two sheep: order chosen; the display is now empty
    assert g.round == 2 and g.wool == [2, 2, 2] and len(g.herd[0]) == 2


def test_VW_13_two_players_second_rolls_and_the_rest_goes_to_the_other():
    display = [card("white", 2, "+2"), card("white", 3, "+1"), card("white", 5, "-1")]
    g = make_game(2, display)
    script(g, "d12=12 d10=10 d8=8", "d12=1 d10=1 d8=1", "d10=1 d8=1", "d12=1")
    bid_all(g, ["17", "16"])
    assert g.cur == 0 and g.picks == 3
    g2 = make_game(2, display)
    script(g2, "d12=1 d10=1 d8=1", "d10=1 d8=1", "d8=1", "d12=6 d10=5 d8=6")
    bid_all(g2, ["17", "16"])
    act(g2, "keep d12")
    act(g2, "keep d10")  # player 0 fails: one wool
    assert g2.wool[0] == 3 and g2.cur == 1  # the second player rolls too: 17 ≥ 16 → three cards
    assert g2.pending == rules.PICK and g2.picks == 3


def test_VW_13_leftovers_go_to_the_first_player():
    display = [card("white", 2, "+2"), card("dog"), card("bone")]
    g = make_game(2, display)
    script(g, "d12=1 d10=1 d8=1", "d10=1 d8=1", "d8=1", "d12=5 d10=5 d8=5", "d10=5 d8=5", "d8=1")
    bid_all(g, ["25", "20"])
    act(g, "keep d12")
    act(g, "keep d10")  # player 0 fails (3): wool
    act(g, "keep d12")
    act(g, "keep d10")  # player 1: 5 + 5 + 1 = 11 < 20: fails, no black sheep
    assert g.wool == [3, 3]
    assert g.herd[0] == [display[0]] and len(g.dogs[0]) == 1 and g.bone == 0  # the rest to player 0
    assert g.round == 2


def test_VW_13_second_player_below_14_takes_the_black_sheep_and_the_rest_goes_to_the_first():
    """VW-13: "2 players: the second player also rolls; cards left after its turn go to the other
    player." VW-11: a result below 14 after attempt 3 "must take all black sheep in the display; it
    still gains just that 1 wool"."""
    blacks = cards("black", count=2)
    white = card("white", 4, "none")
    g = make_game(2, [blacks[0], white, blacks[1]], wool={0: 2, 1: 2})
    script(g, "d12=6 d10=5 d8=4", "d10=5 d8=4", "d8=4",  # player 0: 15 three times, fails but ≥ 14
           "d12=1 d10=1 d8=1", "d10=1 d8=1", "d8=1")  # player 1: 3 < 14, and 3 + 2 wool < 14
    bid_all(g, ["25", "20"])
    assert g.order == [0, 1] and g.cur == 0
    act(g, "keep d12")
    act(g, "keep d10")
    assert g.wool[0] == 3 and g.herd[0] == [] and g.cur == 1  # failed at 15: one wool, no black sheep
    act(g, "keep d12")
    act(g, "keep d10")
    assert g.base == 3 and g.pending == rules.PICK and g.cur == 1  # forced: both black sheep, order chosen
    assert legal_names(g) == ["take card 1", "take card 3"]
    act(g, "take card 1")
    assert g.herd[1] == [blacks[0], blacks[1]] and g.wool[1] == 3  # all black sheep and just 1 wool
    assert g.herd[0] == [white] and g.wool[0] == 3  # the leftover goes to the first player
    assert g.round == 2


def test_VW_14_last_picked_sheep_is_the_top_card_dogs_beside():
    a, b = card("white", 7, "-3"), card("white", 1, "+3")
    g = make_game(3, [a, card("dog"), b, card("white", 4, "none")])
    script(g, "d12=12 d10=10 d8=8")
    bid_all(g, ["25", "14", "14"])
    act(g, "take card 3")
    act(g, "take card 2")
    act(g, "take card 1")
    assert g.herd[0] == [b, a] and g.top_card(0) == a and len(g.dogs[0]) == 1
    assert g.modifiers(0) == (-3, 0) and g.sheep_number(0) == g.deck.number[a]


def test_VW_15_bone_symbol_sheep_takes_the_bone_only_if_someone_holds_it():
    bone_sheep = cards("white", 3, "bone", 2)
    g = make_game(3, [bone_sheep[0]] + cards("white", 2, "+2", 3))
    script(g, "d12=12 d10=10 d8=8")
    bid_all(g, ["25", "14", "14"])
    act(g, "take card 1")
    assert g.bone == -1  # nobody held it: nothing
    g = make_game(3, [bone_sheep[0]] + cards("white", 2, "+2", 3), bone=2)
    script(g, "d12=12 d10=10 d8=8")
    bid_all(g, ["25", "14", "14"])
    act(g, "take card 1")
    assert g.bone == 0  # taken from player 2 at once
    assert g.top_card(0) == bone_sheep[0] and g.modifiers(0) == (0, 0)  # a bone on top: no modifier
    act(g, "take card 2")
    act(g, "take card 3")
    assert g.bone == 0  # only once, at that moment


# ---- end and scoring ---------------------------------------------------------------------------------
def test_VW_16_game_ends_when_all_60_cards_are_taken():
    g = VolleWolleGame(4, rng=np.random.default_rng(3))
    rng = np.random.default_rng(0)
    while not g.is_over:
        assert g.pile or any(c >= 0 for c in g.display)
        legal = g.legal_actions()
        g.apply(legal[int(rng.integers(len(legal)))])
    assert sorted(c for p in range(4) for c in g.cards_of(p)) == list(range(60)) and not g.pile
    assert g.legal_actions() == [] and g.current_agent == -1
    with pytest.raises(IllegalActionError):
        g.apply(0)


@pytest.mark.parametrize("count, points", [(0, 0), (1, 3), (2, 14), (3, 0), (4, 3)])
def test_VW_16_370_scoring(count, points):
    g = make_game(2, [], herds={0: cards("3-7-0", count=count)}, dogs={0: [card("dog")], 1: [card("dog", skip=1)]},
                  wool={0: 0})
    assert g.score(0) == points + 9 - 5  # one dog (+9), tied for most (−5)


@pytest.mark.parametrize("count, points", [(1, 0), (2, 0), (3, 21), (4, 21)])
def test_VW_16_007_scoring(count, points):
    g = make_game(2, [], herds={0: cards("0-0-7", count=count)}, dogs={1: [card("dog")]}, wool={0: 0})
    assert g.score(0) == points


def test_VW_16_dogs_one_none_most_and_bone():
    dogs = cards("dog", count=8)
    whites = [card("white", 7, "-3"), card("white", 1, "+3"), card("white", 2, "+2"), card("white", 6, "-2")]
    g = make_game(3, [], herds={0: whites, 1: whites[:0] + [card("black", -2)]},
                  dogs={1: dogs[:1], 2: dogs[1:3]}, wool={0: 0, 1: 0, 2: 1}, bone=2)
    assert g.score(0) == 16 - 1 - 2  # no dog: the two lowest white sheep go (1 and 2)
    assert g.score(1) == -2 + 9  # exactly one dog
    assert g.score(2) == -5 + 2 * 4 + 1  # most dogs, bone with two dogs, one wool
    g = make_game(3, [], herds={0: [card("black", -5), card("3-7-0")]}, dogs={1: dogs[:2], 2: dogs[2:4]},
                  wool={0: 0, 1: 0, 2: 0})
    assert g.score(0) == -5 + 3  # black and 3-7-0 are never removed
    assert g.score(1) == g.score(2) == -5  # all tied for most lose 5


def test_VW_16_most_dogs_penalty_needs_a_dog_engine_and_recount_agree():
    """VW-16: "most dogs (all tied for most): −5"; DECISION (rules.py): "The most-dogs penalty needs at
    least one dog." With no dog anywhere nobody loses 5; the test helper's recount follows the same rule."""
    whites = [card("white", 7, "-3"), card("white", 1, "+3"), card("white", 2, "+2")]
    g = make_game(3, [], herds={0: whites, 1: [card("black", -2)]}, wool={0: 1, 1: 0, 2: 2})
    assert [len(d) for d in g.dogs] == [0, 0, 0]
    expected = [10 - 1 - 2 + 1, -2, 2]  # no dog: the two lowest whites go (1, 2); wool; no −5 for anybody
    assert g.scores() == expected
    assert recount_scores(g) == expected
    # once somebody holds a dog, the most-dogs penalty applies to that player only
    g = make_game(3, [], herds={0: whites}, dogs={2: [card("dog")]}, wool={0: 1, 1: 0, 2: 2})
    expected = [10 - 1 - 2 + 1, 0, 9 - 5 + 2]
    assert g.scores() == expected
    assert recount_scores(g) == expected


def test_VW_17_ties_share_the_win():
    g = make_game(3, [], dogs={0: [card("dog")], 1: [card("dog", skip=1)]}, wool={0: 2, 1: 2, 2: 1})
    assert g.scores() == [2 + 9 - 5, 2 + 9 - 5, 1]
    assert g.places() == [0, 0, 2]
    from meadowzoo.envs.core.rewards import rank_rewards

    assert rank_rewards(g.places()) == [0.5, 0.5, -1.0]


def test_decision_attributes_follow_every_change_of_state():
    """``current_agent``, ``is_over`` and ``turn`` are plain attributes refreshed after each change."""

    def check(game):
        over = game.pending == rules.OVER
        assert game.is_over == over and game.turn == game.turns
        assert game.current_agent == (-1 if over else game.cur)

    rng = np.random.default_rng(1)
    for n in (2, 5):
        g = VolleWolleGame(n, rng=np.random.default_rng(n))
        check(g)
        while not g.is_over:
            legal = g.legal_actions()
            with pytest.raises(IllegalActionError):
                g.apply(next(a for a in range(rules.NUM_ACTIONS) if a not in legal))
            check(g)
            g.apply(legal[int(rng.integers(len(legal)))])
            check(g)
            check(VolleWolleGame.from_dict(json.loads(json.dumps(g.to_dict()))))
            check(g.clone())


def test_turn_counts_player_turns_not_decisions():
    """The game contract's ``turn``: each bid is a player's turn; a roller's turn with its rolls,
    dice set aside and picks is one turn, however many decisions it holds."""
    g = make_game(3, FILL, wool={0: 0})
    script(g, "d12=1 d10=1 d8=1", "d10=1 d8=8", "d10=10")
    assert g.turn == 1  # player_0's bidding turn has begun
    bid_all(g, ["18", "14", "14"])  # two more bidding turns, then the first turn in bid order
    assert g.turn == 4 and g.pending == rules.ROLL and g.cur == 0
    act(g, "keep d12")
    act(g, "keep d8")  # forced success on the third attempt: one card to pick
    assert g.turn == 4 and g.pending == rules.PICK and g.cur == 0
    act(g, "take card 1")
    assert g.turn == 5 and g.cur != 0  # the next player's turn
