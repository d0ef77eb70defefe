"""Volle Wolle — PettingZoo AEC environment.

Dice-bidding for sheep cards (Zoch 2007, Alessandro Zucchini), rules VW-1 … VW-17 of
``shared/rules/volle_wolle.md``; the forward model is :mod:`envs.volle_wolle.rules`, the card list
the RECONSTRUCTED data file ``envs/volle_wolle/deck.json``.

====================  ===============================================================
Import                ``from envs import volle_wolle_v0``
Actions               Discrete(27)
Parallel API          no
Manual control        no (type action strings, e.g. ``env.string_to_action("keep d12")``)
Agents                ``player_0 … player_{n-1}``, n = 2..6 (option ``num_players``, default 4)
Action mask           int8 (27,)
Observation           float32 (22 + 11·(n+1) + T + 20·n,); T = number of distinct card
                      types of the deck (19 for the default deck): 176 floats for 4 players
Observation values    raw counts / points / dice pips, one-hots 0/1 (no scaling)
====================  ===============================================================

Decisions are consecutive AEC steps; the observation says which one is pending:

1. **bid** – every player, in seat order, picks a bid. Bids are simultaneous and secret: a
   bidding player sees at most *whether* earlier players have bid, never what; all bids are
   revealed together after the last one (the 26+ fee is paid then).
2. **roll** – players in bid order. After each roll that reaches the bid only with the positive
   modifier and/or wool, the roller may ``claim`` (spending the wool needed) or go on; after a
   roll that does not reach it the roller chooses the die to set aside (``keep dN``) or, after
   the third attempt, ``decline``. Rolls that reach the bid by themselves succeed at once.
3. **black** – failed below 14 with black sheep on display but bonus + wool reach 14:
   ``avoid black sheep`` (pay) or ``take black sheep``.
4. **pick** – take won cards one at a time (``take card k`` = display slot k); the last sheep
   card picked becomes the herd's top card.

Observation (egocentric: player block 0 is the observer, then the following seats in turn order)
------------------------------------------------------------------------------------------------

=============================  ==============================================================
slice                          meaning
=============================  ==============================================================
``[0:5]``                      pending decision one-hot: bid, roll, black, pick, over
``[5:8]``                      attempt one-hot (1, 2, 3) while rolling
``[8:11]``                     dice: d12, d10, d8 pips of the current roll (0 = not rolled)
``[11:14]``                    dice set aside (1 = kept)
``[14]``                       result without options: dice sum + negative modifier (VW-9)
``[15]``                       roller's optional positive modifier
``[16]``                       roller's target (bid; 26+ → 26)
``[17]``                       cards still to pick in the current pick
``[18]``                       1 if only black sheep may be picked (VW-11)
``[19]``                       wool in the supply
``[20]``                       cards left in the draw pile
``[21]``                       round number (1-based)
``[22 : 22+11·(n+1)]``         display slots 1..n+1, 11 each: present, kind one-hot (white,
                               black, 3-7-0, 0-0-7, dog, bone), points, modifier (+N/−N, 0),
                               bone symbol, sheep number
next ``T``                     draw pile contents by card type (counts; order never shown)
next ``20·n``                  per player (observer first), 20 each: to move, has bid, bid
                               known, bid target (0 unknown), bid is 26+, place in roll order
                               (1..n, 0 before reveal), has a top card, top points, top
                               modifier, top bone symbol, tie-break sheep number (VW-8),
                               betting-card back, white / black / 3-7-0 / 0-0-7 counts, dogs,
                               holds the bone, wool, points so far (VW-16 as if the game
                               ended now)
=============================  ==============================================================

A player's own bid is known to it (``bid known`` = 1) before the reveal; other players' bids
are not. Card types: distinct (kind, points, modifier, bone symbol) in deck-file order;
``env.unwrapped.card_types()`` lists them.

Actions
-------

=========  ======================  =======================================================
index      string                  meaning
=========  ======================  =======================================================
0 … 11     ``bid 14`` … ``bid 25``  bid 14..25
12         ``bid 26+``             bid 26+ (needs a wool; costs it at the reveal)
13         ``claim``               accept the success, using the bonus and the wool needed
14         ``decline``             attempt 3: refuse an optional success (fail)
15, 16, 17 ``keep d12/d10/d8``     set that die aside and reroll the others
18         ``avoid black sheep``   pay bonus/wool to reach 14 (VW-11)
19         ``take black sheep``    take the black sheep of the display
20 … 26    ``take card 1`` … ``7``  pick display slot 1..7
=========  ======================  =======================================================

Rewards: at the end only, by final rank (first +1, last −1, linear between, ties share, VW-17).
Options: ``num_players`` (2..6, default 4), ``deck`` (None = the RECONSTRUCTED file, a path to a
JSON deck file, or a list of 60 card dicts; see :mod:`envs.volle_wolle.data`), ``render_mode``
(``ansi``, ``rgb_array``, ``human``), ``max_turns`` (decisions; default 10,000, never reached).

Version history: v0 — first release.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core.aec import MeadowEnv
from envs.volle_wolle import data, rules
from envs.volle_wolle.rules import VolleWolle

GLOBAL = 22
DYNAMIC = 19  # obs[0:19] changes with every decision; obs[19:] comes from the cached static part
SLOT = 11
PLAYER = 20
_CARD_ROW_EMPTY = data.NUM_CARDS  # index of the all-zero row in the card feature table


def card_features(deck: data.Deck) -> np.ndarray:
    """(61, 11) table: display-slot features of every card id (row 60 = empty slot)."""
    table = np.zeros((data.NUM_CARDS + 1, SLOT), dtype=np.float32)  # row 60 (also reached as -1): empty
    for c in range(data.NUM_CARDS):
        table[c, 0] = 1
        table[c, 1 + deck.kind[c]] = 1
        table[c, 7] = deck.points[c]
        table[c, 8] = deck.modifier[c]
        table[c, 9] = deck.bone_symbol[c]
        table[c, 10] = deck.number[c]
    return table


class raw_env(MeadowEnv):
    """The raw (unwrapped) Volle Wolle AEC environment; see the module docstring."""

    metadata = {
        "name": "volle_wolle_v0",
        "render_modes": ["ansi", "rgb_array", "human"],
        "is_parallelizable": False,
        "render_fps": 2,
    }
    default_max_turns = 10_000

    # ---- options and games ------------------------------------------------------------------------
    def _check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        unknown = set(options) - {"num_players", "deck"}
        if unknown:
            raise ValueError(f"unknown option(s) {sorted(unknown)}; Volle Wolle takes num_players and deck")
        n = options.setdefault("num_players", 4)
        if isinstance(n, bool) or not isinstance(n, int) or not data.MIN_PLAYERS <= n <= data.MAX_PLAYERS:
            raise ValueError(f"num_players must be an integer {data.MIN_PLAYERS}..{data.MAX_PLAYERS}, got {n!r}")
        deck = options.setdefault("deck", None)
        if deck is not None and not isinstance(deck, (str, list)):
            raise ValueError("deck must be None, a path string or a list of card dicts")
        self.deck = data.load_deck(deck)
        self._setup_tables(n)
        return options

    def _setup_tables(self, n: int) -> None:
        deck = self.deck
        self._card_feat = card_features(deck)
        self._type_of = np.array(deck.type_of, dtype=np.int64)
        self._type_total = np.bincount(self._type_of, minlength=deck.num_types).astype(np.float32)
        self._n = n
        self._display_at = GLOBAL
        self._pile_at = GLOBAL + SLOT * (n + 1)
        self._players_at = self._pile_at + deck.num_types
        self._size = self._players_at + PLAYER * n
        self._rot = [np.array([(s + k) % n for k in range(n)]) for s in range(n)]
        self._heads = [np.zeros(DYNAMIC, dtype=np.float32) for _ in range(5)]
        for phase, head in enumerate(self._heads):
            head[phase] = 1.0
        self._pick_head = self._heads[rules.PICK]
        self._static_game: VolleWolle | None = None

    def _new_game(self, rng: np.random.Generator) -> VolleWolle:
        return VolleWolle.new(self.options["num_players"], rng, self.deck)

    def _game_from_dict(self, d: dict) -> VolleWolle:
        game = VolleWolle.from_dict(d)
        if game.deck.cards != self.deck.cards:
            raise ValueError("snapshot game field 'deck' differs from this env's deck")
        return game

    def _observation_size(self, game: VolleWolle) -> int:
        return self._size

    def card_types(self) -> list[str]:
        """Labels of the card types counted in the pile slice of the observation."""
        return [data.card_label(self.deck, c).split("#")[0] for c in self.deck.type_cards]

    # ---- observation ------------------------------------------------------------------------------
    # obs[0:DYNAMIC] is written at every call; obs[DYNAMIC:] is copied from the "static" array
    # (supply, pile size, round, display, pile by type, then every player's row twice so that
    # each rotation is one slice), which is only updated where the game changed.
    def _static(self, game: VolleWolle) -> np.ndarray:
        """The static array of ``game``, brought up to date.

        Parts are rebuilt only when they change: the pile once a round, the display when a card
        leaves it, a player's row when its public data changes (``game.stamp`` / ``pstamp`` say
        when), the bid columns at the reveal and at a new round. The array belongs to one game
        object; another game (restore, clone, reset) gets a fresh array.
        """
        n = game.num_agents
        if game is not self._static_game:
            self._static_game = game
            self._static_arr = np.zeros(self._size - DYNAMIC + PLAYER * n, dtype=np.float32)
            self._static_round = -1
            self._static_stamp: tuple = (-1, -1, None)
            self._static_display = [-2] * (n + 1)
            self._row_stamp = [-1] * n
        static = self._static_arr
        revealed = game.revealed
        stamp = (game.stamp, game.round, revealed)
        if stamp == self._static_stamp:  # nothing public changed since the last call
            return static
        bids_changed = stamp[1:] != self._static_stamp[1:]
        self._static_stamp = stamp
        deck = game.deck
        static[:3] = (game.supply, len(game.pile), game.round)
        display = game.display
        shown = self._static_display
        at = GLOBAL - DYNAMIC
        for slot, card in enumerate(display):
            if shown[slot] != card:
                shown[slot] = card
                static[at + slot * SLOT : at + (slot + 1) * SLOT] = self._card_feat[card]  # -1: empty row
        if game.round != self._static_round:
            self._static_round = game.round
            seen = [c for c in display if c >= 0]
            for p in range(n):
                seen += game.herd[p] + game.dogs[p]
            if game.bone >= 0:
                seen.append(deck.bone_card)
            pile = self._type_total - np.bincount(self._type_of[seen], minlength=deck.num_types)
            static[self._pile_at - DYNAMIC : self._players_at - DYNAMIC] = pile
        at = self._players_at - DYNAMIC
        pstamp = game.pstamp
        row_stamp = self._row_stamp
        for p in range(n):  # columns 6.. of a player's row: its herd, dogs, bone, wool, points
            if pstamp[p] == row_stamp[p]:
                continue
            row_stamp[p] = pstamp[p]
            herd = game.herd[p]
            if herd:
                top = herd[-1]
                row = (1.0, deck.points[top], deck.modifier[top], deck.bone_symbol[top], deck.number[top], game.back[p],
                       *game.counts[p], len(game.dogs[p]), game.bone == p, game.wool[p], game.score(p))
            else:
                row = (0.0, 0.0, 0.0, 0.0, game.back[p], game.back[p],
                       0.0, 0.0, 0.0, 0.0, len(game.dogs[p]), game.bone == p, game.wool[p], game.score(p))
            static[at + p * PLAYER + 6 : at + (p + 1) * PLAYER] = row
            static[at + (p + n) * PLAYER + 6 : at + (p + n + 1) * PLAYER] = row
        if bids_changed:  # columns 1..5: bids are revealed all at once, and hidden again next round
            end = at + 2 * n * PLAYER
            if revealed:
                bids = game.bids * 2
                rank = [0] * n
                for place, p in enumerate(game.order):
                    rank[p] = place + 1
                static[at + 1 : end : PLAYER] = 1.0
                static[at + 2 : end : PLAYER] = 1.0
                static[at + 3 : end : PLAYER] = [data.BID_TARGETS[b] for b in bids]
                static[at + 4 : end : PLAYER] = [b == data.BID_26_PLUS for b in bids]
                static[at + 5 : end : PLAYER] = rank * 2
            else:
                for column in (1, 2, 3, 4, 5):
                    static[at + column : end : PLAYER] = 0.0
        return static

    def _encode(self, game: VolleWolle, seat: int) -> np.ndarray:
        static = self._static(game)
        obs = np.empty(self._size, dtype=np.float32)
        phase = game.phase
        if phase == 1 or phase == 2:  # rolling, or the black-sheep choice after the third roll
            dice = game.dice
            kept = game.kept
            attempt = game.attempt
            obs[:DYNAMIC] = (
                0.0, phase == 1, phase == 2, 0.0, 0.0, attempt == 1, attempt == 2, attempt == 3,
                dice[0], dice[1], dice[2], kept & 1, kept >> 1 & 1, kept >> 2 & 1,
                game.base, game.bonus, game.target, 0.0, 0.0,
            )
        elif phase == 3:
            obs[:DYNAMIC] = self._pick_head
            obs[17] = game.picks
            obs[18] = game.black_only
        else:
            obs[:DYNAMIC] = self._heads[phase]
        players_at = self._players_at
        obs[DYNAMIC:players_at] = static[: players_at - DYNAMIC]
        start = players_at - DYNAMIC + seat * PLAYER
        n = game.num_agents
        obs[players_at:] = static[start : start + n * PLAYER]
        if phase == 0:
            cur = game.cur
            for p in range(cur):  # who has bid (never what)
                obs[players_at + (p - seat) % n * PLAYER + 1] = 1.0
            own = game.bids[seat]
            if own >= 0:  # the observer knows its own secret bid
                obs[players_at + 1 : players_at + 5] = (1.0, 1.0, data.BID_TARGETS[own], own == data.BID_26_PLUS)
            obs[players_at + (cur - seat) % n * PLAYER] = 1.0
        elif phase != 4:
            obs[players_at + (game.cur - seat) % n * PLAYER] = 1.0
        return obs

    # ---- rendering --------------------------------------------------------------------------------
    def _render_ansi(self) -> str:
        from envs.volle_wolle.render import render_ansi

        return render_ansi(self.game, self.last_action)

    def _render_rgb(self) -> np.ndarray:
        from envs.volle_wolle.render import render_rgb

        return render_rgb(self.game)
