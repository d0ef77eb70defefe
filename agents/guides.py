"""Game-specific guidance for the search player: leaf values and move priors from the heuristics.

:mod:`meadowzoo.agents.mcts` is one search for every game; what it knows about a particular game comes in
through two plug-ins chosen by ``game.name``:

* a **leaf value** — ``leaf_values(kind, game)``: one number in [-1, 1] per player for a position
  where the search stops (a rollout cut after ``depth`` decisions). ``public`` is
  :func:`meadowzoo.agents.values.state_values` (points / race progress only); ``strong`` is the strong
  heuristic's own evaluation, turned into a soft lead over the other players:

  - Hase und Igel: minus the turns each player still needs to finish
    (:meth:`StrongHaseUndIgel.turns_to_go`, the turns-to-go planning table), scale 3 turns;
  - Haste Bock?: points so far plus the strong player's value of the position for the next
    scoring (:meth:`StrongHasteBock.position_value`), scale 6 points;
  - Volle Wolle: the strong player's final-score estimate of each herd
    (:meth:`Valuer.holding_value`: sets in progress, dogs still to come, the top card's modifier)
    plus wool, scale 10 points.

* a **move prior** — ``action_scores(kind, game, legal)``: a score per legal action of the player
  to move (higher is better), or None where the heuristic has no opinion. The search keeps only the
  ``width`` best-scored actions at a node (progressive pruning to the heuristic's candidates).
  ``strong`` is the strong heuristic's own ranking: Haste Bock? its whole-turn plan values
  (:meth:`~meadowzoo.agents.heuristics.haste_bock._HasteBockAgent.action_values`), Hase und Igel its
  one-turn lookahead values, Volle Wolle its expected values of bids
  (:meth:`StrongVolleWolle.bid_values`) and of claiming / setting dice aside
  (:meth:`StrongVolleWolle.roll_values`); picks and the black-sheep choice have no prior (few
  options: all are searched).

Every function reads the game it is given — in the search a determinized copy whose hidden parts
were redrawn — and nothing else. The heuristic instances used here are private to the module and
their random generators are never drawn from for values (the Hase und Igel lookahead resamples the
unseen deck of its own copies with the generator passed in by the caller).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from meadowzoo.agents.values import measured_values, state_values

LEAF_KINDS = ("public", "strong")
PRIOR_KINDS = ("none", "strong")


# ---- leaf values ---------------------------------------------------------------------------------
def _haste_bock_measure(game: Any) -> list[float]:
    value = _hb_strong().position_value
    return [game.points[p] + value(game, p, game.time) for p in range(game.num_agents)]


def _volle_wolle_measure(game: Any) -> list[float]:
    from meadowzoo.agents.heuristics.volle_wolle import Valuer

    return [Valuer(game, p).holding_value([]) + game.wool[p] for p in range(game.num_agents)]


def _hase_und_igel_measure(game: Any) -> list[float]:
    return [-_hui_strong().turns_to_go(game, p) for p in range(game.num_agents)]


_STRONG_MEASURES: dict[str, tuple[Callable[[Any], list[float]], float]] = {
    "hase_und_igel": (_hase_und_igel_measure, 3.0),
    "haste_bock": (_haste_bock_measure, 6.0),
    "volle_wolle": (_volle_wolle_measure, 10.0),
}


def strong_values(game: Any) -> list[float]:
    """The strong heuristic's evaluation of every player as a soft lead in [-1, 1]."""
    measure = _STRONG_MEASURES.get(game.name)
    if measure is None or game.num_agents < 2:
        return state_values(game)
    return measured_values(game, *measure)


def leaf_values(kind: str, game: Any) -> list[float]:
    """Per-player values of an unfinished ``game`` by the leaf evaluation ``kind``."""
    return strong_values(game) if kind == "strong" else state_values(game)


# ---- move priors ---------------------------------------------------------------------------------
_HUI_STRONG: list[Any] = []
_HB_STRONG: list[Any] = []


def _hui_strong():
    if not _HUI_STRONG:
        from meadowzoo.agents.heuristics.hase_und_igel import StrongHaseUndIgel

        _HUI_STRONG.append(StrongHaseUndIgel(seed=0))
    return _HUI_STRONG[0]


def _hb_strong():
    if not _HB_STRONG:
        from meadowzoo.agents.heuristics.haste_bock import StrongHasteBock

        _HB_STRONG.append(StrongHasteBock(seed=0))
    return _HB_STRONG[0]


def _haste_bock_scores(game: Any, legal: list[int], rng: np.random.Generator) -> dict[int, float] | None:
    scored = _hb_strong().action_values(game, legal)
    return None if scored is None else {a: v for v, a in scored}


def _hase_und_igel_scores(game: Any, legal: list[int], rng: np.random.Generator) -> dict[int, float]:
    player = _hui_strong()
    player.rng = rng  # the lookahead's deck resampling draws from the search's generator
    me = game.cur
    return {a: player._value(game, a, me, 0) for a in legal}


_VW_STRONG: list[Any] = []


def _volle_wolle_scores(game: Any, legal: list[int], rng: np.random.Generator) -> dict[int, float] | None:
    from meadowzoo.agents.heuristics.volle_wolle import StrongVolleWolle
    from meadowzoo.envs.volle_wolle.rules import BID, ROLL

    if not _VW_STRONG:
        _VW_STRONG.append(StrongVolleWolle(seed=0))
    player = _VW_STRONG[0]
    if game.pending == BID:
        return {a: v for v, a in player.bid_values(game, legal)}
    if game.pending == ROLL:
        return {a: v for v, a in player.roll_values(game, legal) if a in legal}
    return None


_STRONG_PRIORS: dict[str, Callable[[Any, list[int], np.random.Generator], dict[int, float] | None]] = {
    "hase_und_igel": _hase_und_igel_scores,
    "haste_bock": _haste_bock_scores,
    "volle_wolle": _volle_wolle_scores,
}


def action_scores(kind: str, game: Any, legal: list[int], rng: np.random.Generator) -> dict[int, float] | None:
    """Heuristic score of every legal action (higher is better), or None (no opinion)."""
    if kind != "strong":
        return None
    function = _STRONG_PRIORS.get(game.name)
    return None if function is None else function(game, legal, rng)


def top_actions(scores: dict[int, float] | None, legal: list[int], width: int) -> list[int]:
    """The ``width`` best-scored legal actions (ties: lower index first); all if no scores."""
    if scores is None or width <= 0 or width >= len(legal):
        return list(legal)
    return sorted(sorted(legal, key=lambda a: (-scores.get(a, -np.inf), a))[:width])
