"""Reward by final rank, shared by every game.

The first place gets +1, the last −1, places in between are spaced linearly, and tied players
share the mean of the places they occupy. Teams are ranked as units: every member receives its
team's reward. With equal team sizes (all our variants) the rewards sum to zero.
"""

from __future__ import annotations


def rank_rewards(places: list[int], teams: list[int] | None = None) -> list[float]:
    """Per-player rewards from per-player places (0 = best; equal = tie).

    >>> rank_rewards([0, 1, 2])
    [1.0, 0.0, -1.0]
    >>> rank_rewards([0, 0, 1])
    [0.5, 0.5, -1.0]
    >>> rank_rewards([1, 0, 1, 0], teams=[0, 1, 0, 1])
    [-1.0, 1.0, -1.0, 1.0]
    """
    n = len(places)
    if teams is None:
        teams = list(range(n))
    # one place per team: the best place any of its members holds (members share one result)
    team_place: dict[int, int] = {}
    for player, team in enumerate(teams):
        place = places[player]
        team_place[team] = min(place, team_place.get(team, place))
    team_ids = sorted(team_place)
    k = len(team_ids)
    if k == 1:
        return [0.0] * n
    slot_value = [1.0 - 2.0 * s / (k - 1) for s in range(k)]
    order = sorted(team_ids, key=lambda t: team_place[t])
    reward_of: dict[int, float] = {}
    slot = 0
    while slot < k:
        end = slot
        while end + 1 < k and team_place[order[end + 1]] == team_place[order[slot]]:
            end += 1
        shared = sum(slot_value[slot : end + 1]) / (end - slot + 1)
        for t in order[slot : end + 1]:
            reward_of[t] = shared
        slot = end + 1
    return [reward_of[teams[p]] for p in range(n)]
