"""Tournament scheduling and parallel, reproducible play.

A tournament is a list of *matches* (which agent sits in which seat), each played by a number of
games. Seat balance:

* ``table`` mode (as many agents as seats): the games cycle through the n cyclic rotations of the
  agent list, so every agent plays every seat equally often (the number of games is rounded up to
  a multiple of n) and meets every other agent in every relative position.
* ``pairs`` mode (2 seats, any number of agents): every pair of agents plays the given number of
  games, alternating seats.

A game's record holds its seed and every action, so it replays move by move (the browser's
replays, :mod:`meadowzoo.training.web.replay`); records written before the actions were kept replay
by playing the seeded game again with the recorded agents.

Every game gets its own seed from the master seed and its index
(``SeedSequence([master, index])``); the env and each seat's agent are seeded from it. Games are
independent, so results are identical whatever the number of worker processes; they are returned
in index order.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

import numpy as np


@dataclass(frozen=True)
class GameTask:
    index: int
    game: str
    specs: tuple[str, ...]  # agent spec per seat
    seed: int
    options: dict[str, Any] = field(default_factory=dict)


def game_seed(master: int, index: int) -> int:
    return int(np.random.SeedSequence([master, index]).generate_state(1, np.uint64)[0] >> 1)


def schedule(specs: list[str], players: int, games: int, mode: str = "table") -> list[tuple[str, ...]]:
    """Seat assignments of every game, seat-balanced (see the module docstring)."""
    if mode == "table":
        if len(specs) != players:
            raise ValueError(f"table mode needs one agent per seat: {players} seats, {len(specs)} agents "
                             "(repeat a name to fill seats, or use pairs mode for 2 players)")
        rounds = -(-games // players)
        rotations = [tuple(specs[(i + r) % players] for i in range(players)) for r in range(players)]
        return [seats for _ in range(rounds) for seats in rotations]
    if mode == "pairs":
        if players != 2:
            raise ValueError("pairs mode is for 2 players")
        if len(specs) < 2 or len(set(specs)) != len(specs):
            raise ValueError("pairs mode needs at least two different agents")
        per_pair = games + games % 2
        out = []
        for a, b in itertools.combinations(specs, 2):
            out += [(a, b) if g % 2 == 0 else (b, a) for g in range(per_pair)]
        return out
    raise ValueError(f"unknown mode {mode!r}; choose table or pairs")


def make_tasks(game: str, seatings: list[tuple[str, ...]], master_seed: int, options: dict | None = None) -> list[GameTask]:
    return [GameTask(i, game, seats, game_seed(master_seed, i), dict(options or {})) for i, seats in enumerate(seatings)]


def start_game(task: GameTask) -> tuple[Any, list]:
    """The raw env of ``task``, reset with its seed, and one agent per seat, each seeded from it."""
    from meadowzoo.agents import make_agent
    from meadowzoo.envs import game_module

    env = game_module(task.game).raw_env(**task.options)
    env.reset(seed=task.seed)
    seats = env.possible_agents
    if len(seats) != len(task.specs):
        raise ValueError(f"{task.game} with {task.options} has {len(seats)} seats, got {len(task.specs)} agents")
    sub = np.random.SeedSequence(task.seed).generate_state(len(seats), np.uint64)
    players = [make_agent(spec, task.game, seed=int(s >> 1)) for spec, s in zip(task.specs, sub)]
    for player in players:
        player.reset()
    return env, players


def play_task(task: GameTask) -> dict:
    """Play one game; the record the statistics read."""
    env, players = start_game(task)
    seats = env.possible_agents
    thinking = [0.0] * len(seats)
    actions: list[int] = []
    while True:
        seat = env.agent_selection
        if env.terminations[seat] or env.truncations[seat]:
            break
        i = env._agent_index[seat]
        start = time.perf_counter()
        action = players[i].act(env, seat)
        thinking[i] += time.perf_counter() - start
        env.step(action)
        actions.append(int(action))
    game = env.game
    scores = getattr(game, "scores", None)
    if callable(scores):
        scores = scores()
    truncated = not game.is_over
    return {
        "index": task.index,
        "seed": task.seed,
        "agents": list(task.specs),
        "rewards": [float(env._cumulative_rewards[s]) for s in seats],
        "scores": [float(x) for x in scores] if scores is not None else None,
        "truncated": truncated,
        "standing_rewards": standing_rewards(game) if truncated else None,
        "decisions": len(actions),
        "turns": game.turn,
        "seconds": thinking,
        "actions": actions,  # every decision in order: the game replays from its seed and these
    }


def standing_rewards(game) -> list[float]:
    """Rank rewards of a game stopped early, by its standing at the cut: the game's own places
    where they are defined mid-game (points), else (Hase und Igel) each player's race positions
    (HUI-15; with two runners their sum)."""
    from meadowzoo.envs.core.rewards import rank_rewards

    try:
        places = game.places()
    except RuntimeError:
        keys = [sum(game.race_position(r) for r in range(p * game.rpp, (p + 1) * game.rpp))
                for p in range(game.num_agents)]
        places = [sum(1 for k in keys if k < mine) for mine in keys]
    return rank_rewards(places, game.teams())


def run(tasks: list[GameTask], workers: int = 1, progress: bool = True) -> list[dict]:
    """Play all tasks (in ``workers`` processes when > 1); records in task order."""
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(tasks), unit="game", smoothing=0.05)
    records = []
    try:
        if workers <= 1:
            for task in tasks:
                records.append(play_task(task))
                bar and bar.update()
        else:
            with get_context("fork").Pool(workers) as pool:
                for record in pool.imap_unordered(play_task, tasks, chunksize=1):
                    records.append(record)
                    bar and bar.update()
    finally:
        if bar is not None:
            bar.close()
    return sorted(records, key=lambda r: r["index"])
