"""Volle Wolle forward model (rules VW-1 … VW-17 of ``docs/rules/volle_wolle.md``).

Pure Python, no PettingZoo. A round is: reveal the display (VW-6), every player bids in seat
order (VW-7, secret: the bids are revealed once all have bid), then players act in bid order
(VW-8): roll (VW-9..VW-11), pick won cards one by one (VW-14, VW-15); the last player takes the
rest (VW-12; with 2 players it rolls too and the rest goes to the other player, VW-13).

Decisions (``current_agent``'s pending choice, ``pending``, named by :data:`DECISIONS`):

* ``BID``   – choose a bid (actions 0..12: 14..25, 26+).
* ``ROLL``  – after a roll that does not force success: ``claim`` (when bonus and wool reach the
  bid; the positive modifier is used first, then the fewest wool needed), ``keep <die>`` (set that
  die aside and reroll the others; attempts 1 and 2) or ``decline`` (attempt 3: accept failure).
* ``BLACK`` – failed below 14 with black sheep in the display, and bonus + wool can reach 14:
  ``avoid black sheep`` (spend the fewest wool needed) or ``take black sheep``.
* ``PICK``  – take one card of the display (``take card k``) until the won number is taken.

Everything without a choice is resolved automatically: dice rolls, forced successes, forced
black sheep, wool for failing, picks where the order cannot matter (taking every eligible card
with at most one sheep card among them), empty displays, new rounds and the end.

**DECISION** notes (the spec is silent):

* The 26+ fee is paid when the bids are revealed (paying at once would reveal the secret bid).
* The betting cards (backs 1..6) are shuffled and dealt, one per player, from the game's generator.
* Claiming always uses the positive modifier first and then the fewest wool that reach the bid
  (more wool never helps: each wool is a point); likewise for avoiding the black sheep.
* When a player takes several cards (won cards, black sheep, the rest of the display) the player
  chooses their order one by one; the order is only asked when it can matter (two or more sheep).
* The most-dogs penalty needs at least one dog.
* ``turn`` counts player turns begun: every bid, and every turn in bid order (a roller's turn with
  its rolls and picks, the last player taking the rest; with two players the rest going to the
  other player, VW-13). A player skipped because the display is empty has no turn.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from meadowzoo.envs.core.game import Game, IllegalActionError
from meadowzoo.envs.core.snapshot import (
    rename_fields, require, require_choice, require_int, require_int_list, rng_from_dict, rng_to_dict,
)
from meadowzoo.envs.volle_wolle import data
from meadowzoo.envs.volle_wolle.data import (
    BID_26_PLUS,
    BID_NAMES,
    BID_TARGETS,
    BLACK,
    BLACK_SHEEP_LIMIT,
    BONE,
    BONE_PER_DOG,
    CARDS_FOR_ATTEMPT,
    DICE,
    DIE_NAMES,
    DOG,
    K007,
    K370,
    MOST_DOGS,
    NUM_CARDS,
    ONE_DOG,
    SCORE_007_SET,
    SCORE_370,
    WHITE,
    WOOL_START,
    WOOL_TOTAL,
    Deck,
    load_deck,
)

# ---- phases ----------------------------------------------------------------------------------------
BID, ROLL, BLACK_CHOICE, PICK, OVER = range(5)
#: names of the ``pending`` decision kinds
DECISIONS = ("bid", "roll", "black", "pick", "over")

# ---- actions ---------------------------------------------------------------------------------------
NUM_BIDS = len(BID_TARGETS)  # 0..12
CLAIM = NUM_BIDS  # 13
DECLINE = CLAIM + 1  # 14
KEEP = DECLINE + 1  # 15, 16, 17: keep d12, d10, d8
AVOID_BLACK = KEEP + 3  # 18
TAKE_BLACK = AVOID_BLACK + 1  # 19
PICK_SLOT = TAKE_BLACK + 1  # 20.. 26: take display card 1..7
MAX_SLOTS = data.MAX_PLAYERS + 1
NUM_ACTIONS = PICK_SLOT + MAX_SLOTS  # 27

_ACTION_NAMES = (
    [f"bid {name}" for name in BID_NAMES]
    + ["claim", "decline"]
    + [f"keep {die}" for die in DIE_NAMES]
    + ["avoid black sheep", "take black sheep"]
    + [f"take card {k + 1}" for k in range(MAX_SLOTS)]
)
#: display slots (and their ``take card`` actions) by bit mask of slots, bit s = slot s
_SLOTS_OF = tuple(tuple(s for s in range(MAX_SLOTS) if mask >> s & 1) for mask in range(1 << MAX_SLOTS))
_PICKS_OF = tuple(tuple(PICK_SLOT + s for s in slots) for slots in _SLOTS_OF)
_BIDS_POOR = list(range(BID_26_PLUS))  # no wool: no 26+
_BIDS_ALL = list(range(NUM_BIDS))
_D12, _D10, _D8 = DICE  # sides
_BITS = (1, 2, 4)
#: legal actions while rolling, by [can claim][dice kept (bits), or 8 on the third attempt]
_ROLL_LEGAL = tuple(
    tuple(tuple([CLAIM] * claim + [KEEP + d for d in range(3) if not kept & _BITS[d]]) for kept in range(8))
    + ((CLAIM, DECLINE) if claim else (DECLINE,),)
    for claim in (False, True)
)
#: every set of legal actions, indexed by :meth:`VolleWolleGame.legal_key`: bids without / with wool,
#: rolling by [can claim][kept dice or 8], picks by the bit mask of eligible slots, black choice, over
LEGAL_SETS = (
    (tuple(_BIDS_POOR), tuple(_BIDS_ALL)) + _ROLL_LEGAL[0] + _ROLL_LEGAL[1] + _PICKS_OF
    + ((AVOID_BLACK, TAKE_BLACK), ())
)
_ROLL_KEY = 2
_PICK_KEY = _ROLL_KEY + 2 * len(_ROLL_LEGAL[0])
_BLACK_KEY = _PICK_KEY + len(_PICKS_OF)
_OVER_KEY = _BLACK_KEY + 1

_DECK_CACHE: dict = {}


def default_deck() -> Deck:
    if None not in _DECK_CACHE:
        _DECK_CACHE[None] = load_deck()
    return _DECK_CACHE[None]


class VolleWolleGame(Game):
    """The game state and its rules."""

    name = "volle_wolle"
    num_actions = NUM_ACTIONS
    DECISIONS = DECISIONS
    # Slots, not an instance dict: past 30 attributes CPython 3.11 gives an object a plain dict,
    # which slows every attribute access and ``self.method()`` call of a step (see HaseUndIgelGame).
    __slots__ = _SLOTS = (
        "deck", "num_agents", "rng", "pile", "back", "wool", "supply", "herd", "dogs", "bone", "round",
        "turns", "display", "dice", "most_dogs", "counts", "printed", "lowest", "present",
        "sheep_slots", "black_slots", "bids", "revealed", "order", "pos", "attempt", "kept", "base", "bonus",
        "neg", "target", "can_claim", "picks", "black_only", "pending", "cur", "current_agent", "is_over", "turn",
    )

    # ---- construction -----------------------------------------------------------------------------
    def __init__(self, num_players: int = 4, *, rng: np.random.Generator | None = None,
                 deck: Deck | str | list | None = None) -> None:
        """A game at its first bid. ``deck``: a loaded :class:`~meadowzoo.envs.volle_wolle.data.Deck`,
        or what :func:`~meadowzoo.envs.volle_wolle.data.load_deck` reads (None = the default file)."""
        if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)) or not (
            data.MIN_PLAYERS <= num_players <= data.MAX_PLAYERS
        ):
            raise ValueError(f"num_players must be {data.MIN_PLAYERS}..{data.MAX_PLAYERS}, got {num_players!r}")
        g = self
        n = int(num_players)
        rng = rng if rng is not None else np.random.default_rng()
        g.deck = deck if isinstance(deck, Deck) else default_deck() if deck is None else load_deck(deck)
        g.num_agents = n
        g.rng = rng
        g.pile = rng.permutation(data.NUM_CARDS).tolist()  # drawn from the end
        g.back = rng.permutation(data.BETTING_BACKS)[:n].tolist()
        g.wool = [WOOL_START] * n
        g.supply = WOOL_TOTAL - WOOL_START * n
        g.herd = [[] for _ in range(n)]
        g.dogs = [[] for _ in range(n)]
        g.bone = -1
        g.round = 0
        g.turns = 0
        g.display = [-1] * (n + 1)
        g.dice = [0, 0, 0]
        g._init_derived()
        g._start_round()
        g._publish()

    def _init_derived(self) -> None:
        """Tables recomputed from the state (not part of the snapshot)."""
        self.most_dogs = max(len(d) for d in self.dogs)
        # per player: sheep counts by kind, printed points of white + black, two lowest whites
        self.counts = [[0, 0, 0, 0] for _ in range(self.num_agents)]
        self.printed = [0] * self.num_agents
        self.lowest: list[list[int]] = [[] for _ in range(self.num_agents)]
        for p in range(self.num_agents):
            for card in self.herd[p]:
                self._count_sheep(p, card)
        self._index_display()

    def _index_display(self) -> None:
        """Bit masks of the display slots (bit s = slot s) holding a card / a sheep / a black sheep;
        kept up to date by ``_take_slot`` and every deal."""
        kind = self.deck.kind
        present = sheep = black = 0
        for slot, card in enumerate(self.display):
            if card >= 0:
                bit = 1 << slot
                present |= bit
                if kind[card] <= K007:
                    sheep |= bit
                if kind[card] == BLACK:
                    black |= bit
        self.present = present
        self.sheep_slots = sheep
        self.black_slots = black

    def _count_sheep(self, p: int, card: int) -> None:
        deck = self.deck
        kind = deck.kind[card]
        self.counts[p][kind] += 1
        if kind <= BLACK:
            points = deck.points[card]
            self.printed[p] += points
            if kind == WHITE:
                low = self.lowest[p]
                low.append(points)
                if len(low) > data.NO_DOG_REMOVED:
                    low.sort()
                    low.pop()

    # ---- the decision -----------------------------------------------------------------------------
    # ``current_agent``, ``is_over`` and ``turn`` are plain attributes (slots), not properties: the
    # AEC adapter reads them several times per step. :meth:`_publish` derives them from ``pending``,
    # ``cur`` and ``turns`` at the end of every change of state (``__init__``, ``apply``, ``from_dict``).

    def _publish(self) -> None:
        over = self.pending == OVER
        self.is_over = over
        self.current_agent = -1 if over else self.cur
        self.turn = self.turns

    def legal_actions(self) -> list[int]:
        return list(LEGAL_SETS[self.legal_key()])

    def legal_key(self) -> int:
        """Index of the current legal actions in :data:`LEGAL_SETS` (the env memoises masks by it)."""
        phase = self.pending
        if phase == BID:
            return 1 if self.wool[self.cur] else 0
        if phase == ROLL:
            return _ROLL_KEY + 9 * self.can_claim + (self.kept if self.attempt < 3 else 8)
        if phase == PICK:
            return _PICK_KEY + (self.black_slots if self.black_only else self.present)
        return _BLACK_KEY if phase == BLACK_CHOICE else _OVER_KEY

    def apply(self, action: int) -> None:
        phase = self.pending
        a = action
        if phase == BID:
            if not (0 <= a < NUM_BIDS) or (a == BID_26_PLUS and not self.wool[self.cur]):
                self._illegal(a)
            self.bids[self.cur] = a
            if self.cur + 1 < self.num_agents:
                self.cur += 1
                self.turns += 1  # the next player's bidding turn
            else:
                self._reveal()
        elif phase == ROLL:
            if a == CLAIM and self.can_claim:
                self._pay(self.cur, self.target - self.base - self.bonus)
                self._win()
            elif KEEP <= a < KEEP + 3 and self.attempt < 3 and not self.kept & _BITS[a - KEEP]:
                self.kept |= _BITS[a - KEEP]
                self.attempt += 1
                self._roll()
            elif a == DECLINE and self.attempt == 3:
                self._fail()
            else:
                self._illegal(a)
        elif phase == PICK:
            slot = a - PICK_SLOT
            eligible = self.black_slots if self.black_only else self.present
            if not (0 <= slot <= self.num_agents) or not eligible >> slot & 1:
                self._illegal(a)
            self._take_slot(slot)
            self.picks -= 1
            self._continue_pick()
        elif phase == BLACK_CHOICE:
            if a == AVOID_BLACK:
                self._pay(self.cur, BLACK_SHEEP_LIMIT - self.base - self.bonus)
                self._gain_wool(self.cur)
                self._end_turn()
            elif a == TAKE_BLACK:
                self._gain_wool(self.cur)
                self._begin_pick(self.cur, NUM_CARDS, True)
            else:
                self._illegal(a)
        else:
            raise IllegalActionError(f"the game is over; no action is legal (got {action!r})")
        # _publish, inlined (a Python call fewer on every step)
        over = self.pending == OVER
        self.is_over = over
        self.current_agent = -1 if over else self.cur
        self.turn = self.turns

    # apply's own checks cost a few comparisons: the adapter's unchecked path is apply itself
    # (one Python call fewer than the base class's forwarding apply_legal)
    apply_legal = apply

    def _illegal(self, action: int) -> None:
        legal = self.legal_actions()
        named = ", ".join(f"{x} ({_ACTION_NAMES[x]})" for x in legal)
        what = f"{action} ({_ACTION_NAMES[action]})" if 0 <= action < NUM_ACTIONS else f"{action} (out of range)"
        raise IllegalActionError(f"illegal action {what} for player {self.cur}; legal actions: [{named}]")

    # ---- public helpers -----------------------------------------------------------------------------
    def top_card(self, player: int) -> int:
        """Top card of ``player``'s herd, ``-1`` before the first sheep card."""
        herd = self.herd[player]
        return herd[-1] if herd else -1

    def sheep_number(self, player: int) -> int:
        """Tie-break number: the top card's sheep number, or the betting-card back (VW-8)."""
        herd = self.herd[player]
        return self.deck.number[herd[-1]] if herd else self.back[player]

    def modifiers(self, player: int) -> tuple[int, int]:
        """(mandatory negative, optional positive) modifier of the top card (VW-9)."""
        herd = self.herd[player]
        if not herd:
            return 0, 0
        m = self.deck.modifier[herd[-1]]
        return (m, 0) if m < 0 else (0, m)

    def cards_of(self, player: int) -> list[int]:
        """Every card ``player`` holds: herd (bottom to top), dogs, the bone card."""
        held = self.herd[player] + self.dogs[player]
        if self.bone == player:
            held.append(self.deck.bone_card)
        return held

    # ---- round flow ---------------------------------------------------------------------------------
    def _start_round(self) -> None:
        if not self.pile:
            self.pending = OVER
            self.cur = -1
            self.attempt = 0
            self.picks = 0
            self.can_claim = False
            return
        n = self.num_agents
        self.round += 1
        count = min(n + 1, len(self.pile))  # VW-6
        display = self.display
        for slot in range(n + 1):
            display[slot] = self.pile.pop() if slot < count else -1
        self._index_display()
        self.bids = [-1] * n
        self.revealed = False
        self.order: list[int] = []
        self.pos = 0
        self.attempt = 0
        self.kept = 0
        self.dice = [0, 0, 0]
        self.base = self.bonus = self.neg = self.target = 0
        self.can_claim = False
        self.picks = 0
        self.black_only = False
        self.pending = BID
        self.cur = 0
        self.turns += 1  # the first bidding turn

    def _reveal(self) -> None:
        """VW-7, VW-8: all bids revealed; 26+ pays a wool; order by bid, then sheep number."""
        self.revealed = True
        for p, b in enumerate(self.bids):
            if b == BID_26_PLUS:
                self._pay(p, 1)
        keys = [(-b, self.sheep_number(p)) for p, b in enumerate(self.bids)]
        self.order = sorted(range(self.num_agents), key=keys.__getitem__)
        self.pos = 0
        self._next_player()

    def _next_player(self) -> None:
        """Give the turn to the next player in bid order (``pos`` already points at it)."""
        n = self.num_agents
        order = self.order
        while True:
            pos = self.pos
            if pos >= n:
                if pos == n and n == 2 and self.present:  # VW-13: the rest to the other
                    self.turns += 1
                    self.pos = n + 1
                    self.attempt = 0
                    self._begin_pick(order[0], NUM_CARDS, False)
                    return
                self._start_round()
                return
            p = order[pos]
            if not self.present:  # empty display: nothing to do (VW-12)
                self.pos = pos + 1
                continue
            self.cur = p
            self.turns += 1
            if pos == n - 1 and n > 2:  # VW-12: the last takes the rest without rolling
                self.attempt = 0
                self._begin_pick(p, NUM_CARDS, False)
                return
            self.attempt = 1
            self.kept = 0
            neg, self.bonus = self.modifiers(p)
            self.neg = neg
            self.target = BID_TARGETS[self.bids[p]]
            self._roll()
            return

    def _roll(self) -> None:
        """Roll the dice not set aside and evaluate the attempt (VW-9, VW-10)."""
        random = self.rng.random
        dice = self.dice
        kept = self.kept
        if not kept & 1:  # unrolled: d12, d10, d8 in this order (the draws are part of the seed's game)
            dice[0] = int(random() * _D12) + 1
        if not kept & 2:
            dice[1] = int(random() * _D10) + 1
        if not kept & 4:
            dice[2] = int(random() * _D8) + 1
        base = dice[0] + dice[1] + dice[2] + self.neg
        self.base = base
        if base >= self.target:  # forced success
            self.can_claim = False
            self._win()
            return
        self.can_claim = base + self.bonus + self.wool[self.cur] >= self.target
        if self.can_claim or self.attempt < 3:
            self.pending = ROLL
            return
        self._fail()

    def _win(self) -> None:
        self.can_claim = False
        self._begin_pick(self.cur, CARDS_FOR_ATTEMPT[self.attempt - 1], False)

    def _fail(self) -> None:
        """VW-11: failure after attempt 3."""
        self.can_claim = False
        p = self.cur
        if self.base < BLACK_SHEEP_LIMIT and self._has_black():
            if self.base + self.bonus + self.wool[p] >= BLACK_SHEEP_LIMIT:
                self.pending = BLACK_CHOICE
                return
            self._gain_wool(p)
            self._begin_pick(p, NUM_CARDS, True)
            return
        self._gain_wool(p)
        self._end_turn()

    def _end_turn(self) -> None:
        self.pos += 1
        self._next_player()

    # ---- wool -------------------------------------------------------------------------------------
    def _pay(self, player: int, amount: int) -> None:
        if amount > 0:
            self.wool[player] -= amount
            self.supply += amount

    def _gain_wool(self, player: int) -> None:
        if self.supply:
            self.supply -= 1
            self.wool[player] += 1

    # ---- picking ------------------------------------------------------------------------------------
    def _has_black(self) -> bool:
        return self.black_slots != 0

    def _eligible(self) -> tuple[int, ...]:
        """Display slots that may be picked now."""
        return _SLOTS_OF[self.black_slots if self.black_only else self.present]

    def _begin_pick(self, player: int, count: int, black_only: bool) -> None:
        self.cur = player
        self.picks = count
        self.black_only = black_only
        self._continue_pick()

    def _continue_pick(self) -> None:
        """Ask for the next pick, or take automatically when the order cannot matter."""
        if self.picks > 0:
            eligible = self.black_slots if self.black_only else self.present
            if eligible:
                slots = _SLOTS_OF[eligible]
                if self.picks < len(slots) or len(_SLOTS_OF[eligible & self.sheep_slots]) > 1:
                    self.pending = PICK
                    return
                for s in slots:  # every eligible card, at most one sheep among them: order is moot
                    self._take_slot(s)
        self.picks = 0
        self.black_only = False
        self._end_turn()

    def _take_slot(self, slot: int) -> None:
        """VW-14, VW-15: the card goes on top of the herd, or beside it."""
        card = self.display[slot]
        self.display[slot] = -1
        keep = ~(1 << slot)
        self.present &= keep
        self.sheep_slots &= keep
        self.black_slots &= keep
        p = self.cur
        deck = self.deck
        kind = deck.kind[card]
        if kind == DOG:
            self.dogs[p].append(card)
            if len(self.dogs[p]) > self.most_dogs:  # the most-dogs penalty moves: everybody's points
                self.most_dogs += 1
        elif kind == BONE:
            self._move_bone(p)
        else:
            self.herd[p].append(card)
            self._count_sheep(p, card)
            if deck.bone_symbol[card] and self.bone >= 0:
                self._move_bone(p)

    def _move_bone(self, p: int) -> None:
        self.bone = p

    # ---- scoring ------------------------------------------------------------------------------------
    def score(self, p: int) -> int:
        """``p``'s points by VW-16, as if the game ended now."""
        counts = self.counts[p]
        total = self.printed[p] + SCORE_370[counts[K370] % 3] + SCORE_007_SET * (counts[K007] // 3)
        d = len(self.dogs[p])
        if d == 1:
            total += ONE_DOG
        elif d == 0:
            total -= sum(self.lowest[p])  # the two lowest white sheep go back to the box
        if d and d == self.most_dogs:  # all tied for most
            total += MOST_DOGS
        if self.bone == p:
            total += BONE_PER_DOG * d
        return total + self.wool[p]

    def scores(self) -> list[int]:
        """Every player's points by VW-16, as if the game ended now."""
        return [self.score(p) for p in range(self.num_agents)]

    def places(self) -> list[int]:
        """VW-17: most points first; equal points share a place."""
        s = self.scores()
        return [sum(1 for t in s if t > mine) for mine in s]

    # ---- text -------------------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        if not 0 <= action < NUM_ACTIONS:
            raise ValueError(f"action {action} out of range 0..{NUM_ACTIONS - 1}")
        return _ACTION_NAMES[action]

    # ---- copies and snapshots -----------------------------------------------------------------------
    _LIST_FIELDS = ("pile", "back", "wool", "display", "dice", "bids", "order")
    _INT_FIELDS = ("num_agents", "supply", "bone", "round", "cur", "pos", "attempt",
                   "kept", "base", "bonus", "neg", "target", "picks")
    _BOOL_FIELDS = ("revealed", "can_claim", "black_only")

    def clone(self) -> "VolleWolleGame":
        g = self._shallow_copy()
        for name in self._LIST_FIELDS:
            setattr(g, name, list(getattr(self, name)))
        g.herd = [list(h) for h in self.herd]
        g.dogs = [list(d) for d in self.dogs]
        g.counts = [list(c) for c in self.counts]
        g.printed = list(self.printed)
        g.lowest = [list(low) for low in self.lowest]
        g.rng = np.random.Generator(np.random.PCG64())
        g.rng.bit_generator.state = self.rng.bit_generator.state
        return g

    def to_dict(self) -> dict:
        out = {name: list(getattr(self, name)) for name in self._LIST_FIELDS}
        out.update({name: int(getattr(self, name)) for name in self._INT_FIELDS})
        out.update({name: bool(getattr(self, name)) for name in self._BOOL_FIELDS})
        out["turn"] = self.turns
        out["pending"] = DECISIONS[self.pending]
        out["herd"] = [list(h) for h in self.herd]
        out["dogs"] = [list(d) for d in self.dogs]
        out["deck"] = [dict(c) for c in self.deck.cards]
        out["rng"] = rng_to_dict(self.rng)
        return out

    @classmethod
    def upgrade(cls, d: Any, version: int) -> Any:
        """Version 1 stored the pending decision as its number in ``phase`` and counted decisions,
        not turns, in ``turns``. A decision count is at least the turn count, so it is kept as the
        turn count: the upgraded game is truncated no later than the original would have been."""
        if version == 1 and isinstance(d, dict):
            d = rename_fields(d, {"phase": "pending", "turns": "turn"})
            pending = d.get("pending")
            if type(pending) is int and 0 <= pending < len(DECISIONS):
                d["pending"] = DECISIONS[pending]
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "VolleWolleGame":
        where = "snapshot game"
        if not isinstance(d, dict):
            raise ValueError(f"{where}: expected an object, got {type(d).__name__}")
        cards = require(d, "deck", list, where)
        key = repr(cards)
        deck = _DECK_CACHE.get(key)
        if deck is None:
            try:
                deck = load_deck(cards)
            except ValueError as error:
                raise ValueError(f"{where}: field 'deck': {error}") from None
            _DECK_CACHE[key] = deck
        g = cls.__new__(cls)
        g.deck = deck
        n = require_int(d, "num_agents", data.MIN_PLAYERS, data.MAX_PLAYERS, where)
        g.num_agents = n
        nc = data.NUM_CARDS
        g.pile = require_int_list(d, "pile", None, 0, nc - 1, where)
        g.back = require_int_list(d, "back", n, 1, max(data.BETTING_BACKS), where)
        if len(set(g.back)) != n:
            raise ValueError(f"{where}: field 'back' must hold distinct betting-card backs")
        g.wool = require_int_list(d, "wool", n, 0, WOOL_TOTAL, where)
        g.supply = require_int(d, "supply", 0, WOOL_TOTAL, where)
        if sum(g.wool) + g.supply != WOOL_TOTAL:
            raise ValueError(f"{where}: field 'supply' + wool must be {WOOL_TOTAL}")
        g.display = require_int_list(d, "display", n + 1, -1, nc - 1, where)
        g.dice = require_int_list(d, "dice", 3, 0, max(DICE), where)
        for i, (v, sides) in enumerate(zip(g.dice, DICE)):
            if v > sides:
                raise ValueError(f"{where}: field 'dice'[{i}]={v} exceeds {sides}")
        g.bids = require_int_list(d, "bids", n, -1, NUM_BIDS - 1, where)
        g.order = require_int_list(d, "order", None, 0, n - 1, where)
        if g.order and sorted(g.order) != list(range(n)):
            raise ValueError(f"{where}: field 'order' must be empty or a permutation of the players")
        g.herd = _card_lists(d, "herd", n, where)
        g.dogs = _card_lists(d, "dogs", n, where)
        g.bone = require_int(d, "bone", -1, n - 1, where)
        g.turns = require_int(d, "turn", 0, 10**9, where)
        g.pending = require_choice(d, "pending", DECISIONS, where)
        most = data.MAX_CARD_POINTS  # a modifier's bound (the deck's check): base = dice + negative modifier
        for name, lo, hi in (("round", 0, nc), ("cur", -1, n - 1),
                             ("pos", 0, n + 2), ("attempt", 0, 3), ("kept", 0, 7), ("base", -most, most + sum(DICE)),
                             ("bonus", 0, most), ("neg", -most, 0), ("target", 0, max(BID_TARGETS)),
                             ("picks", 0, nc)):
            setattr(g, name, require_int(d, name, lo, hi, where))
        for name in cls._BOOL_FIELDS:
            setattr(g, name, require(d, name, bool, where))
        # every card exactly once, each in a place its kind allows
        kind = deck.kind
        where_cards = g.pile + [c for c in g.display if c >= 0]
        for p in range(n):
            if any(kind[c] not in data.SHEEP_KINDS for c in g.herd[p]):
                raise ValueError(f"{where}: field 'herd'[{p}] holds a card that is not a sheep")
            if any(kind[c] != DOG for c in g.dogs[p]):
                raise ValueError(f"{where}: field 'dogs'[{p}] holds a card that is not a dog")
            where_cards += g.herd[p] + g.dogs[p]
        if g.bone >= 0:
            where_cards.append(deck.bone_card)
        if sorted(where_cards) != list(range(nc)):
            raise ValueError(f"{where}: fields 'pile', 'display', 'herd', 'dogs', 'bone' must hold every card once")
        if g.pending != OVER and not 0 <= g.cur < n:
            raise ValueError(f"{where}: field 'cur' must name a player while the game runs")
        if g.pending in (ROLL, BLACK_CHOICE, PICK) and not g.revealed:
            raise ValueError(f"{where}: field 'revealed' must be true after the bids")
        if bool(g.order) != g.revealed:  # the bid order is set when the bids are revealed (VW-7)
            raise ValueError(f"{where}: field 'order' must be a permutation of the players exactly once "
                             f"the bids are revealed")
        if g.pending == BID and (g.revealed or any(b >= 0 for b in g.bids[g.cur:])):
            raise ValueError(f"{where}: field 'bids' does not fit the bidding phase")
        if g.pending == ROLL and not 1 <= g.attempt <= 3:
            raise ValueError(f"{where}: field 'attempt' must be 1..3 while rolling")
        g._init_derived()
        if g.pending == PICK and not g._eligible():
            raise ValueError(f"{where}: field 'display' has no card to pick")
        g.rng = rng_from_dict(d.get("rng"), where)
        g._publish()
        return g

    def resample_hidden(self, observer: int, rng: np.random.Generator) -> None:
        """Reshuffle the unseen pile, redraw other players' unrevealed bids, reseed future dice.

        The pile is sorted before the shuffle, so the result depends only on what the observer
        knows and on ``rng`` (never on the true hidden order)."""
        order = rng.permutation(len(self.pile))
        pile = sorted(self.pile)
        self.pile = [pile[i] for i in order]
        if self.pending == BID:
            for p, b in enumerate(self.bids):
                if b >= 0 and p != observer:
                    legal = _BIDS_ALL if self.wool[p] else _BIDS_POOR
                    self.bids[p] = legal[int(rng.integers(len(legal)))]
        self.rng = np.random.default_rng(rng.integers(2**63))


def _card_lists(d: dict, field: str, n: int, where: str) -> list[list[int]]:
    value = require(d, field, list, where)
    if len(value) != n:
        raise ValueError(f"{where}: field {field!r} must have {n} entries")
    out = []
    for i, item in enumerate(value):
        if not isinstance(item, list) or any(
            isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < data.NUM_CARDS for c in item
        ):
            raise ValueError(f"{where}: field {field!r}[{i}] must be a list of card ids")
        out.append(list(item))
    return out
