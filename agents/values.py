"""Cheap state values for cutting search rollouts short: one number in [-1, 1] per player.

A search player that stops a rollout after a fixed number of decisions (long games such as Hase und
Igel last hundreds of random decisions) needs a guess of how the game will end. These values read
only public state — positions, points, carrots, lettuces, herds — of the (already determinized)
game copy, never the real hidden parts. Each is a soft lead over the average opponent,
``tanh((mine - mean of the others) / scale)``, so a value is antisymmetric between two players and
never claims certainty.

``state_values(game)`` picks the function by ``game.name``; unknown games get zeros (no opinion).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from meadowzoo.envs.core.game import Game


def soft_lead(points: list[float], scale: float) -> list[float]:
    """``tanh((points[i] - mean of the others) / scale)`` for every player ``i``."""
    n = len(points)
    total = sum(points)
    return [math.tanh((p - (total - p) / (n - 1)) / scale) for p in points]


def hase_und_igel_progress(game) -> list[float]:
    """Race progress per player: squares covered by its runners (a finished runner counts as the
    Goal plus a bonus for finishing early), minus a toll per uneaten lettuce (each costs a stop on
    a lettuce square before the Goal) and for carrots that must still be shed before finishing."""
    from meadowzoo.envs.hase_und_igel import data

    rpp = game.rpp
    progress = []
    for player in range(game.num_agents):
        covered = 0.0
        for runner in range(player * rpp, player * rpp + rpp):
            if game.place[runner]:
                covered += data.GOAL + 8 * (game.num_runners - game.place[runner])
            else:
                covered += game.pos[runner]
        surplus = max(0, game.carrots[player] - 10 * (1 + game.finished)) if covered > 40 * rpp else 0
        progress.append(covered - 6.0 * game.lettuces[player] - 0.15 * surplus)
    return progress


def _points(game) -> list[float]:
    return game.scores()


#: game name -> (public progress or points per player, scale of a clear lead)
_MEASURES: dict[str, tuple[Callable[[Game], list[float]], float]] = {
    "hase_und_igel": (hase_und_igel_progress, 12.0),
    "haste_bock": (_points, 6.0),
    "volle_wolle": (_points, 10.0),
}


def state_values(game: Game) -> list[float]:
    """Per-player value guesses in [-1, 1] for a game that has not ended."""
    measure = _MEASURES.get(game.name)
    if measure is None:
        return [0.0] * game.num_agents
    return measured_values(game, *measure)


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
