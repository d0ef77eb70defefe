"""Rule data of Hase und Igel: the board, the hare deck, starting holdings.

Everything a rules correction might touch lives here (spec ``docs/rules/hase_und_igel.md``).
The spec marks no fact of this game RECONSTRUCTED; the DECISION entries below are the choices
where the 1978 rulebook is silent, each switchable where the spec says so.
"""

from __future__ import annotations

# ---- HUI-1: the board ------------------------------------------------------------------------------
START = 0
GOAL = 64
NUM_POSITIONS = 65  # 0 = Start, 1..63 = squares, 64 = Goal

HARE, CARROT, LETTUCE, HEDGEHOG, FLAG, NUM2, NUM3, NUM4 = "hare", "carrot", "lettuce", "hedgehog", "flag", "2", "3", "4"
START_SQUARE, GOAL_SQUARE = "start", "goal"

TRACK: tuple[str, ...] = (
    HARE, CARROT, HARE, NUM3, CARROT, HARE, LETTUCE, HEDGEHOG, NUM4, NUM2,
    HEDGEHOG, NUM3, CARROT, HARE, HEDGEHOG, FLAG, NUM2, NUM4, HEDGEHOG, NUM3,
    CARROT, LETTUCE, NUM2, HEDGEHOG, HARE, CARROT, NUM4, NUM3, NUM2, HEDGEHOG,
    HARE, FLAG, CARROT, HARE, NUM2, NUM3, HEDGEHOG, CARROT, HARE, CARROT,
    NUM2, LETTUCE, HEDGEHOG, NUM3, NUM4, HARE, NUM2, FLAG, CARROT, HEDGEHOG,
    HARE, NUM3, NUM2, NUM4, CARROT, HEDGEHOG, LETTUCE, HARE, CARROT, NUM2,
    HARE, LETTUCE, HARE,
)  # squares 1..63
assert len(TRACK) == 63

#: square type of every position 0..64
SQUARES: tuple[str, ...] = (START_SQUARE,) + TRACK + (GOAL_SQUARE,)
FINAL_STRETCH = range(60, 64)  # HUI-17

#: HUI-14: the race positions a number/flag square pays for
PAYOUT_POSITIONS: dict[str, tuple[int, ...]] = {NUM2: (2,), NUM3: (3,), NUM4: (4,), FLAG: (1, 5, 6)}


def squares_of(kind: str) -> tuple[int, ...]:
    return tuple(i for i, s in enumerate(SQUARES) if s == kind)


def move_cost(distance: int) -> int:
    """HUI-9: carrots for a forward move of ``distance`` squares, n(n+1)/2."""
    return distance * (distance + 1) // 2


# ---- HUI-2: the hare deck --------------------------------------------------------------------------
MISS_TURN = "miss_turn"
FORWARD_TO_CARROT = "forward_to_carrot"
BACK_TO_CARROT = "back_to_carrot"
MOVE_AGAIN = "move_again"
LAST_MOVE_FREE = "last_move_free"
TAKE_OR_GIVE_10 = "take_or_give_10"
EAT_LETTUCE = "eat_lettuce"
FALL_BACK = "fall_back_one_position"
MOVE_UP = "move_up_one_position"

#: card kinds in a fixed order (indices are used in observations and snapshots), with counts
HARE_CARDS: tuple[tuple[str, int], ...] = (
    (MISS_TURN, 1),
    (FORWARD_TO_CARROT, 1),
    (BACK_TO_CARROT, 1),
    (MOVE_AGAIN, 1),
    (LAST_MOVE_FREE, 2),
    (TAKE_OR_GIVE_10, 2),
    (EAT_LETTUCE, 1),
    (FALL_BACK, 2),
    (MOVE_UP, 1),
)
CARD_KINDS: tuple[str, ...] = tuple(kind for kind, _ in HARE_CARDS)
DECK: tuple[int, ...] = tuple(i for i, (_, count) in enumerate(HARE_CARDS) for _ in range(count))
assert len(DECK) == 12

# ---- HUI-4 / HUI-5: starting holdings --------------------------------------------------------------
#: (carrots, lettuces) per player by configuration
START_HOLDINGS = {
    "3-4 players": (68, 3),
    "5-6 players": (98, 3),
    "2 players, 2 runners": (98, 5),
    "2 players, 1 runner (duel)": (68, 3),
}

CARROT_CHANGE = 10  # HUI-11 / HUI-22 / HUI-25: take or give 10
HEDGEHOG_GAIN = 10  # HUI-10: carrots per square moved back
LETTUCE_GAIN = 10  # HUI-12: carrots per race position when eating
PAYOUT_GAIN = 10  # HUI-14: carrots per race position paid on a number/flag square
FINISH_LIMIT = 10  # HUI-18: at most 10 x finishing place carrots after paying

# ---- HUI-29: team layouts (seat -> team), team-mates never move one after another ------------------
TEAM_LAYOUTS: dict[str, tuple[int, ...]] = {
    "2x2": (0, 1, 0, 1),
    "3x2": (0, 1, 2, 0, 1, 2),
    "2x3": (0, 1, 0, 1, 0, 1),
}

# ---- DECISIONs where the rulebook is silent ---------------------------------------------------------
DECISIONS = {
    "chain_hare_cards": "HUI-13: arriving on a hare square through a card draws no card (option, default off)",
    "final_stretch": "HUI-17: the final-stretch back move applies only when the runner has no other legal action",
    "two_runner_automation": "HUI-30: eating, missing and payouts of both runners are automatic at the start of the turn",
    "two_runner_stuck": "HUI-16/30: if no runner of the player can act, the player chooses which runner returns to Start",
    "payout_once": "HUI-14: a number/flag square is checked once, at the first turn start after arriving",
    "team_losers": "HUI-19: teams that did not get all runners home first share the remaining places",
    "start_player": "HUI-6: the start player is drawn by lot from the seeded generator (option start_player fixes it)",
}
