"""Forward model of Hase und Igel (rules HUI-1 … HUI-30 of ``docs/rules/hase_und_igel.md``).

Pure Python on plain lists so that a step costs microseconds. No PettingZoo, no rendering.

Runners and players
    ``runners_per_player`` is 2 in the two-player two-runner variant (HUI-5/HUI-30), else 1.
    Runner ``r`` belongs to player ``r // runners_per_player``; carrots and lettuces belong to the
    player (shared by its runners).

Decisions (``pending``, named by :data:`DECISIONS`)
    ``MOVE``        the normal action of a turn: forward move, hedgehog back move, stay on a carrot
                    square taking or giving 10 (HUI-7c); with two runners, of either runner.
    ``CARD_CARROTS`` after "forward/back to carrot" (HUI-22) or "take or give 10" (HUI-25):
                    take 10, give 10 or pass.
    ``EXTRA_MOVE``  after "move again" (HUI-23): a forward or hedgehog move of that runner, or pass.
    ``STUCK``       two-runner variant only: neither runner can act; choose which one returns to
                    Start (DECISION two_runner_stuck).
Everything else (payouts, eating, missing a turn, stuck runners, the final-stretch exception,
card effects without a choice) happens automatically inside :meth:`HaseUndIgelGame.apply`.

Action indices (``num_actions`` = 67 × runner slots [+ 2 give-up actions with two runners] + 3)
    slot block ``k`` (runner slot k of the mover), base ``67·k``:
      ``base + t − 1`` for t = 1..64: forward move to square t (64 = Goal)
      ``base + 64``: hedgehog back move; ``base + 65``: stay, take 10; ``base + 66``: stay, give 10
    two runners only: ``134 + k``: runner k gives up (returns to Start / final-stretch move back)
    last three: card: take 10 · card: give 10 · card: pass
"""

from __future__ import annotations

from typing import Any

import numpy as np

from meadowzoo.envs.core.game import Game, IllegalActionError
from meadowzoo.envs.core.options import check_bool, check_choice, check_int
from meadowzoo.envs.core.snapshot import (
    require,
    require_bool_list,
    require_int,
    require_choice,
    require_int_list,
    rename_fields,
    rng_from_dict,
    rng_to_dict,
)
from meadowzoo.envs.hase_und_igel import data

MOVE, CARD_CARROTS, EXTRA_MOVE, STUCK, OVER = 0, 1, 2, 3, 4
#: names of the ``pending`` decision kinds (``OVER``: the game has ended)
DECISIONS = ("move", "card_carrots", "extra_move", "stuck", "over")

SLOT_ACTIONS = 67
BACK_OFFSET, TAKE_OFFSET, GIVE_OFFSET = 64, 65, 66
RUNNER_NAMES = "AB"

# ---- static tables built once ---------------------------------------------------------------------
_KIND = data.SQUARES
IS_HEDGEHOG = tuple(k == data.HEDGEHOG for k in _KIND)
IS_LETTUCE = tuple(k == data.LETTUCE for k in _KIND)
IS_CARROT = tuple(k == data.CARROT for k in _KIND)
IS_HARE = tuple(k == data.HARE for k in _KIND)
PAYS_AT = tuple(data.PAYOUT_POSITIONS.get(k, ()) for k in _KIND)
HEDGEHOGS = data.squares_of(data.HEDGEHOG)
CARROTS = data.squares_of(data.CARROT)


def _nearest(squares: tuple[int, ...], pos: int, step: int) -> int:
    """Nearest square of ``squares`` strictly behind (step −1) or ahead (step +1); −1 if none."""
    p = pos + step
    while 0 < p < data.GOAL:
        if p in squares:
            return p
        p += step
    return -1


PREV_HEDGEHOG = tuple(_nearest(HEDGEHOGS, p, -1) for p in range(data.NUM_POSITIONS))
PREV_CARROT = tuple(_nearest(CARROTS, p, -1) for p in range(data.NUM_POSITIONS))
NEXT_CARROT = tuple(_nearest(CARROTS, p, +1) for p in range(data.NUM_POSITIONS))
COST = tuple(data.move_cost(d) for d in range(data.NUM_POSITIONS))
#: farthest affordable distance for a given number of carrots (carrots < COST[64] + 1)
MAX_DISTANCE = tuple(max(d for d in range(data.NUM_POSITIONS) if COST[d] <= c) for c in range(COST[data.GOAL] + 1))
#: [has_lettuce][pos]: squares 1..63 ahead that a forward move may target if free
FORWARD_TARGETS = tuple(
    tuple(
        tuple(t for t in range(pos + 1, data.GOAL) if not IS_HEDGEHOG[t] and (lettuce or not IS_LETTUCE[t]))
        for pos in range(data.NUM_POSITIONS)
    )
    for lettuce in (False, True)
)


def _forward_within(slot: int, targets: tuple[int, ...], pos: int) -> tuple[tuple[int, ...], ...]:
    """By distance d = 0…64: the action indices (runner slot ``slot``) of ``targets`` at most d
    ahead of ``pos``; equal entries share one tuple (a few thousand tuples in all)."""
    within, last = [], None
    for d in range(data.NUM_POSITIONS):
        actions = tuple(slot * SLOT_ACTIONS + t - 1 for t in targets if t - pos <= d)
        last = actions if actions != last else last
        within.append(last)
    return tuple(within)


#: [slot][has_lettuce][pos][reach]: the FORWARD_TARGETS[has_lettuce][pos] within distance
#: ``reach`` as action indices of runner slot ``slot`` (one lookup, no slice, per legal move list)
FORWARD_WITHIN = tuple(
    tuple(tuple(_forward_within(slot, targets, pos) for pos, targets in enumerate(per_pos)) for per_pos in FORWARD_TARGETS)
    for slot in (0, 1)
)
#: [has_lettuce][square]: a forward move may target the square if free (the static test of
#: FORWARD_TARGETS; False for Start and the Goal)
TARGETABLE = tuple(
    tuple(0 < t < data.GOAL and not IS_HEDGEHOG[t] and (lettuce or not IS_LETTUCE[t]) for t in range(data.NUM_POSITIONS))
    for lettuce in (False, True)
)
SLOT_OFFSET = tuple(divmod(action, SLOT_ACTIONS) for action in range(2 * SLOT_ACTIONS))
GOAL, FINISH_LIMIT = data.GOAL, data.FINISH_LIMIT  # module constants: a lookup fewer on hot paths
CARD = {kind: i for i, kind in enumerate(data.CARD_KINDS)}
DECK_SIZE = len(data.DECK)
NOBODY: frozenset[int] = frozenset()


class HaseUndIgelGame(Game):
    """A game of Hase und Igel in progress."""

    name = "hase_und_igel"
    DECISIONS = DECISIONS
    # The state lives in slots, not in an instance dict: CPython 3.11 keeps at most 30 attributes
    # in an object's compact layout and turns a bigger one into a plain dict, on which every
    # ``self.method()`` call misses the interpreter's specialisation and attribute reads and writes
    # cost more; a game has 40 attributes and a step uses a hundred of them.
    __slots__ = _SLOTS = (
        "num_agents", "rpp", "team_layout", "team_of", "chain_hare_cards", "reshuffle_deck", "num_runners",
        "num_actions", "card_base", "give_up_base", "start_carrots", "start_lettuces", "rng",
        "pos", "place", "eat", "miss", "payout", "last_cost", "carrots", "lettuces", "occupant",
        "deck", "discard", "known_from", "unresolved", "last_card", "finished", "turns", "over",
        "final_places", "pending", "card_runner", "log", "cur", "_legal", "_busy",
        "current_agent", "is_over", "turn",
    )

    def __init__(
        self,
        num_players: int = 4,
        *,
        two_runners: bool = True,
        teams: str | None = None,
        chain_hare_cards: bool = False,
        reshuffle_deck: bool = False,
        start_player: int | None = None,
        rng: np.random.Generator | None = None,
    ) -> None:
        check_config(num_players, two_runners, teams, start_player)
        self.num_agents = num_players
        self.rpp = 2 if (num_players == 2 and two_runners) else 1
        self.team_layout = teams
        self.team_of = list(data.TEAM_LAYOUTS[teams]) if teams else list(range(num_players))
        self.chain_hare_cards = chain_hare_cards
        self.reshuffle_deck = reshuffle_deck
        self.num_runners = num_players * self.rpp
        self.num_actions = SLOT_ACTIONS * self.rpp + (2 if self.rpp == 2 else 0) + 3
        self.card_base = self.num_actions - 3
        self.give_up_base = SLOT_ACTIONS * self.rpp  # the two give-up actions (two runners), else card_base
        self.start_carrots, self.start_lettuces = start_holdings(num_players, self.rpp)
        self.rng = rng if rng is not None else np.random.default_rng()

        n, r = num_players, self.num_runners
        self.pos = [data.START] * r
        self.place = [0] * r  # finishing order 1.., 0 = still racing
        self.eat = [False] * r  # HUI-12/26: eats (and does not move) at its next turn
        self.miss = [False] * r  # HUI-21: misses its next turn
        self.payout = [False] * r  # HUI-14: check number/flag square at its next turn
        self.last_cost = [0] * r  # HUI-24: carrots paid for its last move
        self.carrots = [self.start_carrots] * n
        self.lettuces = [self.start_lettuces] * n
        self.occupant = [-1] * data.NUM_POSITIONS  # runner on squares 1..63
        deck = list(data.DECK)
        self.rng.shuffle(deck)
        # top = index 0. The deck list is replaced, never changed in place, when a card is drawn or
        # the unseen part reshuffled: an observer may memoise what it built from it by identity
        self.deck = deck
        self.discard: list[int] = []  # reshuffle variant only
        self.known_from = DECK_SIZE  # deck[known_from:] is known to everybody (seen before)
        # HUI-13: cards drawn this turn whose resolution has not ended (0 once the turn ends). They
        # lie already at the bottom of the deck (the end of the discard pile), where they will go,
        # and a card drawn during their resolution goes above them: under them once resolved
        self.unresolved = 0
        self.last_card = -1
        self.finished = 0
        self.turns = 0
        self.over = False
        self.final_places: list[int] = []
        self.pending = MOVE
        self.card_runner = -1  # runner a CARD_CARROTS / EXTRA_MOVE decision is about
        self.log: list[tuple] = []  # events since the last decision, as (kind, runner, ...) tuples
        first = int(self.rng.integers(n)) if start_player is None else start_player
        self.cur = first
        self._legal: list[int] | None = None
        self._busy = NOBODY
        self.current_agent, self.is_over, self.turn = -1, False, 0  # published by the first turn
        self._begin_turn()

    # ---- Game interface ---------------------------------------------------------------------------
    # ``current_agent``, ``is_over`` and ``turn`` are plain attributes (slots), not properties: the
    # AEC adapter and the observation read them several times per step. :meth:`_publish` derives
    # them from ``cur``, ``over`` and ``turns``, which change only in ``_begin_turn`` (the turn
    # loops), ``_game_over`` and ``from_dict``; each of them publishes.

    def _publish(self) -> None:
        over = self.over
        self.is_over = over
        self.current_agent = -1 if over else self.cur
        self.turn = self.turns

    def places(self) -> list[int]:
        if not self.over:
            raise RuntimeError("the game is not over")
        return list(self.final_places)

    def teams(self) -> list[int]:
        return list(self.team_of)

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = [] if self.over else self._compute_legal()
        return list(self._legal)  # a copy: ``_legal`` is the game's own

    def apply(self, action: int) -> None:
        if self._legal is None:
            self._legal = [] if self.over else self._compute_legal()
        if action not in self._legal:
            raise IllegalActionError(f"illegal action {action} ({self.action_to_string(action)})")
        self.apply_legal(action)

    def apply_legal(self, action: int) -> None:
        """:meth:`apply` without the legality check, for an action known to be legal (the AEC
        adapter has checked it against its mask already; a second check is a list scan)."""
        self._legal = None
        if self.log:
            self.log = []
        if action < self.give_up_base:  # a runner's move or stay, the common case tested first
            slot, offset = SLOT_OFFSET[action]  # divmod(action, SLOT_ACTIONS), without the call
            runner = self.cur * self.rpp + slot
            if offset < TAKE_OFFSET:
                self._move_action(runner, offset)
            else:
                self._change_carrots(self.cur, +1 if offset == TAKE_OFFSET else -1)
                self.log.append(("stay", runner, self.pos[runner]))
                self._end_turn()
        elif action >= self.card_base:
            self._apply_card_choice(action - self.card_base)
        else:  # two runners: give up
            self._fallback(self.cur * self.rpp + action - self.give_up_base)
            self._end_turn()

    # ---- race position (HUI-15) -----------------------------------------------------------------
    def race_position(self, runner: int) -> int:
        if self.place[runner]:
            return self.place[runner]
        square = self.pos[runner]
        ahead = self.finished
        for other, p in enumerate(self.pos):
            if p > square and not self.place[other] and p != data.START:
                ahead += 1
        return ahead + 1

    def finish_limit(self, player: int) -> int | None:
        """HUI-18: carrots allowed after paying the move onto the Goal (None = any)."""
        if self.rpp == 2 and not any(self.place[player * 2 + k] for k in range(2)):
            return None  # the first runner of a player only needs all lettuces eaten
        return data.FINISH_LIMIT * (self.finished + 1)

    def can_finish(self, player: int, carrots_after: int) -> bool:
        if self.lettuces[player] > 0 or carrots_after < 0:
            return False
        limit = self.finish_limit(player)
        return limit is None or carrots_after <= limit

    # ---- legal actions ----------------------------------------------------------------------------
    def _compute_legal(self) -> list[int]:
        p = self.cur
        if self.pending == MOVE and self.rpp == 1:
            return self._runner_moves(p, 0, True)
        if self.pending == MOVE:
            legal: list[int] = []
            for slot in range(self.rpp):
                runner = p * self.rpp + slot
                if self._available(runner):
                    legal += self._runner_moves(runner, slot, allow_stay=True)
            return legal
        if self.pending == EXTRA_MOVE:
            runner = self.card_runner
            return self._runner_moves(runner, runner % self.rpp, allow_stay=False) + [self.card_base + 2]
        if self.pending == CARD_CARROTS:
            take, give, pas = self.card_base, self.card_base + 1, self.card_base + 2
            return [take, give, pas] if self.carrots[p] >= data.CARROT_CHANGE else [take, pas]
        # STUCK
        base = SLOT_ACTIONS * self.rpp
        return [base + k for k in range(self.rpp) if self._available(p * self.rpp + k)]

    def _available(self, runner: int) -> bool:
        """Runner may be moved this turn (not home, not eating or missing this turn)."""
        return not self.place[runner] and runner not in self._busy

    def _runner_moves(self, runner: int, slot: int, allow_stay: bool) -> list[int]:
        rpp = self.rpp
        player = runner // rpp
        pos = self.pos[runner]
        carrots = self.carrots[player]
        has_lettuce = self.lettuces[player] > 0
        base = slot * SLOT_ACTIONS
        # HUI-9: forward moves, paid before moving, to free squares that are neither hedgehogs nor
        # (without a lettuce) lettuce squares; the static part of that test is precomputed
        try:  # a try costs nothing until it catches
            reach = MAX_DISTANCE[carrots]
        except IndexError:  # carrots for any distance
            reach = GOAL
        moves = list(FORWARD_WITHIN[slot][has_lettuce][pos][reach])
        # drop occupied targets (at most five other runners): a square in reach that passes the
        # static test is in ``moves`` (tested here on the table, not by a scan of the list)
        targetable = TARGETABLE[has_lettuce]
        top = pos + reach
        for other in self.pos:
            if pos < other and other <= top and targetable[other]:
                moves.remove(base + other - 1)
        if top >= GOAL and not has_lettuce:  # the Goal (HUI-18: no lettuce left, …)
            after = carrots - COST[GOAL - pos]  # not negative: the Goal is in reach
            # can_finish, inlined: the first runner home of a two-runner player may keep any carrots
            if (rpp == 2 and not (self.place[2 * player] or self.place[2 * player + 1])) or (
                after <= FINISH_LIMIT * (self.finished + 1)
            ):
                moves.append(base + GOAL - 1)
        # HUI-10: back to the nearest hedgehog, if free
        back = PREV_HEDGEHOG[pos]
        if back > 0 and self.occupant[back] < 0:
            moves.append(base + BACK_OFFSET)
        # HUI-11: stay on a carrot square
        if allow_stay and IS_CARROT[pos]:
            moves.append(base + TAKE_OFFSET)
            if carrots >= data.CARROT_CHANGE:
                moves.append(base + GIVE_OFFSET)
        return moves

    # ---- turns ------------------------------------------------------------------------------------
    def _begin_turn(self) -> None:
        """Run automatic turn parts until a decision is pending or the game ends."""
        if self.rpp == 2:
            self._begin_two_runner_turn()
            return
        place, payout, eat, miss = self.place, self.payout, self.eat, self.miss
        while not self.over:
            p = self.cur  # player p has runner p
            if place[p]:  # home: skip
                self.cur = (p + 1) % self.num_agents
                continue
            self.turns += 1
            if payout[p]:
                self._check_payout(p)  # HUI-7a / HUI-14
            if eat[p]:  # HUI-12 / HUI-26
                eat[p] = False
                self._eat_lettuce(p)
            elif miss[p]:  # HUI-21
                miss[p] = False
                self.log.append(("miss", p))
            else:
                self.pending = MOVE
                self._busy = NOBODY
                # positional arguments: a keyword costs the call more
                legal = self._legal = self._runner_moves(p, 0, True)
                if legal:  # a decision: _publish, inlined (the game is not over)
                    self.is_over = False
                    self.current_agent = p
                    self.turn = self.turns
                    return
                self._fallback(p)  # HUI-16 / HUI-17: no legal action
            self.cur = (p + 1) % self.num_agents
        self._publish()

    def _begin_two_runner_turn(self) -> None:
        """HUI-30: both runners' automatic parts, then a move of a runner that is free."""
        place, payout, eat, miss = self.place, self.payout, self.eat, self.miss
        while not self.over:
            p = self.cur
            a, b = 2 * p, 2 * p + 1
            if place[a] and place[b]:  # both home: skip
                self.cur = (p + 1) % self.num_agents
                continue
            self.turns += 1
            # most turns have no automatic part (finished runners' flags are all False)
            if payout[a] or eat[a] or miss[a] or payout[b] or eat[b] or miss[b]:
                busy = self._automatic_parts(p)
            else:
                busy = NOBODY
            self._busy = busy
            self.pending = MOVE
            # _compute_legal for the MOVE phase, inlined
            free_a = not place[a] and a not in busy
            free_b = not place[b] and b not in busy
            legal = self._runner_moves(a, 0, True) if free_a else []
            if free_b:
                legal += self._runner_moves(b, 1, True)
            if legal:
                self._legal = legal
                self._publish()
                return
            self._legal = None
            if free_a != free_b:  # HUI-16 / HUI-17: the only free runner has no legal action
                self._fallback(a if free_a else b)
            elif free_a:  # neither runner can act: the player chooses
                self.pending = STUCK
                self._publish()
                return
            self.cur = (p + 1) % self.num_agents
        self._publish()

    def _automatic_parts(self, player: int) -> frozenset[int]:
        """The racing runners' payout checks (HUI-14), eating (HUI-12/26) and missing a turn
        (HUI-21), runner A first; returns the runners this used the turn of."""
        busy = NOBODY
        for runner in (2 * player, 2 * player + 1):
            if self.place[runner]:
                continue
            if self.payout[runner]:
                self._check_payout(runner)
            if self.eat[runner]:
                self.eat[runner] = False
                busy = busy | {runner}
                self._eat_lettuce(runner)
            elif self.miss[runner]:
                self.miss[runner] = False
                busy = busy | {runner}
                self.log.append(("miss", runner))
        return busy

    def _end_turn(self) -> None:
        # the next turn's start sets ``pending`` (a game that has ended stays OVER)
        self.card_runner = -1
        self.unresolved = 0  # every card drawn this turn is resolved (HUI-13)
        self._legal = None
        if not self.over:
            self.cur = (self.cur + 1) % self.num_agents
            self._begin_turn()

    def _check_payout(self, runner: int) -> None:
        self.payout[runner] = False
        position = self.race_position(runner)
        if position in PAYS_AT[self.pos[runner]]:
            gain = data.PAYOUT_GAIN * position
            self.carrots[runner // self.rpp] += gain
            self.log.append(("payout", runner, position, gain))

    def _eat_lettuce(self, runner: int) -> None:
        player = runner // self.rpp
        if self.lettuces[player] > 0:
            position = self.race_position(runner)
            self.lettuces[player] -= 1
            self.carrots[player] += data.LETTUCE_GAIN * position
            self.log.append(("eat", runner, data.LETTUCE_GAIN * position))
        else:
            self.log.append(("no_lettuce", runner))

    def _fallback(self, runner: int) -> None:
        """A runner without legal action: final-stretch move back (HUI-17) or back to Start (HUI-16)."""
        player = runner // self.rpp
        pos = self.pos[runner]
        if pos in data.FINAL_STRETCH:
            cost = COST[data.GOAL - pos]
            blocked = self.lettuces[player] > 0 or (
                cost <= self.carrots[player] and not self.can_finish(player, self.carrots[player] - cost)
            )
            if blocked:
                for hedgehog in reversed(HEDGEHOGS):
                    if hedgehog < pos and self.occupant[hedgehog] < 0:
                        self.carrots[player] += data.HEDGEHOG_GAIN * (pos - hedgehog)
                        self._place(runner, hedgehog)
                        self.log.append(("final_stretch", runner, hedgehog))
                        return
        self._place(runner, data.START)
        self.carrots[player] = self.start_carrots
        self.eat[runner] = self.miss[runner] = self.payout[runner] = False
        self.log.append(("stuck", runner, self.start_carrots))

    # ---- moves ------------------------------------------------------------------------------------
    def _move_action(self, runner: int, offset: int) -> None:
        player = runner // self.rpp
        pos = self.pos[runner]
        if offset == BACK_OFFSET:  # HUI-10
            target = PREV_HEDGEHOG[pos]
            self.carrots[player] += data.HEDGEHOG_GAIN * (pos - target)
            self.last_cost[runner] = 0
            self._place(runner, target)
            self._end_turn()
            return
        target = offset + 1
        cost = COST[target - pos]
        self.carrots[player] -= cost  # HUI-9: paid before moving
        self.last_cost[runner] = cost
        if target == data.GOAL:
            self._place(runner, target)
            if self.over:
                return
        else:  # the hot path of every game: _place and _arrive inlined
            occupant = self.occupant
            if pos:
                occupant[pos] = -1
            occupant[target] = runner
            self.pos[runner] = target
            if IS_LETTUCE[target]:
                self.eat[runner] = True  # HUI-12
            elif PAYS_AT[target]:
                self.payout[runner] = True  # HUI-14
            elif IS_HARE[target] and self._draw_card(runner):  # HUI-13
                return  # a card decision is pending
            # _end_turn, inlined on the hot path (apply_legal has cleared _legal already; a card
            # moving the runner up may have ended the game)
            self.card_runner = -1
            self.unresolved = 0
            if not self.over:
                self.cur = (self.cur + 1) % self.num_agents
                self._begin_turn()
            return
        self._end_turn()

    def _place(self, runner: int, target: int) -> None:
        old = self.pos[runner]
        if 0 < old < data.GOAL:
            self.occupant[old] = -1
        self.pos[runner] = target
        if 0 < target < data.GOAL:
            self.occupant[target] = runner
        if target == data.GOAL:
            self._finish(runner)

    def _arrive(self, runner: int, by_card: bool) -> bool:
        """Square effects on arrival; True if a decision is now pending."""
        square = self.pos[runner]
        if IS_LETTUCE[square]:
            self.eat[runner] = True  # HUI-12
        elif PAYS_AT[square]:
            self.payout[runner] = True  # HUI-14
        elif IS_HARE[square] and (not by_card or self.chain_hare_cards):
            if by_card:
                self.last_cost[runner] = 0  # HUI-24: nothing was paid for this arrival
            return self._draw_card(runner)  # HUI-13
        return False

    def _finish(self, runner: int) -> None:
        """HUI-18 / HUI-19: a runner reaches the Goal; decide whether the game is over."""
        self.finished += 1
        self.place[runner] = self.finished
        self.eat[runner] = self.miss[runner] = self.payout[runner] = False
        self.log.append(("finish", runner, self.finished))
        player = runner // self.rpp
        if self.rpp == 2:
            if all(self.place[player * 2 + k] for k in range(2)):
                self._game_over(winners={self.team_of[player]})
        elif self.team_layout:
            team = self.team_of[player]
            if all(self.place[q] for q in range(self.num_agents) if self.team_of[q] == team):
                self._game_over(winners={team})
        elif self.num_runners - self.finished <= 1:
            self._game_over(winners=None)

    def _game_over(self, winners: set[int] | None) -> None:
        self.over = True
        self.unresolved = 0
        self._publish()
        self.pending = OVER
        self._legal = None
        if winners is None:  # ranking = finishing order, the remaining runner last
            last = self.num_runners - 1
            self.final_places = [self.place[r] - 1 if self.place[r] else last for r in range(self.num_runners)]
        else:  # the winning side first, everybody else shares second place
            self.final_places = [0 if self.team_of[p] in winners else 1 for p in range(self.num_agents)]

    def _change_carrots(self, player: int, sign: int) -> None:
        self.carrots[player] += sign * data.CARROT_CHANGE

    # ---- hare cards (HUI-21 … HUI-28) -----------------------------------------------------------
    def _draw_card(self, runner: int) -> bool:
        deck = self.deck
        held = self.unresolved
        if not deck:  # reshuffle variant: the discard pile becomes the new deck
            # (without the cards still being resolved: they are not on the pile yet, HUI-13)
            pile = self.discard
            cut = len(pile) - held
            deck = pile[:cut]
            self.discard = pile[cut:]
            self.rng.shuffle(deck)
            self.known_from = len(deck)
        card = deck[0]
        # HUI-2: resolved cards go to the bottom (the cycle becomes known) or onto the discard pile.
        # HUI-13: this card goes there once resolved, before the ``held`` cards drawn earlier this
        # turn whose resolution drew it, so it is put above them now. New lists, not
        # pop/insert in place (see __init__: observers memoise the deck by identity)
        if self.reshuffle_deck:
            self.deck = deck[1:]
            pile = self.discard
            cut = len(pile) - held
            self.discard = pile[:cut] + [card] + pile[cut:] if held else pile + [card]
        elif held:
            cut = DECK_SIZE - 1 - held
            self.deck = deck[1:cut + 1] + [card] + deck[cut + 1:]
        else:
            self.deck = deck[1:] + [card]
        self.unresolved = held + 1
        if self.known_from:  # max(0, known_from - 1) without the call
            self.known_from -= 1
        self.last_card = card
        kind = data.CARD_KINDS[card]
        self.log.append(("draw", runner, card))
        player = runner // self.rpp
        if kind == data.MISS_TURN:
            self.miss[runner] = True
        elif kind in (data.FORWARD_TO_CARROT, data.BACK_TO_CARROT):
            table = NEXT_CARROT if kind == data.FORWARD_TO_CARROT else PREV_CARROT
            target = table[self.pos[runner]]
            if target > 0 and self.occupant[target] < 0:
                self._place(runner, target)
                return self._ask(CARD_CARROTS, runner)
        elif kind == data.MOVE_AGAIN:
            return self._ask(EXTRA_MOVE, runner)
        elif kind == data.LAST_MOVE_FREE:
            self.carrots[player] += self.last_cost[runner]
            self.last_cost[runner] = 0
        elif kind == data.TAKE_OR_GIVE_10:
            return self._ask(CARD_CARROTS, runner)
        elif kind == data.EAT_LETTUCE:
            self.eat[runner] = True
        elif kind == data.FALL_BACK:
            target = self._fall_back_target(runner)
            if target >= 0:
                self._place(runner, target)
                return self._arrive(runner, by_card=True)
        elif kind == data.MOVE_UP:
            target = self._move_up_target(runner)
            if target >= 0:
                self._place(runner, target)
                if target != data.GOAL:
                    return self._arrive(runner, by_card=True)
        return False

    def _ask(self, phase: int, runner: int) -> bool:
        self.pending = phase
        self.card_runner = runner
        self._legal = None
        return True

    def _fall_back_target(self, runner: int) -> int:
        """HUI-27: first free square behind the track runner directly behind; −1 = no effect."""
        pos = self.pos[runner]
        behind = max((p for r, p in enumerate(self.pos) if 0 < p < pos and not self.place[r]), default=-1)
        if behind < 0:
            return -1
        has_lettuce = self.lettuces[runner // self.rpp] > 0
        for square in range(behind - 1, 0, -1):
            if self.occupant[square] < 0 and (has_lettuce or not IS_LETTUCE[square]):
                return square
        return data.START

    def _move_up_target(self, runner: int) -> int:
        """HUI-28: first free square ahead of the track runner directly ahead; −1 = no effect."""
        pos = self.pos[runner]
        ahead = min((p for r, p in enumerate(self.pos) if pos < p < data.GOAL and not self.place[r]), default=-1)
        if ahead < 0:
            return -1
        player = runner // self.rpp
        has_lettuce = self.lettuces[player] > 0
        for square in range(ahead + 1, data.GOAL):
            if self.occupant[square] < 0 and not IS_HEDGEHOG[square] and (has_lettuce or not IS_LETTUCE[square]):
                return square
        return data.GOAL if self.can_finish(player, self.carrots[player]) else -1

    def _apply_card_choice(self, choice: int) -> None:
        runner = self.card_runner
        if self.pending == EXTRA_MOVE:
            self.log.append(("decline", runner))
            self._end_turn()
            return
        if choice < 2:
            self._change_carrots(runner // self.rpp, +1 if choice == 0 else -1)
        self._end_turn()

    # ---- names ------------------------------------------------------------------------------------
    def runner_name(self, runner: int) -> str:
        player = runner // self.rpp
        if self.rpp == 2:
            return f"player_{player}{RUNNER_NAMES[runner % 2]}"
        return f"player_{player}"

    def action_to_string(self, action: int) -> str:
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action {action} out of range 0..{self.num_actions - 1}")
        if action >= self.card_base:
            return ("card: take 10", "card: give 10", "card: pass")[action - self.card_base]
        prefix = ""
        if action >= SLOT_ACTIONS * self.rpp:
            return f"{RUNNER_NAMES[action - SLOT_ACTIONS * self.rpp]}: give up"
        slot, offset = divmod(action, SLOT_ACTIONS)
        if self.rpp == 2:
            prefix = f"{RUNNER_NAMES[slot]}: "
        if offset == BACK_OFFSET:
            return prefix + "hedgehog back"
        if offset == TAKE_OFFSET:
            return prefix + "stay, take 10"
        if offset == GIVE_OFFSET:
            return prefix + "stay, give 10"
        return prefix + ("move to goal" if offset + 1 == data.GOAL else f"move to {offset + 1}")

    def _string_table_key(self) -> Any:
        return self.rpp

    # ---- hidden information ---------------------------------------------------------------------
    def unseen_cards(self) -> list[int]:
        """Cards whose place in the deck nobody has seen (the top ``known_from`` cards)."""
        return list(self.deck[: self.known_from])

    def resample_hidden(self, observer: int, rng: np.random.Generator) -> None:
        """Reshuffle the unseen top of the hare deck; reseed future reshuffles.

        The unseen cards are sorted before the shuffle, so the result depends only on what the
        observer knows and on ``rng`` (never on the true hidden order)."""
        unseen = sorted(self.deck[: self.known_from])
        rng.shuffle(unseen)
        self.deck = unseen + self.deck[self.known_from:]  # a new list (see __init__)
        self.rng = np.random.default_rng(rng.integers(2**63))

    # ---- copies and snapshots ---------------------------------------------------------------------
    def clone(self) -> "HaseUndIgelGame":
        twin = self._shallow_copy()
        for name in _LIST_FIELDS:
            setattr(twin, name, list(getattr(self, name)))
        twin.log = list(self.log)
        twin.rng = np.random.Generator(np.random.PCG64())
        twin.rng.bit_generator.state = self.rng.bit_generator.state
        twin._legal = None
        return twin

    def to_dict(self) -> dict:
        return {
            "num_players": self.num_agents,
            "two_runners": self.rpp == 2,
            "teams": self.team_layout,
            "chain_hare_cards": self.chain_hare_cards,
            "reshuffle_deck": self.reshuffle_deck,
            "pos": list(self.pos),
            "place": list(self.place),
            "eat": list(self.eat),
            "miss": list(self.miss),
            "payout": list(self.payout),
            "last_cost": list(self.last_cost),
            "carrots": list(self.carrots),
            "lettuces": list(self.lettuces),
            "deck": list(self.deck),
            "discard": list(self.discard),
            "known_from": self.known_from,
            "unresolved": self.unresolved,
            "last_card": self.last_card,
            "turn": self.turns,
            "current": self.cur,
            "pending": DECISIONS[self.pending],
            "card_runner": self.card_runner,
            "busy": sorted(self._busy),
            "over": self.over,
            "final_places": list(self.final_places),
            "rng": rng_to_dict(self.rng),
        }

    @classmethod
    def upgrade(cls, d: Any, version: int) -> Any:
        """Version 1 named the pending decision ``phase`` (``"move"`` once over) and the turn
        count ``turns``."""
        if version == 1 and isinstance(d, dict):
            d = rename_fields(d, {"phase": "pending", "turns": "turn"})
            if d.get("over") is True:
                d["pending"] = "over"
            # HUI-13: version 1 had no field 'unresolved'; without chain_hare_cards exactly the
            # card of a pending card decision is being resolved
            if "unresolved" not in d:
                d["unresolved"] = int(d.get("pending") in (cls.DECISIONS[CARD_CARROTS], cls.DECISIONS[EXTRA_MOVE]))
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "HaseUndIgelGame":
        where = "hase_und_igel snapshot"
        if not isinstance(d, dict):
            raise ValueError(f"{where}: field 'game' must be an object")
        n = require_int(d, "num_players", 2, 6, where)
        two = require(d, "two_runners", bool, where)
        if "teams" not in d:  # None is a value (no teams): the field itself must be there
            raise ValueError(f"{where}: missing field 'teams'")
        teams = d["teams"]
        check_config(n, two, teams, None, where)
        game = cls(n, two_runners=two, teams=teams,
                   chain_hare_cards=require(d, "chain_hare_cards", bool, where),
                   reshuffle_deck=require(d, "reshuffle_deck", bool, where), start_player=0)
        if two != (game.rpp == 2):  # as to_dict writes it: only 2-player games give two runners each
            raise ValueError(f"{where}: field 'two_runners' must be true exactly for a 2-player game with two runners")
        r = game.num_runners
        game.pos = require_int_list(d, "pos", r, 0, data.GOAL, where)
        game.place = require_int_list(d, "place", r, 0, r, where)
        game.eat = require_bool_list(d, "eat", r, where)
        game.miss = require_bool_list(d, "miss", r, where)
        game.payout = require_bool_list(d, "payout", r, where)
        game.last_cost = require_int_list(d, "last_cost", r, 0, COST[data.GOAL], where)
        game.carrots = require_int_list(d, "carrots", n, 0, 10**9, where)
        game.lettuces = require_int_list(d, "lettuces", n, 0, game.start_lettuces, where)
        game.deck = require_int_list(d, "deck", None, 0, len(data.CARD_KINDS) - 1, where)
        game.discard = require_int_list(d, "discard", None, 0, len(data.CARD_KINDS) - 1, where)
        if sorted(game.deck + game.discard) != sorted(data.DECK):
            raise ValueError(f"{where}: fields 'deck' and 'discard' must together hold the 12 hare cards")
        if game.discard and not game.reshuffle_deck:
            raise ValueError(f"{where}: field 'discard' must be empty without reshuffle_deck")
        game.known_from = require_int(d, "known_from", 0, len(game.deck), where)
        game.last_card = require_int(d, "last_card", -1, len(data.CARD_KINDS) - 1, where)
        game.turns = require_int(d, "turn", 0, 10**9, where)
        game.cur = require_int(d, "current", 0, n - 1, where)
        game.pending = require_choice(d, "pending", DECISIONS, where)
        game.card_runner = require_int(d, "card_runner", -1, r - 1, where)
        busy = require_int_list(d, "busy", None, 0, r - 1, where)
        if busy != sorted(set(busy)):  # a set, written sorted
            raise ValueError(f"{where}: field 'busy' must list distinct runners in ascending order")
        game._busy = frozenset(busy)
        game.over = require(d, "over", bool, where)
        if game.over != (game.pending == OVER):
            raise ValueError(f"{where}: field 'pending' must be 'over' exactly when field 'over' is true")
        game.final_places = require_int_list(d, "final_places", n if game.over else 0, 0, n - 1, where)
        game.rng = rng_from_dict(d.get("rng"), where)
        # consistency: squares, finishing order
        game.occupant = [-1] * data.NUM_POSITIONS
        for runner, p in enumerate(game.pos):
            if 0 < p < data.GOAL:
                if game.occupant[p] >= 0:
                    raise ValueError(f"{where}: field 'pos' puts two runners on square {p}")
                game.occupant[p] = runner
            if (p == data.GOAL) != bool(game.place[runner]):
                raise ValueError(f"{where}: fields 'pos' and 'place' disagree for runner {runner}")
        finished = sorted(x for x in game.place if x)
        if finished != list(range(1, len(finished) + 1)):
            raise ValueError(f"{where}: field 'place' must number finished runners 1..k")
        game.finished = len(finished)
        if game.pending in (CARD_CARROTS, EXTRA_MOVE) and game.card_runner // game.rpp != game.cur:
            raise ValueError(f"{where}: field 'card_runner' must be a runner of the current player")
        game.unresolved = _unresolved_of(d, game, where)
        game.log = []
        game._legal = None
        game._publish()
        if not game.over and not game.legal_actions():
            raise ValueError(f"{where}: the state has no legal action for the current player")
        return game


def _unresolved_of(d: dict, game: HaseUndIgelGame, where: str) -> int:
    """Field ``unresolved`` of a snapshot (HUI-13): the cards drawn this turn, still being resolved,
    lie known at the bottom of the deck (the end of the discard pile); there are some exactly while
    a card decision is pending (format-1 snapshots get it in :meth:`HaseUndIgelGame.upgrade`)."""
    card_decision = game.pending in (CARD_CARROTS, EXTRA_MOVE)
    if not card_decision:
        return require_int(d, "unresolved", 0, 0, where)
    seen = len(game.discard) if game.reshuffle_deck else DECK_SIZE - game.known_from
    return require_int(d, "unresolved", 1, max(seen, 1), where)


_LIST_FIELDS = ("pos", "place", "eat", "miss", "payout", "last_cost", "carrots", "lettuces", "occupant",
                "deck", "discard", "team_of", "final_places")


def start_holdings(num_players: int, runners_per_player: int) -> tuple[int, int]:
    """HUI-4 / HUI-5: starting carrots and lettuces of each player."""
    if num_players == 2:
        key = "2 players, 2 runners" if runners_per_player == 2 else "2 players, 1 runner (duel)"
    else:
        key = "3-4 players" if num_players <= 4 else "5-6 players"
    return data.START_HOLDINGS[key]


def check_config(num_players: Any, two_runners: Any, teams: Any, start_player: Any, where: str = "config") -> None:
    """Reject impossible configurations with a clear message."""
    try:
        num_players = check_int("num_players", num_players, 2, 6)
        check_bool("two_runners", two_runners)
        if teams is not None:
            check_choice("teams", teams, sorted(data.TEAM_LAYOUTS))
            if len(data.TEAM_LAYOUTS[teams]) != num_players:
                raise ValueError(f"team layout {teams} needs {len(data.TEAM_LAYOUTS[teams])} players, got {num_players}")
        if start_player is not None:
            check_int("start_player", start_player, 0, num_players - 1)
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None
