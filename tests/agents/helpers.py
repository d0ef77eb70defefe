"""Shared set-ups for agent tests: small envs and a game loop that records every decision."""

from __future__ import annotations

import numpy as np

from meadowzoo.envs import game_module

GAMES = ("hase_und_igel", "haste_bock", "volle_wolle")
#: short games: tests cut every game at this many player turns
MAX_TURNS = 30


def new_env(game: str, players: int = 2, seed: int = 0, **options):
    env = game_module(game).raw_env(num_players=players, max_turns=options.pop("max_turns", MAX_TURNS), **options)
    env.reset(seed=seed)
    return env


def play(env, players, limit: int = 10_000) -> list[int]:
    """Play ``players`` (one per seat) to the end; every action is checked against the legal list."""
    actions = []
    for _ in range(limit):
        seat = env.agent_selection
        if env.terminations[seat] or env.truncations[seat]:
            return actions
        legal = env.legal_actions()
        action = players[env.possible_agents.index(seat)].act(env, seat)
        assert action in legal, (action, legal)
        assert isinstance(action, int)
        actions.append(action)
        env.step(action)
    raise AssertionError("game did not end")


def advance(env, rng: np.random.Generator, until, limit: int = 2000) -> None:
    """Random legal moves until ``until(env)`` holds."""
    for _ in range(limit):
        if until(env):
            return
        legal = env.legal_actions()
        env.step(legal[int(rng.integers(len(legal)))])
    raise AssertionError("state not reached")
