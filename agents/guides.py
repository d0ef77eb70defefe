"""Game-specific guidance for the search player: leaf values and move priors from the heuristics.

:mod:`meadowzoo.agents.mcts` is one search for every game; what it knows about a particular game comes in
through two hooks that the game's plug-in declares (``search`` of
:class:`~meadowzoo.envs.core.plugin.GamePlugin`, looked up by ``game.name``); the functions live
next to the game's heuristics (``meadowzoo.agents.heuristics.<game>``):

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
were redrawn — and nothing else. The heuristic instances they use are private to each game's
heuristics module (one per process) and their random generators are never drawn from for values (the Hase und Igel lookahead resamples the
unseen deck of its own copies with the generator passed in by the caller).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from meadowzoo.agents.values import measured_values, state_values
from meadowzoo.envs.core.plugin import load
from meadowzoo.envs.registry import plugin

LEAF_KINDS = ("public", "strong")
PRIOR_KINDS = ("none", "strong")


# ---- leaf values ---------------------------------------------------------------------------------
def strong_values(game: Any) -> list[float]:
    """The strong heuristic's evaluation of every player as a soft lead in [-1, 1] (the game's
    plug-in ``search.strong_value``; the public values where it declares none)."""
    measure = plugin(game.name).search.strong_value
    if measure is None or game.num_agents < 2:
        return state_values(game)
    return measured_values(game, load(measure.function), measure.scale)


def leaf_values(kind: str, game: Any) -> list[float]:
    """Per-player values of an unfinished ``game`` by the leaf evaluation ``kind``."""
    return strong_values(game) if kind == "strong" else state_values(game)


# ---- move priors ---------------------------------------------------------------------------------
def action_scores(kind: str, game: Any, legal: list[int], rng: np.random.Generator) -> dict[int, float] | None:
    """Heuristic score of every legal action (higher is better), or None (no opinion)."""
    if kind != "strong":
        return None
    prior = plugin(game.name).search.strong_prior
    return None if prior is None else load(prior)(game, legal, rng)


def top_actions(scores: dict[int, float] | None, legal: list[int], width: int) -> list[int]:
    """The ``width`` best-scored legal actions (ties: lower index first); all if no scores."""
    if scores is None or width <= 0 or width >= len(legal):
        return list(legal)
    return sorted(sorted(legal, key=lambda a: (-scores.get(a, -np.inf), a))[:width])
