"""The Hase und Igel lookahead player: every option of the turn, rated by a learned afterstate value.

At every decision the player plays each legal action on a copy of the game until its turn is over
and rates the position then (the *afterstate*, :mod:`meadowzoo.envs.hase_und_igel.afterstate`) with
a learned value: its chance of finishing ahead of the opponent. It plays the action of the best
expected rating. No heuristic takes part; this is the player that learns Hase und Igel from the rules
alone (:mod:`meadowzoo.training.afterstate_selfplay`), as the Haste Bock? one does
(:mod:`meadowzoo.agents.heuristics.haste_bock_lookahead`).

Within the turn:

* a forward move onto a hare square draws a card (HUI-13). The player does not know the unseen
  cards' order, so it weighs every card kind by its share of the unseen cards (HUI-2: a card seen
  before lies in plain sight at the bottom; once the whole deck has been seen the next card is
  known and is the only case). Each kind is played on a copy whose top card is that kind, the rest
  of the unseen cards in a fixed order, so the search never reads the real deck;
* a card that asks for a choice (HUI-22/25: take 10, give 10 or pass; HUI-23: move again or pass)
  is chosen the same way, by the best rating over its options; inside an extra move a second
  "move again" is valued as passing (the rare double search is not worth its cost);
* a turn that ends the game is rated exactly: 1 won, 0 lost (HUI-19).

The value is fitted for the two-player game with two runners each (the default 2-player
configuration) on the default card rules; the player refuses other games rather than misjudge
them. Command-line spec: ``lookahead:path/to/value.pt`` (``:prior=none`` is accepted and is the
only prior: there is no heuristic to take plans from; ``:explore=E`` plays a uniformly drawn
legal action at rate E, for recording self-play). Ties go to the lower action index.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from meadowzoo.agents.afterstate_value import AfterstateValue, is_share, spec_settings
from meadowzoo.agents.base import Agent
from meadowzoo.agents.shipped import resolve_agent_file
from meadowzoo.envs.hase_und_igel import afterstate
from meadowzoo.envs.hase_und_igel import data
from meadowzoo.envs.hase_und_igel.rules import (
    BACK_OFFSET, CARD_CARROTS, EXTRA_MOVE, IS_HARE, SLOT_ACTIONS, HaseUndIgelGame,
)

PRIORS = ("none",)


class HaseUndIgelValue(AfterstateValue):
    """The fitted MLP of Hase und Igel: afterstate records -> chance of finishing ahead of the opponent."""

    encoding = afterstate


def draws_a_card(game: HaseUndIgelGame, action: int) -> bool:
    """Whether ``action`` is a forward move onto a hare square (HUI-13: the mover draws a card)."""
    if action >= game.give_up_base:
        return False
    offset = action % SLOT_ACTIONS
    return offset < BACK_OFFSET and offset + 1 < data.GOAL and IS_HARE[offset + 1]


def next_card_odds(game: HaseUndIgelGame) -> list[tuple[int, float]]:
    """``(card kind, chance)`` of the next draw as every player knows it: the shares of the unseen
    cards, or the known top card once the whole deck has been seen (HUI-2)."""
    if game.known_from == 0:
        return [(game.deck[0], 1.0)]
    counts = np.bincount(np.asarray(game.deck[:game.known_from], dtype=np.int64), minlength=len(data.CARD_KINDS))
    return [(kind, count / game.known_from) for kind, count in enumerate(counts) if count]


def with_top_card(game: HaseUndIgelGame, kind: int) -> HaseUndIgelGame:
    """A copy of ``game`` whose next card is ``kind``; the other unseen cards in sorted order (not
    the real one: the copy holds nothing the players do not know)."""
    twin = game.clone()
    unseen = sorted(game.deck[:game.known_from])
    if unseen:
        unseen.remove(kind)
        twin.deck = [kind] + unseen + list(game.deck[game.known_from:])
    return twin


class LookaheadHaseUndIgel(Agent):
    """Every legal action played to the end of the turn on copies; the one of the best expected
    afterstate value is played."""

    name = "lookahead"

    def __init__(self, value: AfterstateValue, seed: int | None = None, explore: float = 0.0) -> None:
        super().__init__(seed)
        if not 0.0 <= explore <= 1.0:
            raise ValueError(f"lookahead explore must lie in [0, 1], got {explore}")
        if value.num_players != 2:
            raise ValueError(f"this afterstate value was fitted for {value.num_players} players; the "
                             "Hase und Igel encoding is for 2")
        self.value = value
        self.explore = explore

    def check_fits(self, env: Any, observation: Any = None) -> None:
        """The value is for one configuration (the game runner and the command lines ask before the
        first move)."""
        if not afterstate.supports(env.game):
            raise ValueError("the Hase und Igel afterstate value is for 2 players with two runners each on the "
                             "default card rules (no chain_hare_cards, no reshuffle_deck)")

    def act(self, env: Any, agent: str) -> int:
        game: HaseUndIgelGame = env.game
        self.check_fits(env)
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if self.explore and self.rng.random() < self.explore:
            return self.choose(legal)
        worths = self.option_worths(game, legal)
        return max(zip(worths, legal), key=lambda wa: (wa[0], -wa[1]))[1]

    # -- the search -----------------------------------------------------------------------------
    def option_worths(self, game: HaseUndIgelGame, legal: list[int]) -> list[float]:
        """The expected afterstate value of every legal action for the deciding player."""
        me = game.cur
        records: list[np.ndarray] = []
        trees = [self._after(game, action, me, records, depth=0) for action in legal]
        values = self.value.worth(np.stack(records)) if records else np.zeros(0)
        return [_reduce(tree, values) for tree in trees]

    def _after(self, game: HaseUndIgelGame, action: int, me: int, records: list, depth: int) -> tuple:
        """The tree of what ``action`` leads to by the end of ``me``'s turn: ``("leaf", i)`` (the
        i-th record), ``("exact", v)``, ``("mean", [(chance, tree)])`` over card draws or
        ``("max", [tree])`` over a card's choices."""
        if draws_a_card(game, action):
            branches = []
            for kind, chance in next_card_odds(game):
                twin = with_top_card(game, kind)
                twin.apply_legal(action)
                branches.append((chance, self._settled(twin, me, records, depth)))
            return ("mean", branches)
        twin = game.clone()
        twin.apply_legal(action)
        return self._settled(twin, me, records, depth)

    def _settled(self, twin: HaseUndIgelGame, me: int, records: list, depth: int) -> tuple:
        if twin.is_over:
            return ("exact", afterstate.outcome(twin.places(), me))
        if twin.cur == me and twin.pending in (CARD_CARROTS, EXTRA_MOVE):  # the turn goes on
            options = twin.legal_actions()
            if twin.pending == EXTRA_MOVE and depth > 0:
                options = [twin.card_base + 2]  # a second extra move: valued as passing
            return ("max", [self._after(twin, a, me, records, depth + 1) for a in options])
        records.append(afterstate.game_record(twin, me, me))
        return ("leaf", len(records) - 1)


def _reduce(tree: tuple, values: np.ndarray) -> float:
    kind, body = tree
    if kind == "leaf":
        return float(values[body])
    if kind == "exact":
        return float(body)
    if kind == "mean":
        return sum(chance * _reduce(branch, values) for chance, branch in body)
    return max(_reduce(branch, values) for branch in body)


def parse_spec(parameter: str | None, game: str, seed: int | None) -> LookaheadHaseUndIgel:
    """``path.pt``, optionally followed by ``:prior=none`` and ``:explore=E`` (the registry's
    ``lookahead:`` parameter)."""
    if game != afterstate.GAME:
        raise ValueError(f"this lookahead player is for {afterstate.GAME}, not {game!r}")
    if not parameter:
        raise ValueError("lookahead needs a value file: lookahead:path/to/value.pt")
    path, settings = spec_settings(parameter)
    explore = 0.0
    for setting, key, raw in settings:
        if key == "prior" and raw in PRIORS:
            continue
        if key == "explore" and is_share(raw):
            explore = float(raw)
        else:
            raise ValueError(f"unknown Hase und Igel lookahead setting {setting!r}; use prior=none or explore=E "
                             "(0 <= E <= 1)")
    return LookaheadHaseUndIgel(HaseUndIgelValue.from_file(resolve_agent_file(path)), seed=seed, explore=explore)
