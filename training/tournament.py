"""Tournament scheduling and parallel, reproducible play.

A tournament is a list of *matches* (which agent sits in which seat), each played by a number of
games. Seat balance:

* ``table`` mode (as many agents as seats): the games cycle through the n cyclic rotations of the
  agent list, so every agent plays every seat equally often (the number of games is rounded up to
  a multiple of n) and meets every other agent in every relative position. In a team game (Hase
  und Igel's ``teams``) the teams are fixed seats, so a rotation keeps the same agents together:
  the agents listed ``k`` seats apart for a team's seat distance ``k`` are partners in every game.
  The statistics score a team's first place as a win for each member, and team-mates never meet.
* ``pairs`` mode (2 seats, any number of agents): every pair of agents plays the given number of
  games, alternating seats.

Every game gets its own seed from the master seed and its index
(``SeedSequence([master, index])``); the env and each seat's agent are seeded from it, and the game
is played by the one game runner (:mod:`meadowzoo.training.runner`, which documents the seeding).
Games are independent, so results are identical whatever the number of worker processes; they are
returned in index order.

A game's record holds its seed and every action, so it replays move by move (the browser's
replays, :mod:`meadowzoo.training.web.replay`); records written before the actions were kept replay
by playing the seeded game again with the recorded agents.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from meadowzoo.envs.core.standing import standing_rewards
from meadowzoo.training.processes import worker_pool
from meadowzoo.training.runner import advance, final_scores, game_seed, start


@dataclass(frozen=True)
class GameTask:
    index: int
    game: str
    specs: tuple[str, ...]  # agent spec per seat
    seed: int
    options: dict[str, Any] = field(default_factory=dict)


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


def start_game(task: GameTask) -> tuple[Any, dict]:
    """The raw env of ``task``, reset with its seed, and its agents by seat, each seeded from it."""
    return start(task.game, task.specs, task.seed, task.options)


def play_task(task: GameTask) -> dict:
    """Play one game; the record the statistics read."""
    env, players = start_game(task)
    seats = env.possible_agents
    thinking = dict.fromkeys(seats, 0.0)
    taken = dict.fromkeys(seats, 0)  # decisions per seat: the seconds per decision of each agent
    actions: list[int] = []

    def record(agent: str, action: int) -> None:
        actions.append(int(action))
        taken[agent] += 1

    decisions = advance(env, players, thinking=thinking, after=record)
    game = env.game
    truncated = not game.is_over
    teams = game.teams()
    return {
        "index": task.index,
        "seed": task.seed,
        "agents": list(task.specs),
        "rewards": [float(env._cumulative_rewards[s]) for s in seats],
        "scores": final_scores(game),
        "truncated": truncated,
        "standing_rewards": standing_rewards(game) if truncated else None,
        "decisions": decisions,
        "turns": game.turn,
        "seconds": [thinking[s] for s in seats],
        "seat_decisions": [taken[s] for s in seats],
        # team games only: each seat's team (team-mates share a place; see stats.seat_outcomes)
        "teams": teams if len(set(teams)) < len(teams) else None,
        "actions": actions,  # every decision in order: the game replays from its seed and these
    }


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (SIGINT) during a tournament; ``records`` holds the games finished before it, in task
    order, so a caller can keep what was played."""

    def __init__(self, records: list[dict]) -> None:
        super().__init__(f"interrupted after {len(records)} finished games")
        self.records = records


def _ignore_interrupts() -> None:
    """Worker processes leave Ctrl-C to their parent, which keeps the finished games and ends them."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run(tasks: list[GameTask], workers: int = 1, progress: bool = True) -> list[dict]:
    """Play all tasks (in ``workers`` processes when > 1); records in task order. Ctrl-C raises
    :class:`Interrupted` with the records of the games finished until then."""
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
            with worker_pool(workers, initializer=_ignore_interrupts) as pool:
                for record in pool.imap_unordered(play_task, tasks, chunksize=1):
                    records.append(record)
                    bar and bar.update()
    except KeyboardInterrupt:
        raise Interrupted(sorted(records, key=lambda r: r["index"])) from None
    finally:
        if bar is not None:
            bar.close()
    return sorted(records, key=lambda r: r["index"])
