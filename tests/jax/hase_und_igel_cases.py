"""What the Hase und Igel JAX tests share: configurations, the driver, the event count."""

from __future__ import annotations

from collections import Counter

from meadowzoo.envs.hase_und_igel import data, rules
from tests.hase_und_igel.policies import EndgameDriver

#: the default suite (compile-bound: a configuration costs ~20 s of CPU), two configurations: the
#: two-runner and the one-runner turn loops, both deck variants (reshuffle; the cycle), chained
#: cards and a mid-race truncation; every player count and variant, teams included, is in the
#: slow run (SLOW_CONFIGS)
DEFAULT_CONFIGS = [
    ("2p two runners, reshuffle", {"num_players": 2, "reshuffle_deck": True}),
    ("5p chain, max_turns 100", {"num_players": 5, "chain_hare_cards": True, "max_turns": 100}),
]

#: the slow run: every player count and variant (≥ 300 games each)
SLOW_CONFIGS = [
    ("2p two runners", {"num_players": 2}),
    ("2p duel", {"num_players": 2, "two_runners": False}),
    ("3p", {"num_players": 3}),
    ("4p", {"num_players": 4}),
    ("5p", {"num_players": 5}),
    ("6p", {"num_players": 6}),
    ("4p teams 2x2", {"num_players": 4, "teams": "2x2"}),
    ("6p teams 3x2", {"num_players": 6, "teams": "3x2"}),
    ("6p teams 2x3", {"num_players": 6, "teams": "2x3"}),
    ("3p chain cards", {"num_players": 3, "chain_hare_cards": True}),
    ("2p two runners, reshuffle", {"num_players": 2, "reshuffle_deck": True}),
    ("5p reshuffle, chain", {"num_players": 5, "reshuffle_deck": True, "chain_hare_cards": True}),
]


def _reshuffle_with_move_again_last(game) -> None:
    """The reshuffle variant with "move again" the last card of the deck (the rest discarded)."""
    move_again = data.CARD_KINDS.index(data.MOVE_AGAIN)
    game.discard = [card for card in data.DECK if card != move_again]
    game.deck, game.known_from = [move_again], 0


#: HUI-13 deck-order positions for the JAX engine, by default configuration: the position (as
#: ``tests.hase_und_igel.helpers.position`` takes it, the configuration's options added), a
#: change made to the game before its first turn (or None), and the actions played from it
SCRIPTED = {
    # "move again" onto another hare square with the deck running out: the reshuffle leaves out
    # "move again", still unresolved; it goes onto the pile after the card drawn
    "2p two runners, reshuffle": (dict(pos={0: 12}, carrots={0: 100}), _reshuffle_with_move_again_last,
                                  ["A: move to 14", "A: move to 25"]),
    # chained cards: fall back onto hare 25, move up onto hare 31, miss a turn; under in reverse
    "5p chain, max_turns 100": (
        dict(pos={0: 23, 1: 26, 2: 27, 3: 28, 4: 29},
             deck=["fall_back_one_position", "move_up_one_position", "miss_turn"]), None, ["move to 31"]),
}


def driver(seed: int = 0) -> EndgameDriver:
    return EndgameDriver(seed=seed)


class Events:
    """Counts what the games reached, as ``on_state`` of the harness: the reference game's events
    since the previous decision (finish, final_stretch, stuck, eat, payout, …, each hare card by
    kind) and the kinds of decisions."""

    def __init__(self) -> None:
        self.counts: Counter = Counter()

    def __call__(self, state, ref) -> None:
        game = ref.game
        for event in game.log:
            self.counts[f"card {data.CARD_KINDS[event[2]]}" if event[0] == "draw" else event[0]] += 1
        if not game.is_over:
            self.counts[f"decision {rules.DECISIONS[game.pending]}"] += 1
