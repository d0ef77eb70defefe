"""Small seat-balanced matches: one agent against a field of opponents, scored by rank.

The *score* of a game is ``(reward + 1) / 2`` of the agent's seat: 1 for first place, 0 for last,
0.5 for a two-player draw, linear in between. Used by training for its periodic ladder
evaluation (the full tournament machinery lives in :mod:`training.evaluate`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from agents import make_agent
from agents.base import Agent
from envs.registry import game_module


def play_one(game: str, seats: list[Agent], seed: int, **options) -> dict[str, float]:
    """Play one game with ``seats[i]`` in seat i; returns the final rewards (0 if truncated)."""
    env = game_module(game).raw_env(**options)
    env.reset(seed=seed)
    for i, agent in enumerate(seats):
        agent.seed(seed * 31 + i)
        agent.reset()
    while True:
        current = env.agent_selection
        if env.terminations[current] or env.truncations[current]:
            break
        env.step(seats[env.possible_agents.index(current)].act(env, current))
    return {a: float(env._cumulative_rewards[a]) for a in env.possible_agents}


def match_score(game: str, hero: Callable[[], Agent], opponent: str, games: int, seed: int,
                **options) -> tuple[float, float]:
    """Mean score of ``hero`` against ``opponent`` in every other seat, rotating the hero's seat
    through all seats equally; returns (mean score, its standard error)."""
    players = len(game_module(game).raw_env(**options).possible_agents)
    scores = []
    for g in range(games):
        seat = g % players
        seats = [make_agent(opponent, game) for _ in range(players)]
        seats[seat] = hero()
        rewards = play_one(game, seats, seed=seed + g, **options)
        scores.append((rewards[f"player_{seat}"] + 1.0) / 2.0)
    values = np.asarray(scores)
    return float(values.mean()), float(values.std(ddof=1) / np.sqrt(len(values))) if len(values) > 1 else 0.0
