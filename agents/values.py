"""Cheap state values for cutting search rollouts short: one number in [-1, 1] per player.

A search player that stops a rollout after a fixed number of decisions (long games such as Hase und
Igel last hundreds of random decisions) needs a guess of how the game will end. These values read
only public state — positions, points, carrots, lettuces, herds — of the (already determinized)
game copy, never the real hidden parts. Each is a soft lead over the average opponent,
``tanh((mine - mean of the others) / scale)``, so a value is antisymmetric between two players and
never claims certainty.

``state_values(game)`` reads the measure and its scale from the game's plug-in
(``GamePlugin.search.public_value``, e.g. :func:`points`, or Hase und Igel's race progress in
:func:`meadowzoo.agents.heuristics.hase_und_igel.race_progress`); a game that declares none gets
zeros (no opinion).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from meadowzoo.envs.core.game import Game
from meadowzoo.envs.core.plugin import load
from meadowzoo.envs.registry import plugin


def soft_lead(points: list[float], scale: float) -> list[float]:
    """``tanh((points[i] - mean of the others) / scale)`` for every player ``i``."""
    n = len(points)
    total = sum(points)
    return [math.tanh((p - (total - p) / (n - 1)) / scale) for p in points]


def points(game: Game) -> list[float]:
    """The points every player has so far (a game's ``scores``): the public measure of games
    scored by points."""
    scores = game.scores
    return list(scores() if callable(scores) else scores)


def state_values(game: Game) -> list[float]:
    """Per-player value guesses in [-1, 1] for a game that has not ended (the game's plug-in
    ``search.public_value``; zeros where it declares none)."""
    measure = plugin(game.name).search.public_value
    if measure is None:
        return [0.0] * game.num_agents
    return measured_values(game, load(measure.function), measure.scale)


def measured_values(game: Game, measure: Callable[[Game], list[float]], scale: float) -> list[float]:
    """``measure`` of every player as a soft lead in [-1, 1]; team-mates share their mean."""
    values = soft_lead(measure(game), scale)
    teams = game.teams()
    if len(set(teams)) < len(teams):  # team-mates share a result: average their values
        for team in set(teams):
            members = [p for p, t in enumerate(teams) if t == team]
            mean = sum(values[p] for p in members) / len(members)
            for p in members:
                values[p] = mean
    return values
