"""Heuristic players of Hase und Igel: ``greedy`` (one-step hand score) and ``strong`` (turns-to-go
planning table plus one-turn lookahead on sampled hare decks).

Both read only public state (positions, carrots, lettuces, the known bottom of the hare deck); the
strong player looks ahead on clones whose unseen deck top is reshuffled (``resample_hidden``).

**greedy** scores every legal action by the position it leads to, with a cheap formula:
progress (squares) − the carrots missing for the rest of the track at a comfortable pace (~3 per
square) − a small price for carrots beyond that − a price per uneaten lettuce − surplus carrots
near the Goal (the finishing window of 10 × place, HUI-18). It knows the rulebook tips only in
their crudest form: alternate fast moves with carrot gains (a hedgehog back move or a stay on a
carrot square pays once carrots run short), never skip a chance to eat a lettuce (§8.4), finish
as soon as allowed.

**strong** replaces the formula with a planning table: ``T(square, carrots, lettuces)`` = the
fewest turns one runner needs to reach the Goal from there (dynamic programming over every move of
HUI-9..12: forward moves at n(n+1)/2, eating a lettuce costs a turn and pays 10 × a typical race
position, hedgehog back moves pay 10 per square, stays on carrot squares take or give 10, the Goal
only inside the finishing window). So it alternates hare and hedgehog pace exactly as far as it
pays off, lands on lettuce squares when eating fits the route, and sheds carrots into the
finishing window (10 × place) in time. On top of the table it looks one full turn ahead on clones
of the game: the lettuce and number/flag squares pay by the *actual* race position when the
runner's next turn starts (§8.4: "guess the number squares", "eat lettuces in a good — late/low —
position"), hare cards are averaged over a few resampled decks, the card choices of a hare card
(take/give 10, move again) are planned too, and opponents' turns-to-go enter with a small weight
(a move that blocks a hedgehog or spoils an opponent's payout is preferred among equals). With two
runners the player's carrots and lettuces are split between the runners in the best way
(the first runner home may finish with any carrots, HUI-30). As first mover it takes the first
lettuce square 7 when it is free (§8.4 statistics: a clear first-mover advantage).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from meadowzoo.agents.base import Agent
from meadowzoo.envs.hase_und_igel import data
from meadowzoo.envs.hase_und_igel.rules import (
    BACK_OFFSET,
    CARD_CARROTS,
    COST,
    EXTRA_MOVE,
    GIVE_OFFSET,
    IS_CARROT,
    IS_HARE,
    IS_HEDGEHOG,
    IS_LETTUCE,
    PAYS_AT,
    PREV_HEDGEHOG,
    SLOT_ACTIONS,
    TAKE_OFFSET,
)

GOAL = data.GOAL
CMAX = 300  # carrots above this count as this many in the planning table
NO_LIMIT = 10**6


# ---- what an action does to the mover's runner (without playing it) ------------------------------
def _target(game: Any, action: int) -> tuple[int, int, int]:
    """(runner, new square, carrot change) of a move action; (-1, -1, change) for card choices."""
    if action >= game.card_base:
        choice = action - game.card_base
        return -1, -1, (10, -10, 0)[choice]
    slot, offset = divmod(action, SLOT_ACTIONS)
    if action >= SLOT_ACTIONS * game.rpp:  # two runners: give up
        return game.cur * game.rpp + action - SLOT_ACTIONS * game.rpp, 0, 0
    runner = game.cur * game.rpp + slot
    pos = game.pos[runner]
    if offset == BACK_OFFSET:
        h = PREV_HEDGEHOG[pos]
        return runner, h, data.HEDGEHOG_GAIN * (pos - h)
    if offset in (TAKE_OFFSET, GIVE_OFFSET):
        return runner, pos, 10 if offset == TAKE_OFFSET else -10
    t = offset + 1
    return runner, t, -COST[t - pos]


def _race_position(game: Any, runner: int, square: int) -> int:
    """HUI-15 race position the runner would have on ``square`` with everybody else in place."""
    ahead = game.finished
    for other, p in enumerate(game.pos):
        if other != runner and p > square and not game.place[other] and p != data.START:
            ahead += 1
    return ahead + 1


# ---- greedy ----------------------------------------------------------------------------------------
def greedy_value(game: Any, player: int, pos: list[int], carrots: int, lettuces: int) -> float:
    """Hand score of a player's runners at squares ``pos`` with ``carrots`` and ``lettuces``."""
    runners = [r for r in range(player * game.rpp, (player + 1) * game.rpp)]
    home = [pos[i] == GOAL for i in range(len(runners))]
    if all(home):
        return 1e6
    left = sum(GOAL - p for p in pos)
    need = 3 * left + 10  # carrots for the rest at a comfortable pace of ~5 squares a move
    value = sum(pos) + 200 * sum(home) - 10 * lettuces
    value -= 0.15 * max(0, need - carrots) + 0.03 * max(0, carrots - need)
    if lettuces == 0 and left < 20:  # finishing window: surplus carrots must go (HUI-18)
        window = COST[min(left, GOAL)] + data.FINISH_LIMIT * (game.finished + 1)
        value -= 0.3 * max(0, carrots - window)
    return value


class GreedyHaseUndIgel(Agent):
    """One-step greedy: the action whose resulting holdings score best (see the module doc)."""

    name = "greedy"

    def act(self, env: Any, agent: str) -> int:
        game = env.game
        legal = game.legal_actions()
        me = game.cur
        first = me * game.rpp
        best, best_value = [], -math.inf
        for action in legal:
            runner, square, change = _target(game, action)
            pos = list(game.pos[first:first + game.rpp])
            carrots, lettuces = game.carrots[me] + change, game.lettuces[me]
            if runner >= 0:
                pos[runner - first] = square
                if 0 < square < GOAL and IS_LETTUCE[square] and square != game.pos[runner]:
                    lettuces -= 1
                    carrots += data.LETTUCE_GAIN * _race_position(game, runner, square)
            value = greedy_value(game, me, pos, carrots, lettuces)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif value > best_value - 1e-9:
                best.append(action)
        return self.choose(best)


# ---- the planning table -----------------------------------------------------------------------------
@lru_cache(maxsize=None)
def turns_table(limit: int, lettuce_gain: int, lettuces: int) -> np.ndarray:
    """``T[l, square, carrots]``: fewest turns for one runner from ``square`` (0..63) holding
    ``carrots`` (capped at CMAX) and ``l`` lettuces to reach the Goal, finishing with at most
    ``limit`` carrots. Eating counts a turn and pays ``lettuce_gain``; number squares, hare cards
    and other runners are ignored. Unreachable: 99."""
    inf = 99.0
    cs = np.arange(CMAX + 1)
    T = np.full((lettuces + 1, GOAL, CMAX + 1), inf)
    plain = [[t for t in range(p + 1, GOAL) if not IS_HEDGEHOG[t] and not IS_LETTUCE[t]] for p in range(GOAL)]
    salad = [[t for t in range(p + 1, GOAL) if IS_LETTUCE[t]] for p in range(GOAL)]
    gather = {}
    for p in range(GOAL):
        for kind, targets, gain in (("plain", plain[p], 0), ("salad", salad[p], lettuce_gain)):
            if targets:
                t = np.array(targets)
                idx = cs[None, :] - np.array([COST[x - p] for x in targets])[:, None]
                valid = idx >= 0
                gather[p, kind] = (t[:, None], np.clip(idx + gain, 0, CMAX), valid)
    goal_ok = [(cs - COST[GOAL - p] >= 0) & (cs - COST[GOAL - p] <= limit) for p in range(GOAL)]
    up = np.minimum(cs + 10, CMAX)
    down = np.maximum(cs - 10, 0)
    for _ in range(200):
        changed = False
        for p in range(GOAL - 1, -1, -1):
            h = PREV_HEDGEHOG[p]
            back = np.minimum(cs + data.HEDGEHOG_GAIN * (p - h), CMAX) if h > 0 else None
            for l in range(lettuces + 1):
                best = np.full(CMAX + 1, inf)
                if l == 0:
                    best[goal_ok[p]] = 0.0
                g = gather.get((p, "plain"))
                if g is not None:
                    vals = np.where(g[2], T[l][g[0], g[1]], inf)
                    np.minimum(best, vals.min(0), out=best)
                g = gather.get((p, "salad"))
                if g is not None and l > 0:
                    vals = np.where(g[2], T[l - 1][g[0], g[1]] + 1, inf)
                    np.minimum(best, vals.min(0), out=best)
                row = T[l, p]
                if back is not None:
                    np.minimum(best, T[l, h][back], out=best)
                if IS_CARROT[p]:
                    np.minimum(best, row[up], out=best)
                    stay_down = np.where(cs >= 10, row[down], inf)
                    np.minimum(best, stay_down, out=best)
                new = np.minimum(best + 1, inf)
                if not np.array_equal(new, row):
                    changed = True
                    T[l, p] = new
        if not changed:
            break
    T.setflags(write=False)
    return T


class StrongHaseUndIgel(Agent):
    """Turns-to-go table plus a one-turn lookahead on resampled clones (see the module doc)."""

    name = "strong"

    def __init__(self, seed: int | None = None, samples: int = 3, opponent_weight: float = 0.2) -> None:
        super().__init__(seed)
        self.samples = samples
        self.opponent_weight = opponent_weight

    # -- evaluation --
    def _tables(self, game: Any, limit: int) -> np.ndarray:
        gain = data.LETTUCE_GAIN * max(1, round((game.num_runners + 1) / 2))
        return turns_table(min(limit, NO_LIMIT), gain, game.start_lettuces)

    def turns_to_go(self, game: Any, player: int) -> float:
        """Estimated turns ``player`` still needs, pending eating/payouts/missed turns settled."""
        rpp = game.rpp
        carrots, lettuces, extra = game.carrots[player], game.lettuces[player], 0.0
        racing = []
        for runner in range(player * rpp, (player + 1) * rpp):
            if game.place[runner]:
                continue
            square = game.pos[runner]
            position = game.race_position(runner)
            if game.eat[runner]:
                extra += 1 if rpp == 1 else 0.5
                if lettuces > 0:
                    lettuces -= 1
                    carrots += data.LETTUCE_GAIN * position
            if game.payout[runner] and position in PAYS_AT[square]:
                carrots += data.PAYOUT_GAIN * position
            if game.miss[runner]:
                extra += 1 if rpp == 1 else 0.5
            racing.append(square)
        if not racing:
            return 0.0
        carrots = min(max(carrots, 0), CMAX)
        later = data.FINISH_LIMIT * (game.finished + 1)
        if len(racing) == 1:
            limit = later if (rpp == 1 or len(racing) < rpp) else NO_LIMIT
            return extra + float(self._tables(game, limit)[lettuces, racing[0], carrots])
        # two runners share carrots and lettuces: best split, either may finish first (no limit)
        first = self._tables(game, NO_LIMIT)
        second = self._tables(game, later + data.FINISH_LIMIT)
        best = 99.0 * 2
        a, b = racing
        for la in range(lettuces + 1):
            lb = lettuces - la
            for x, y in ((a, b), (b, a)):
                split = first[la, x, : carrots + 1] + second[lb, y, carrots::-1]
                best = min(best, float(split.min()))
        return extra + best

    def evaluate(self, game: Any, me: int) -> float:
        if game.over:
            places = game.places()
            return 1000.0 * (game.num_agents - 1 - places[me])
        mine = self.turns_to_go(game, me)
        others = [self.turns_to_go(game, p) for p in range(game.num_agents) if p != me and not self._home(game, p)]
        value = -mine
        if others:
            value += self.opponent_weight * min(others)
        return value

    @staticmethod
    def _home(game: Any, player: int) -> bool:
        return all(game.place[r] for r in range(player * game.rpp, (player + 1) * game.rpp))

    # -- search --
    def _value(self, game: Any, action: int, me: int, depth: int) -> float:
        runner, square, _ = _target(game, action)
        draws = runner >= 0 and 0 < square < GOAL and IS_HARE[square] and square != game.pos[runner]
        draws = draws or game.reshuffle_deck
        total = 0.0
        samples = self.samples if draws else 1
        for _ in range(samples):
            g = game.clone()
            if draws:
                g.resample_hidden(me, self.rng)
            g.apply(action)
            if not g.over and g.cur == me and g.phase in (CARD_CARROTS, EXTRA_MOVE) and depth < 2:
                total += max(self._value(g, a, me, depth + 1) for a in g.legal_actions())
            else:
                total += self.evaluate(g, me)
        return total / samples

    def act(self, env: Any, agent: str) -> int:
        game = env.game
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = game.cur
        # §8.4: the first mover takes the first lettuce square 7
        if game.rpp == 1 and game.pos[me] == data.START and game.turns == 1 and 6 in legal:
            return 6
        best, best_value = [], -math.inf
        for action in legal:
            value = self._value(game, action, me, 0)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif value > best_value - 1e-9:
                best.append(action)
        return self.choose(best)


GREEDY, STRONG = GreedyHaseUndIgel, StrongHaseUndIgel


# ---- search guidance (declared in this game's plug-in, see meadowzoo.agents.guides) --------------
def race_progress(game: Any) -> list[float]:
    """Race progress per player from public state (the ``leaf=public`` value): squares covered by
    its runners (a finished runner counts as the Goal plus a bonus for finishing early), minus a
    toll per uneaten lettuce (each costs a stop on a lettuce square before the Goal) and for
    carrots that must still be shed before finishing."""
    rpp = game.rpp
    progress = []
    for player in range(game.num_agents):
        covered = 0.0
        for runner in range(player * rpp, player * rpp + rpp):
            if game.place[runner]:
                covered += GOAL + 8 * (game.num_runners - game.place[runner])
            else:
                covered += game.pos[runner]
        surplus = max(0, game.carrots[player] - 10 * (1 + game.finished)) if covered > 40 * rpp else 0
        progress.append(covered - 6.0 * game.lettuces[player] - 0.15 * surplus)
    return progress


@lru_cache(maxsize=1)
def _guide() -> StrongHaseUndIgel:
    """The strong player the search guidance reads (one per process; its own generator is never
    drawn from for a value, the prior hands it the caller's)."""
    return StrongHaseUndIgel(seed=0)


def strong_measure(game: Any) -> list[float]:
    """``leaf=strong``: minus the turns each player still needs (the turns-to-go table)."""
    return [-_guide().turns_to_go(game, p) for p in range(game.num_agents)]


def strong_prior(game: Any, legal: list[int], rng: np.random.Generator) -> dict[int, float]:
    """``prior=strong``: the strong player's one-turn lookahead value of every legal action."""
    player = _guide()
    player.rng = rng  # the lookahead's deck resampling draws from the search's generator
    me = game.cur
    return {a: player._value(game, a, me, 0) for a in legal}
