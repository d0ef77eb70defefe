"""Volle Wolle — PettingZoo AEC environment.

Dice-bidding for sheep cards (Zoch 2007, Alessandro Zucchini), rules VW-1 … VW-17 of
``docs/rules/volle_wolle.md``; the forward model is :mod:`meadowzoo.envs.volle_wolle.rules`, the card list
the RECONSTRUCTED data file ``envs/volle_wolle/deck.json``.

====================  ===============================================================
Import                ``from meadowzoo.envs import volle_wolle_v0``
Actions               Discrete(27)
Parallel API          no
Manual control        yes (``meadowzoo-play --agents human,…``; action strings, e.g. ``env.string_to_action("keep d12")``)
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

Observation
-----------

Egocentric: player block 0 is the observer, then the following seats in turn order; raw counts,
points and pips. The table is generated from the declaration in `envs/volle_wolle/observation.py`
(`python -m meadowzoo.envs.core.observation`):

<!-- observation:start -->
Sizes and offsets use n = number of players; T = number of distinct card types of the deck (19 for the default deck).

| block | offset | size | meaning |
|---|---|---|---|
| decision | 0 | 5 | pending decision one-hot: bid, roll, black, pick, over |
| attempt | 5 | 3 | attempt one-hot (1, 2, 3) while rolling |
| dice | 8 | 3 | d12, d10, d8 pips of the current roll while rolling (0 = not rolled) |
| kept | 11 | 3 | dice set aside while rolling (1 = kept) |
| result | 14 | 1 | while rolling: dice sum + negative modifier (VW-9) |
| bonus | 15 | 1 | while rolling: the roller's optional positive modifier |
| target | 16 | 1 | while rolling: the roller's target (bid; 26+ → 26) |
| picking | 17 | 2 | while picking: cards still to pick (at most the eligible cards on the display); 1 if only black sheep may be picked (VW-11) |
| supply | 19 | 1 | wool in the supply |
| pile size | 20 | 1 | cards left in the draw pile |
| round | 21 | 1 | round number (1-based) |
| display | 22 | 11·n + 11 | display slots 1…n+1, 11 each: present, kind one-hot (white, black, 3-7-0, 0-0-7, dog, bone), points, modifier (+N/−N, 0), bone symbol, sheep number |
| pile | 11·n + 33 | T | draw pile contents by card type (counts; the order is never shown); `env.unwrapped.card_types()` names the types |
| players | 11·n + T + 33 | 20·n | per player, the observer first, 20 each: to move, has bid, bid known, bid target (0 unknown), bid is 26+, place in roll order (1…n, 0 before the reveal), has a top card, top points, top modifier, top bone symbol, tie-break sheep number (VW-8), betting-card back, white / black / 3-7-0 / 0-0-7 counts, dogs, holds the bone, wool, points so far (VW-16 as if the game ended now) |
| (total) | | 31·n + T + 33 | |
<!-- observation:end -->

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
JSON deck file, or a list of 60 card dicts; see :mod:`meadowzoo.envs.volle_wolle.data`), ``render_mode``
(``ansi``, ``rgb_array``, ``human``), ``max_turns`` (player turns begun, every bid and every turn in bid order; the game is cut as the
``max_turns``-th begins; default 10,000, never reached),
``truncation_scoring`` (``"draw"``, the default: a ``max_turns`` cut scores 0 for everybody;
``"standing"``: the rank rewards of the points at the cut, VW-17; see
:mod:`meadowzoo.envs.core.standing`).

Version history: v0 — first release.
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from meadowzoo.envs.core.aec import INT8, MeadowEnv, before_reset, unknown_options
from meadowzoo.envs.core.options import check_int
from meadowzoo.envs.volle_wolle import data, rules
from meadowzoo.envs.volle_wolle.observation import LAYOUT
from meadowzoo.envs.volle_wolle.rules import VolleWolleGame

GLOBAL = 22
HEAD = 19  # obs[0:19]: the pending decision, dice and pick state
SLOT = 11
PLAYER = 20
_F32 = np.dtype(np.float32)
_frombuffer = np.frombuffer
_CARD_COLUMNS = struct.Struct("<9f")  # columns 11..19 of a player's row (back, counts, dogs, bone, wool, points)
_THREE = struct.Struct("<3f")  # supply, pile size, round; dice; result, bonus, target
#: the dice columns by [d12][d10][d8] (0 = not rolled yet): a lookup, not a pack, per rolling step
_DICE_BYTES = tuple(tuple(tuple(_THREE.pack(a, b, c) for c in range(data.DICE[2] + 1))
                          for b in range(data.DICE[1] + 1)) for a in range(data.DICE[0] + 1))


def _floats(values) -> bytes:
    """float32 bytes of ``values`` (the tables the observation is joined from)."""
    return np.asarray(values, dtype=np.float32).tobytes()


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


class _Encoding:
    """The byte tables the observation is joined from (fixed per configuration) and what
    :meth:`VolleWolleEnv._track` keeps of the game last observed. One object rather than thirty env
    attributes: past 30 attributes CPython 3.11 turns an object's attributes into a plain dict,
    which slows every attribute access and method call of the env (the base env has 22). Clones
    share it: what it keeps belongs to one game object, and another game starts it afresh."""

    __slots__ = ("size", "pile_struct", "type_total", "top_bytes", "no_top_bytes", "card_bytes", "heads",
                 "roll_heads", "kept_bytes", "pick_heads", "bid_cols", "bidding_cols", "own_bid_cols", "no_mask",
                 "masks", "obs_game", "wool", "present", "round", "revealed", "pile_round", "pile_counts",
                 "pile_bytes", "row_keys", "most_dogs", "rows", "bid_round", "bid_revealed", "revealed_cols",
                 "bid_codes", "display_round", "display_present", "display_bytes", "mid")


class VolleWolleEnv(MeadowEnv):
    """The raw (unwrapped) Volle Wolle AEC environment; see the module docstring."""

    metadata = {**MeadowEnv.metadata, "name": "volle_wolle_v0"}
    default_max_turns = 10_000
    game_class = VolleWolleGame
    observation_layout = LAYOUT

    # ---- options and games ------------------------------------------------------------------------
    def _check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        unknown = set(options) - {"num_players", "deck"}
        if unknown:
            raise unknown_options(unknown, ("num_players", "deck"))
        n = options["num_players"] = check_int("num_players", options.get("num_players", 4), data.MIN_PLAYERS,
                                               data.MAX_PLAYERS)
        deck = options.setdefault("deck", None)
        if deck is not None and not isinstance(deck, (str, list)):
            raise ValueError("deck must be None, a path string or a list of card dicts")
        self.deck = data.load_deck(deck)
        self._setup_tables(n)
        return options

    def _setup_tables(self, n: int) -> None:
        """Byte tables the observation is joined from (see :meth:`_encode`)."""
        deck = self.deck
        obs = self._obs = _Encoding()
        self._players_at = GLOBAL + SLOT * (n + 1) + deck.num_types
        obs.size = self._players_at + PLAYER * n
        obs.pile_struct = struct.Struct(f"<{deck.num_types}f")
        obs.type_total = [deck.type_of.count(t) for t in range(deck.num_types)]
        # columns 6..10 of a player's row: has a top card, its points, modifier, bone symbol, number
        obs.top_bytes = tuple(_floats((1, deck.points[c], deck.modifier[c], deck.bone_symbol[c], deck.number[c]))
                                for c in range(data.NUM_CARDS))
        obs.no_top_bytes = tuple(_floats((0, 0, 0, 0, back)) for back in range(max(data.BETTING_BACKS) + 1))
        # display slot bytes by card id; index -1 (an empty slot) is the all-zero row 60
        obs.card_bytes = tuple(row.tobytes() for row in card_features(deck))
        eye = np.eye(HEAD, dtype=np.float32)
        obs.heads = tuple(row.tobytes() for row in eye[:5])  # bid, roll, black, pick, over
        # rolling heads are joined: [phase one-hot, attempt one-hot], dice, kept, result, two zeros
        obs.roll_heads = tuple(tuple((eye[phase] + (eye[4 + attempt] if attempt else 0))[:8].tobytes()
                                       for attempt in range(4)) for phase in range(3))
        obs.kept_bytes = tuple(_floats((kept & 1, kept >> 1 & 1, kept >> 2 & 1)) for kept in range(8))
        pick = np.tile(eye[3], (2, data.NUM_CARDS + 1, 1))  # by [black sheep only][cards to pick]
        pick[:, :, 17] = np.arange(data.NUM_CARDS + 1)
        pick[1, :, 18] = 1
        obs.pick_heads = tuple(tuple(row.tobytes() for row in table) for table in pick)
        # bid columns 0..5 of a player's row (to move, has bid, bid known, target, 26+, place) by
        # [to move][code]: code 0 = has not bid, 1 = has bid (unseen), 2 + bid·(n+1) + place = bid
        # known (place 0 before the reveal)
        codes = [(0, 0, 0, 0, 0), (1, 0, 0, 0, 0)] + [
            (1, 1, data.BID_TARGETS[b], b == data.BID_26_PLUS, place)
            for b in range(len(data.BID_TARGETS)) for place in range(n + 1)
        ]
        obs.bid_cols = tuple(tuple(_floats((move,) + code) for code in codes) for move in (0, 1))
        # while bidding, by the bidder: players before it have bid (unseen), it moves, the rest wait
        none, bid, moving = obs.bid_cols[0][0], obs.bid_cols[0][1], obs.bid_cols[1][0]
        obs.bidding_cols = [[bid] * cur + [moving] + [none] * (n - cur - 1) for cur in range(n)]
        obs.own_bid_cols = [obs.bid_cols[0][2 + b * (n + 1)] for b in range(len(data.BID_TARGETS))]
        obs.no_mask = np.zeros(rules.NUM_ACTIONS, dtype=INT8)
        obs.no_mask.flags.writeable = False
        obs.masks = []  # by rules.LEGAL_SETS index
        for legal in rules.LEGAL_SETS:
            mask = np.zeros(rules.NUM_ACTIONS, dtype=INT8)
            mask[list(legal)] = 1
            mask.flags.writeable = False
            obs.masks.append(mask)
        obs.obs_game: VolleWolleGame | None = None
        obs.wool = None
        obs.present = obs.round = -1
        obs.revealed = None

    def _game_options(self) -> dict[str, Any]:
        return {"num_players": self.options["num_players"], "deck": self.deck}  # the deck loaded once

    def _game_from_dict(self, d: dict) -> VolleWolleGame:
        game = VolleWolleGame.from_dict(d)
        if game.deck.cards != self.deck.cards:
            raise ValueError("snapshot game field 'deck' differs from this env's deck")
        return game

    def _observation_size(self, game: VolleWolleGame) -> int:
        return self._obs.size

    def card_types(self) -> list[str]:
        """Labels of the card types counted in the pile slice of the observation."""
        return [data.card_label(self.deck, c).split("#")[0] for c in self.deck.type_cards]

    # ---- action mask ------------------------------------------------------------------------------
    def _mask(self, seat: int) -> np.ndarray:
        """As :meth:`MeadowEnv._mask`: a fresh copy of a mask tabled by ``game.legal_key()``."""
        if seat != self.game.current_agent or self.game.turn >= self.max_turns:
            return self._obs.no_mask.copy()
        key = self.game.legal_key()
        self._legal = rules.LEGAL_SETS[key]  # for step's check, as legal_actions would
        return self._obs.masks[key].copy()

    def legal_actions(self) -> list[int]:
        """As :meth:`MeadowEnv.legal_actions`. The cache ``_legal`` holds the tuple of
        ``rules.LEGAL_SETS`` (step's membership test needs no list); this hands out a list."""
        if self._needs_reset:
            raise RuntimeError(before_reset("legal_actions"))
        if self._legal is None:  # the game over: (); cut by max_turns: nothing either
            self._legal = rules.LEGAL_SETS[self.game.legal_key()] if not self._cut() else ()
        return list(self._legal)


    # ---- observation ------------------------------------------------------------------------------
    # The observation is joined from byte pieces (one bytes join and one numpy array per call):
    # the head (19 floats: the decision), the middle (supply, pile size, round, display, pile by
    # type) and every player's row in seat order rotated to start at the observer. A row is its
    # bid columns 0..5 (from tables, by who moves and who has bid) and its card columns 6..19
    # (rebuilt when the player's herd size, dogs, wool or bone, or the most dogs anybody holds,
    # moved). ``_track`` rebuilds the middle, the card columns and the revealed bids only when the
    # wool, the occupied display slots, the round or the reveal moved. That is every public change:
    # within a round cards only leave the display (and every card a player gains comes from it),
    # herds and dog piles only grow, and wool only moves between a player and the supply. Between
    # two such moves nothing public changes but the head, whose turn it is and who has bid. The
    # pile counts follow the deals (a fresh count when a round was skipped or does not add up).
    # The caches belong to one game object; another game (restore, clone, reset) starts them
    # afresh. The rules keep no counter for this: what changed is read off the state itself.
    def _track(self, game: VolleWolleGame) -> None:
        """Bring the middle part, the card columns and the revealed bids up to date with ``game``."""
        obs = self._obs
        n = game.num_agents
        if game is not obs.obs_game:
            obs.obs_game = game
            obs.pile_round = -2  # never the round before
            obs.pile_counts: list[int] = []
            obs.row_keys = [None] * n
            obs.most_dogs = -1
            obs.rows: list[bytes] = [b""] * (2 * n)  # bid columns of p at 2p, card columns at 2p+1
            obs.bid_round = -1
            obs.bid_revealed: bool | None = None
            obs.display_round = obs.display_present = -1
        obs.wool = list(game.wool)
        obs.present = game.present
        obs.round = game.round
        obs.revealed = game.revealed
        if game.round != obs.pile_round:  # pile by card type: it changes only when a round deals
            type_of = game.deck.type_of
            counts = obs.pile_counts
            if game.round == obs.pile_round + 1:  # the next round: the pile lost the display
                for card in game.display:
                    if card >= 0:
                        counts[type_of[card]] -= 1
            if game.round != obs.pile_round + 1 or sum(counts) != len(game.pile):  # else count afresh:
                counts = obs.pile_counts = list(obs.type_total)  # every card but those in play
                for p in range(n):
                    for card in game.cards_of(p):
                        counts[type_of[card]] -= 1
                for card in game.display:
                    if card >= 0:
                        counts[type_of[card]] -= 1
            obs.pile_round = game.round
            obs.pile_bytes = obs.pile_struct.pack(*counts)
        if game.present != obs.display_present or game.round != obs.display_round:
            # within a round cards only leave the display: the round and the occupied slots say it all
            obs.display_present = game.present
            obs.display_round = game.round
            obs.display_bytes = b"".join(map(obs.card_bytes.__getitem__, game.display))
        obs.mid = b"".join((_THREE.pack(game.supply, len(game.pile), game.round), obs.display_bytes,
                              obs.pile_bytes))
        # columns 6..19 of the players whose herd, dogs, bone or wool changed (everybody's points
        # when the most-dogs penalty moved)
        keys, rows, top_bytes, pack = obs.row_keys, obs.rows, obs.top_bytes, _CARD_COLUMNS.pack
        every = game.most_dogs != obs.most_dogs
        obs.most_dogs = game.most_dogs
        herds, dogs, wool, bone = game.herd, game.dogs, game.wool, game.bone
        for p in range(n):
            key = (len(herds[p]), len(dogs[p]), wool[p], bone == p)
            if key != keys[p] or every:
                keys[p] = key
                herd = herds[p]
                back = game.back[p]  # an empty herd: no top card, the betting card's back breaks ties
                top = top_bytes[herd[-1]] if herd else obs.no_top_bytes[back]
                white, black, k370, k007 = game.counts[p]  # spelt out: a call with *args builds a tuple
                rows[2 * p + 1] = top + pack(
                    back, white, black, k370, k007, len(dogs[p]), bone == p, wool[p], game.score(p))
        if game.revealed != obs.bid_revealed or game.round != obs.bid_round:
            # bids are revealed all at once, and hidden again next round
            obs.bid_round = game.round
            obs.bid_revealed = game.revealed
            obs.revealed_cols: dict[int, list[bytes]] = {}
            if game.revealed:
                place = [0] * n
                for rank, p in enumerate(game.order):
                    place[p] = rank + 1
                obs.bid_codes = [2 + b * (n + 1) + place[p] for p, b in enumerate(game.bids)]
            else:
                obs.bid_codes = [0] * n

    def _revealed_bid_cols(self, mover: int) -> list[bytes]:
        """Bid columns of every player (seat order) after the bidding, ``mover`` to move (-1: none)."""
        obs = self._obs
        waiting, moving = obs.bid_cols
        cols = obs.revealed_cols[mover] = [
            (moving if p == mover else waiting)[code] for p, code in enumerate(obs.bid_codes)
        ]
        return cols

    def _encode(self, game: VolleWolleGame, seat: int) -> np.ndarray:
        obs = self._obs
        if (game.present != obs.present or game.wool != obs.wool or game.round != obs.round
                or game.revealed is not obs.revealed or game is not obs.obs_game):
            self._track(game)
        phase = game.pending
        rows = obs.rows[:]
        if phase == 0:  # bidding: who has bid (never what), and the observer's own bid
            rows[0::2] = obs.bidding_cols[game.cur]
            own = game.bids[seat]
            if own >= 0:
                rows[2 * seat] = obs.own_bid_cols[own]
        else:
            mover = -1 if phase == 4 else game.cur
            rows[0::2] = obs.revealed_cols.get(mover) or self._revealed_bid_cols(mover)
        at = 2 * seat
        if phase == 1 or phase == 2:  # rolling, or the black-sheep choice after the third roll
            d12, d10, d8 = game.dice
            return _frombuffer(bytearray().join([
                obs.roll_heads[phase][game.attempt], _DICE_BYTES[d12][d10][d8], obs.kept_bytes[game.kept],
                _THREE.pack(game.base, game.bonus, game.target), b"\0" * 8, obs.mid, *rows[at:], *rows[:at],
            ]), _F32)
        if phase == 3:  # picking: the cards still to pick, at most the eligible ones (observation.py)
            eligible = game.black_slots if game.black_only else game.present
            head = obs.pick_heads[game.black_only][min(game.picks, eligible.bit_count())]
        else:
            head = obs.heads[phase]
        return _frombuffer(bytearray().join([head, obs.mid, *rows[at:], *rows[:at]]), _F32)

    # ---- rendering --------------------------------------------------------------------------------
    def _render_ansi(self) -> str:
        from meadowzoo.envs.volle_wolle.render import render_ansi

        return render_ansi(self.game, self.last_action)

    def _render_rgb(self) -> np.ndarray:
        from meadowzoo.envs.volle_wolle.render import render_rgb

        return render_rgb(self.game)
