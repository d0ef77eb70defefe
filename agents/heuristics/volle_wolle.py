"""Heuristic players of Volle Wolle: ``greedy`` and ``strong``.

Both value cards by what they add to the player's final score (VW-16, "as if the game ended now")
plus a little foresight the rules suggest: an unfinished 0-0-7 set is worth part of its 21 while
enough 0-0-7 cards are still unseen; a 3rd 3-7-0 card that would reset the set to 0 is avoided;
the first dog is worth 9 and saves the two lowest white sheep, a second one costs those 9 again
(and maybe the most-dogs −5) unless the bone pays 4 per dog; black sheep count their negative
points; the top card's modifier is worth a bit per remaining round (a +N helps every roll, a −N
hurts every roll). Both read only public information: the display, every herd, wool, the bone,
revealed bids and the counts of unseen cards (never the pile order or unrevealed bids).

**greedy** bids the highest bid whose success probability within three attempts is at least 60%
(the exact d12+d10+d8 set-aside process, modifiers counted), claims every success it can afford,
sets aside the die that is best relative to its average, avoids black sheep when that is cheaper
than their points, and picks the most valuable card each time.

**strong** plans:

* *bid*: for every bid it computes the exact chance to succeed at attempt 1, 2 and 3 (cached per
  target) and the value of the cards it would then still find: opponents expected to bid higher go
  first (each opponent's bid is modelled from its own modifiers and wool) and take the best cards;
  bidding lowest means taking whatever is left without rolling (VW-12), which is good when the
  display is rich and bad when black sheep or surplus dogs wait. 26+ costs a wool.
* *roll*: exact expectation over the remaining dice of "claim now (3/2/1 cards, minus the wool
  spent)" against "set die d aside and go on" against failing (+1 wool, black sheep below 14).
* *pick*: the best set of cards it may take and their best order (the last sheep picked is the
  new top card, so a good modifier goes last; VW-14), including the bone with its dogs (VW-15).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Any

import numpy as np

from meadowzoo.agents.base import Agent
from meadowzoo.envs.volle_wolle import data
from meadowzoo.envs.volle_wolle.data import BLACK, BONE, DOG, K007, K370, WHITE
from meadowzoo.envs.volle_wolle.rules import (
    AVOID_BLACK,
    BID,
    BLACK_CHOICE,
    CLAIM,
    DECLINE,
    KEEP,
    NUM_BIDS,
    PICK,
    PICK_SLOT,
    ROLL,
    TAKE_BLACK,
)

SIDES = data.DICE
WOOL_WORTH = 1.2  # a wool is a point at the end and a +1 for a later roll


# ---- dice: exact success chances of the set-aside process ---------------------------------------
@lru_cache(maxsize=None)
def success_by_attempt(x: int) -> tuple[float, float, float]:
    """Chance that the dice sum first reaches ``x`` at attempt 1, 2, 3 when the player always sets
    aside the die that maximises the chance of success (VW-9)."""
    if x <= 3:
        return 1.0, 0.0, 0.0

    def last(need: int, sides: int) -> float:  # one die must show at least ``need``
        return min(1.0, max(0.0, (sides - need + 1) / sides))

    # attempt 2: die i kept with value v, the other two rolled
    second: dict[tuple[int, int], tuple[float, float]] = {}
    for i in range(3):
        j, k = [d for d in range(3) if d != i]
        for v in range(1, SIDES[i] + 1):
            p2 = p3 = 0.0
            for a in range(1, SIDES[j] + 1):
                for b in range(1, SIDES[k] + 1):
                    if v + a + b >= x:
                        p2 += 1
                    else:
                        p3 += max(last(x - v - a, SIDES[k]), last(x - v - b, SIDES[j]))
            n = SIDES[j] * SIDES[k]
            second[i, v] = (p2 / n, p3 / n)
    p1 = p2 = p3 = 0.0
    for a in range(1, SIDES[0] + 1):
        for b in range(1, SIDES[1] + 1):
            for c in range(1, SIDES[2] + 1):
                if a + b + c >= x:
                    p1 += 1
                else:
                    q = max((second[0, a], second[1, b], second[2, c]), key=sum)
                    p2 += q[0]
                    p3 += q[1]
    n = SIDES[0] * SIDES[1] * SIDES[2]
    return p1 / n, p2 / n, p3 / n


def bid_target(bid: int) -> int:
    return data.BID_TARGETS[bid]


# ---- card values ------------------------------------------------------------------------------------
class Valuer:
    """Values of cards for one player in one state (public information only)."""

    def __init__(self, game: Any, player: int) -> None:
        self.game = game
        self.p = player
        deck = game.deck
        self.deck = deck
        seen = set(c for h in game.herd for c in h) | set(c for d in game.dogs for c in d)
        seen |= {c for c in game.display if c >= 0}
        if game.bone >= 0:
            seen.add(deck.bone_card)
        self.unseen_007 = sum(1 for c in range(data.NUM_CARDS) if deck.kind[c] == K007 and c not in seen)
        self.unseen_dogs = sum(1 for c in range(data.NUM_CARDS) if deck.kind[c] == DOG and c not in seen)
        self.rounds_left = len(game.pile) / (game.num_agents + 1)
        self.most_other = max((len(game.dogs[q]) for q in range(game.num_agents) if q != player), default=0)
        self.base = self.holding_value([])

    def modifier_worth(self, card: int) -> float:
        m = self.deck.modifier[card] if card >= 0 else 0
        weight = min(1.0, self.rounds_left / 4)
        return (0.7 * m if m > 0 else 1.2 * m) * weight

    def holding_value(self, extra: list[int]) -> float:
        """Final-score estimate of the player after also taking ``extra`` (in that order)."""
        g, p, deck = self.game, self.p, self.deck
        counts = list(g.counts[p])
        printed = g.printed[p]
        lowest = list(g.lowest[p])
        dogs = len(g.dogs[p])
        bone = g.bone == p
        top = g.top_card(p)
        for c in extra:
            kind = deck.kind[c]
            if kind == DOG:
                dogs += 1
            elif kind == BONE:
                bone = True
            else:
                counts[kind] += 1
                top = c
                if kind <= BLACK:
                    printed += deck.points[c]
                if kind == WHITE:
                    lowest = sorted(lowest + [deck.points[c]])[: data.NO_DOG_REMOVED]
                if deck.bone_symbol[c] and g.bone >= 0:
                    bone = True
        value = printed + data.SCORE_370[counts[K370] % 3] + data.SCORE_007_SET * (counts[K007] // 3)
        partial = counts[K007] % 3
        if partial and self.unseen_007 >= 3 - partial:
            value += 5.0 * partial * min(1.0, self.rounds_left / 3)
        if dogs == 1:
            value += data.ONE_DOG
        elif dogs == 0:
            chance = 0.5 if self.unseen_dogs and self.rounds_left >= 1 else 0.0
            value -= (1 - chance) * sum(lowest)
        if dogs and dogs >= self.most_other:
            value += data.MOST_DOGS
        if bone:
            value += data.BONE_PER_DOG * dogs
        return value + self.modifier_worth(top)

    def gain(self, extra: list[int]) -> float:
        return self.holding_value(extra) - self.base

    def best_take(self, cards: list[int], k: int) -> tuple[float, list[int]]:
        """Best value of taking ``min(k, len(cards))`` of ``cards`` (taking is compulsory) and the
        order to take them in (only the last sheep card matters: it becomes the top card)."""
        best, order = -1e9, []
        kind = self.deck.kind
        for subset in combinations(cards, min(k, len(cards))):
            sheep = [c for c in subset if kind[c] <= K007]
            others = [c for c in subset if kind[c] > K007]
            for i in range(max(1, len(sheep))):
                ordered = others + sheep[:i] + sheep[i + 1:] + sheep[i:i + 1]
                value = self.gain(ordered)
                if value > best:
                    best, order = value, ordered
        return best, order


def generic_value(deck: Any, card: int) -> float:
    """What a card is roughly worth to anybody (for guessing what earlier players take)."""
    kind = deck.kind[card]
    return {WHITE: deck.points[card], BLACK: deck.points[card], K370: 4.0, K007: 5.0, DOG: 4.0, BONE: 3.0}[kind]


# ---- the players ----------------------------------------------------------------------------------
class _VolleWolleAgent(Agent):
    def act(self, env: Any, agent: str) -> int:
        game = env.game
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        phase = game.phase
        if phase == BID:
            return self.bid(game, legal)
        if phase == ROLL:
            return self.roll(game, legal)
        if phase == BLACK_CHOICE:
            return self.black(game)
        return self.pick(game, legal)

    def display_cards(self, game: Any) -> list[int]:
        return [c for c in game.display if c >= 0]

    def black(self, game: Any) -> int:
        p = game.cur
        cost = data.BLACK_SHEEP_LIMIT - game.base - game.bonus
        blacks = [c for c in game.display if c >= 0 and game.deck.kind[c] == BLACK]
        loss = -Valuer(game, p).gain(blacks)
        return AVOID_BLACK if cost * WOOL_WORTH < loss else TAKE_BLACK

    def pick(self, game: Any, legal: list[int]) -> int:
        valuer = Valuer(game, game.cur)
        scored = [(valuer.gain([game.display[a - PICK_SLOT]]), a) for a in legal]
        top = max(v for v, _ in scored)
        return self.choose([a for v, a in scored if v >= top - 1e-9])


class GreedyVolleWolle(_VolleWolleAgent):
    """Probability-threshold bids, immediate claims, the best card each pick (see module doc)."""

    name = "greedy"

    def bid(self, game: Any, legal: list[int]) -> int:
        p = game.cur
        neg, bonus = game.modifiers(p)
        ok = [b for b in legal if b < data.BID_26_PLUS and sum(success_by_attempt(bid_target(b) - neg - bonus)) >= 0.6]
        return max(ok) if ok else legal[0]

    def roll(self, game: Any, legal: list[int]) -> int:
        if CLAIM in legal:
            return CLAIM
        keeps = [a for a in legal if KEEP <= a < KEEP + 3]
        if not keeps:
            return DECLINE
        # set aside the die that is best relative to its average
        score = {a: game.dice[a - KEEP] - (SIDES[a - KEEP] + 1) / 2 for a in keeps}
        top = max(score.values())
        return self.choose([a for a in keeps if score[a] >= top - 1e-9])


class StrongVolleWolle(_VolleWolleAgent):
    """Expected-value bids, exact roll decisions, planned picks (see the module doc)."""

    name = "strong"

    # -- bidding --
    @staticmethod
    def _greedy_bid(game: Any, q: int) -> int:
        neg, bonus = game.modifiers(q)
        ok = [b for b in range(data.BID_26_PLUS) if sum(success_by_attempt(bid_target(b) - neg - bonus)) >= 0.6]
        return max(ok) if ok else 0

    def bid_values(self, game: Any, legal: list[int]) -> list[tuple[float, int]]:
        """(expected value, bid) of every legal bid (see the module doc)."""
        p, n = game.cur, game.num_agents
        deck = game.deck
        valuer = Valuer(game, p)
        display = self.display_cards(game)
        by_generic = sorted(display, key=lambda c: -generic_value(deck, c))
        neg, bonus = game.modifiers(p)
        wool = game.wool[p]
        mine = game.sheep_number(p)
        # opponents' bids: uniform over their own 60%-bid ± 2
        models = []
        for q in range(n):
            if q == p:
                continue
            centre = self._greedy_bid(game, q)
            support = [b for b in range(centre - 2, centre + 3) if 0 <= b < NUM_BIDS]
            models.append((support, game.sheep_number(q) < mine))
        cache: dict[tuple, float] = {}

        def value_of_rest(cards: list[int], k: int) -> float:
            key = (tuple(cards), k)
            if key not in cache:
                cache[key] = valuer.best_take(cards, k)[0] if cards else 0.0
            return cache[key]

        scored = []
        for b in legal:
            ahead_probs = [sum(1 for s in support if s > b or (s == b and lower)) / len(support)
                           for support, lower in models]
            ahead = sum(ahead_probs)
            taken = min(len(display), int(round(ahead * 0.6 * 2)))
            rest = by_generic[taken:]
            x = bid_target(b) - neg - bonus - min(wool - (b == data.BID_26_PLUS), 1)
            chances = success_by_attempt(x)
            roll = sum(pk * value_of_rest(rest, 3 - i) for i, pk in enumerate(chances))
            roll += (1 - sum(chances)) * WOOL_WORTH
            value = roll
            if n > 2:
                last = float(np.prod(ahead_probs))
                leftovers = by_generic[min(len(display), int(round((n - 1) * 0.6 * 2))):]
                take_all = valuer.gain(leftovers) if leftovers else 0.0
                value = last * take_all + (1 - last) * roll
            if b == data.BID_26_PLUS:
                value -= WOOL_WORTH
            scored.append((value, b))
        return scored

    def bid(self, game: Any, legal: list[int]) -> int:
        best, best_value = [], -1e9
        for value, b in self.bid_values(game, legal):
            if value > best_value + 1e-9:
                best, best_value = [b], value
            elif value > best_value - 1e-9:
                best.append(b)
        return self.choose(best)

    # -- rolling --
    def roll_values(self, game: Any, legal: list[int]) -> list[tuple[float, int]]:
        """(expected value, action) of claiming, setting each free die aside, or failing, in the
        order :meth:`roll` breaks ties (the first best)."""
        p = game.cur
        valuer = Valuer(game, p)
        display = self.display_cards(game)
        win = {k: valuer.best_take(display, k)[0] for k in (1, 2, 3)}
        blacks = [c for c in display if game.deck.kind[c] == BLACK]
        black_loss = valuer.gain(blacks) if blacks else 0.0
        neg, bonus, wool, target = game.neg, game.bonus, game.wool[p], game.target

        def claim_value(base: int, attempt: int) -> float | None:
            need = target - base - bonus
            if base >= target:
                return win[4 - attempt]
            if need <= wool:
                return win[4 - attempt] - max(0, need) * WOOL_WORTH
            return None

        def fail_value(base: int) -> float:
            value = WOOL_WORTH
            if base < data.BLACK_SHEEP_LIMIT and blacks:
                cost = data.BLACK_SHEEP_LIMIT - base - bonus
                value += max(black_loss, -cost * WOOL_WORTH) if cost <= wool else black_loss
            return value

        # the expectations below depend only on these numbers: keep their memo across decisions
        # (a search asks the same roll questions many times; the answers are unchanged)
        memos = self.__dict__.setdefault("_roll_memos", {})
        if len(memos) > 512:
            memos.clear()
        memo: dict[tuple, tuple[float, int]] = memos.setdefault(
            (win[1], win[2], win[3], black_loss, bool(blacks), neg, bonus, wool, target), {})

        def after_roll(dice: list[int], kept: int, attempt: int) -> float:
            base = sum(dice) + neg
            if base >= target:
                return win[4 - attempt]
            key = (base, 3) if attempt == 3 else (tuple(dice), kept, attempt)
            if key not in memo:
                memo[key] = decide(dice, kept, attempt)
            return memo[key][0]

        def decide(dice: list[int], kept: int, attempt: int, every: bool = False) -> Any:
            base = sum(dice) + neg
            options = []
            c = claim_value(base, attempt)
            if c is not None:
                options.append((c, CLAIM))
            if attempt == 3:
                options.append((fail_value(base), DECLINE))
            else:
                for d in range(3):
                    if kept & (1 << d):
                        continue
                    options.append((continue_value(dice, kept | (1 << d), attempt + 1), KEEP + d))
            return options if every else max(options, key=lambda o: o[0])

        def continue_value(dice: list[int], kept: int, attempt: int) -> float:
            free = [d for d in range(3) if not kept & (1 << d)]
            total, count = 0.0, 0
            for outcome in np.ndindex(*[SIDES[d] for d in free]):
                rolled = list(dice)
                for d, v in zip(free, outcome):
                    rolled[d] = v + 1
                total += after_roll(rolled, kept, attempt)
                count += 1
            return total / count

        return decide(list(game.dice), game.kept, game.attempt, every=True)

    def roll(self, game: Any, legal: list[int]) -> int:
        value, action = max(self.roll_values(game, legal), key=lambda o: o[0])
        return action if action in legal else legal[0]

    # -- picking --
    def pick(self, game: Any, legal: list[int]) -> int:
        valuer = Valuer(game, game.cur)
        cards = [game.display[a - PICK_SLOT] for a in legal]
        _, order = valuer.best_take(cards, game.picks)
        first = order[0]
        return PICK_SLOT + game.display.index(first)


GREEDY, STRONG = GreedyVolleWolle, StrongVolleWolle


# ---- search guidance (declared in this game's plug-in, see meadowzoo.agents.guides) --------------
@lru_cache(maxsize=1)
def _guide() -> StrongVolleWolle:
    """The strong player the search guidance reads (one per process; never draws from its generator)."""
    return StrongVolleWolle(seed=0)


def strong_measure(game: Any) -> list[float]:
    """``leaf=strong``: the strong player's final-score estimate of each herd plus wool."""
    return [Valuer(game, p).holding_value([]) + game.wool[p] for p in range(game.num_agents)]


def strong_prior(game: Any, legal: list[int], rng: np.random.Generator) -> dict[int, float] | None:
    """``prior=strong``: expected values of bids and of claiming / setting dice aside; picks and
    the black-sheep choice have no prior (few options: all are searched)."""
    player = _guide()
    if game.phase == BID:
        return {a: v for v, a in player.bid_values(game, legal)}
    if game.phase == ROLL:
        return {a: v for v, a in player.roll_values(game, legal) if a in legal}
    return None
