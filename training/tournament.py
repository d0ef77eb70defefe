"""Tournament scheduling and parallel, reproducible play.

A tournament is a list of *matches* (which agent sits in which seat), each played by a number of
games. Seat balance:

* ``table`` mode (as many agents as seats): the games cycle through a fixed list of seatings,
  and the number of games is rounded up to a multiple of its length (:func:`table_cycle`;
  the evaluate command prints the cycle before the games).

  - Without teams the cycle is the n cyclic rotations of the agent list, so every agent plays
    every seat equally often. The seating order around the table is the list's in every game
    (in ``a,b,c,d`` b always sits right after a).
  - In a team game (Hase und Igel's ``teams``; a game's ``teams()`` names each seat's team) the
    teams sit at fixed seats, and a rotation of one list would keep the same agents together as
    partners in every game. So the cycle takes *partnerings* (ways of splitting the agent list
    into the game's teams) and plays each at the n cyclic rotations of a seating that realises it.
    Every agent plays every seat equally often (once per partnering). The partnerings are the
    fewest in which every two agents are partners equally often (:func:`balanced_partnerings`):
    all of them, unless fewer do (six players in three pairs: 5 of the 15, a round robin in
    which every two agents are paired once, rather than 3 times in all 15).

    The balance of the rules' team layouts (with distinct agents):

    - 4 players, ``2x2``: 3 partnerings, a cycle of 12 games; every agent plays every seat 3
      times, and every two agents are partners in 4 games (a third) and opponents in 8.
    - 6 players, ``3x2``: 5 partnerings, a cycle of 30 games; every agent plays every seat 5
      times, and every two agents are partners in 6 games (a fifth).
    - 6 players, ``2x3``: all 10 partnerings, a cycle of 60 games; every agent plays every seat
      10 times, and every two agents are partners in 24 games (two fifths). No 5 splits into two
      threes pair every two agents equally often.

    Who sits right after whom is not balanced (for 4 players no choice of the partnerings'
    seatings could balance it within rotations: 3 directed cycles cannot cover the 12 ordered
    pairs once each). Each block of
    n consecutive games (one partnering) seats every agent at every seat once, so a tournament
    stopped early is seat-balanced up to its last block (with distinct agents). A rotation maps
    teams onto teams only when a team's seats, each moved one seat on, are again a team's seats
    (every layout of the rules: the teams alternate); another layout is refused.

  A label listed twice (``strong,strong``) is the same player in two seats. Balance is counted
  over the list's entries: a label listed k times plays each seat k times as often, and in a team
  game each entry is partnered with every other entry equally often. So with ``A,B,strong,strong``
  A's partner is B in a third of its games and strong in the other two thirds, and so is B's: A
  and B have the same partners, which is what makes their results comparable. Seatings that a
  repeated label makes identical are not played needlessly often: when every seating of the team
  cycle occurs a multiple of k times, each is kept 1/k as often (the same shares, so the same
  balance, in fewer games; ``strong`` in all four seats of ``2x2`` is a cycle of one game).
  The cycle without teams is never shortened: stored results depend on its seatings.

  The statistics (:mod:`meadowzoo.training.stats`) score a team's first place as a win for each
  member, and team-mates never meet head to head.
* ``orders`` mode (as many agents as seats, no teams): table mode that also balances who sits
  right after whom (:func:`order_cycle`). The cycle is every circular order of the agent list
  (the first entry fixed, the others permuted: (n−1)! orders), each at its n rotations: n! games,
  so 6 for 3 players, 24 for 4, 120 for 5 and 720 for 6. Every agent plays every seat
  (n−1)! times, and every agent sits right before every other (seat i, then seat i + 1 around
  the table) in n·(n−2)! games. Where it matters who moves right after whom, this takes the
  seating's effect out of the comparison; with two players it is table mode. Repeated labels
  shorten the cycle as in team games.
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
import math
from collections import Counter
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


def schedule(specs: list[str], players: int, games: int, mode: str = "table",
             teams: list[int] | None = None) -> list[tuple[str, ...]]:
    """Seat assignments of every game, seat-balanced (see the module docstring).

    ``teams`` is each seat's team in a team game, as the game's ``teams()`` gives it
    (:func:`seat_teams` reads it from the env options); ``None``, or every seat a team of its own,
    is a game without teams. ``table`` mode plays whole cycles (:func:`table_cycle`): ``games`` is
    rounded up to a multiple of the cycle's length."""
    if mode == "table":
        cycle = table_cycle(specs, players, teams)
        rounds = -(-games // len(cycle))
        return cycle * rounds
    if mode == "orders":
        cycle = order_cycle(specs, players, teams)
        return cycle * -(-games // len(cycle))
    if mode == "pairs":
        if players != 2:
            raise ValueError("pairs mode is for 2 players")
        if has_teams(teams):
            raise ValueError("pairs mode is for games without teams")
        if len(specs) < 2 or len(set(specs)) != len(specs):
            raise ValueError("pairs mode needs at least two different agents")
        per_pair = games + games % 2
        out = []
        for a, b in itertools.combinations(specs, 2):
            out += [(a, b) if g % 2 == 0 else (b, a) for g in range(per_pair)]
        return out
    raise ValueError(f"unknown mode {mode!r}; choose {', '.join(MODES)}")


#: the schedules of :func:`schedule` (see the module docstring)
MODES = ("table", "orders", "pairs")


def has_teams(teams: list[int] | None) -> bool:
    """Whether ``teams`` (each seat's team, or None) has team-mates: two seats in one team."""
    return teams is not None and len(set(teams)) < len(teams)


def seat_teams(game: str, options: dict) -> list[int] | None:
    """Each seat's team in ``game`` played with the env ``options`` (``num_players`` included), or
    None when every seat plays for itself. The game says it (``teams()``, as in every game
    record), so a tournament needs no knowledge of a game's team options."""
    from meadowzoo.envs import game_module

    env = game_module(game).raw_env(**options)
    env.reset(seed=0)
    teams = env.game.teams()
    return list(teams) if has_teams(teams) else None


def rotations(seating: list[str] | tuple[str, ...]) -> list[tuple[str, ...]]:
    """The n cyclic rotations of a seating: in the r-th, seat i holds the agent of seat i + r."""
    n = len(seating)
    return [tuple(seating[(i + r) % n] for i in range(n)) for r in range(n)]


def partnerings(agents: int, size: int) -> list[list[tuple[int, ...]]]:
    """Every way of splitting agents ``0..agents-1`` into teams of ``size`` (the teams unordered):
    each team sorted, the teams in the order of their first member, the splits in lexicographic
    order. ``partnerings(4, 2)`` is ``[[(0, 1), (2, 3)], [(0, 2), (1, 3)], [(0, 3), (1, 2)]]``."""

    def split(rest: list[int]):
        if not rest:
            yield []
            return
        first, others = rest[0], rest[1:]  # the team of the first agent left, then the rest
        for mates in itertools.combinations(others, size - 1):
            remaining = [a for a in others if a not in mates]
            for teams in split(remaining):
                yield [(first, *mates), *teams]

    return list(split(list(range(agents))))


def balanced_partnerings(agents: int, size: int) -> list[list[tuple[int, ...]]]:
    """The fewest partnerings (of :func:`partnerings`, in their order) in which every two agents
    are in one team equally often: the first such selection of the smallest size, found by search
    (the rules' layouts have at most 15 partnerings, so the search is instant). All of them
    always qualify, by symmetry."""
    every = partnerings(agents, size)
    pairs = list(itertools.combinations(range(agents), 2))
    for count in range(1, len(every) + 1):
        for chosen in itertools.combinations(every, count):
            together = Counter(pair for split in chosen for team in split for pair in itertools.combinations(team, 2))
            if len({together[pair] for pair in pairs}) == 1:
                return list(chosen)
    return every  # not reached: all partnerings are balanced


def _rotation_keeps_teams(teams: list[int]) -> bool:
    """Whether moving every seat one on maps teams onto teams: seats i and j are team-mates exactly
    when seats i + 1 and j + 1 are (then every rotation of a seating keeps its partnering)."""
    n = len(teams)
    return all((teams[i] == teams[j]) == (teams[(i + 1) % n] == teams[(j + 1) % n])
               for i in range(n) for j in range(n))


def table_cycle(specs: list[str], players: int, teams: list[int] | None = None) -> list[tuple[str, ...]]:
    """One cycle of ``table`` mode's seatings (see the module docstring): the rotations of
    ``specs`` without teams, else the balanced partnerings of ``specs`` into ``teams`` at the rotations of
    a seating that realises it."""
    if len(specs) != players:
        raise ValueError(f"table mode needs one agent per seat: {players} seats, {len(specs)} agents "
                         "(repeat a name to fill seats, or use pairs mode for 2 players)")
    if not has_teams(teams):
        return rotations(specs)  # unchanged since the first tournaments: stored results depend on it
    if len(teams) != players:
        raise ValueError(f"teams names the team of {len(teams)} seats, the game has {players}")
    if not _rotation_keeps_teams(teams):
        raise ValueError(f"team layout {teams} (team of each seat): a seat rotation does not map its teams onto "
                         "teams, so rotated seatings would change partners; table mode needs the teams to repeat "
                         "around the table (e.g. 0, 1, 0, 1)")
    # the seats of each team, teams in the order of their first seat; all of one size (a rotation
    # maps every team onto another)
    team_seats = [[seat for seat in range(players) if teams[seat] == team] for team in dict.fromkeys(teams)]
    cycle = []
    for partnering in balanced_partnerings(players, len(team_seats[0])):
        seating = [""] * players
        for seats, members in zip(team_seats, partnering):
            for seat, member in zip(seats, members):
                seating[seat] = specs[member]
        cycle += rotations(seating)  # a rotation keeps the partnering and moves everybody on a seat
    return _fewer_repeats(cycle)


def order_cycle(specs: list[str], players: int, teams: list[int] | None = None) -> list[tuple[str, ...]]:
    """One cycle of ``orders`` mode (see the module docstring): every circular order of ``specs``
    (``specs[0]`` first, the rest in every permutation, in ``itertools.permutations`` order), each
    at its n rotations; seatings that repeated labels make equal are kept in the same shares, fewer
    times. Not for team games: their seating is fixed by the partnerings (table mode)."""
    if len(specs) != players:
        raise ValueError(f"orders mode needs one agent per seat: {players} seats, {len(specs)} agents "
                         "(repeat a name to fill seats)")
    if has_teams(teams):
        raise ValueError("orders mode is for games without teams; a team game's table mode already rotates "
                         "partners and seats")
    cycle = []
    for rest in itertools.permutations(specs[1:]):
        cycle += rotations((specs[0], *rest))
    return _fewer_repeats(cycle)


def _fewer_repeats(cycle: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """``cycle`` with every seating's count divided by the counts' greatest common divisor: the same
    shares of every seating, hence the same balance, in fewer games (repeated labels make equal
    seatings). The kept copies are each seating's first ones, in the cycle's order."""
    counts = Counter(cycle)
    common = math.gcd(*counts.values())
    left = {seating: count // common for seating, count in counts.items()}
    kept = []
    for seating in cycle:
        if left[seating]:
            kept.append(seating)
            left[seating] -= 1
    return kept


def cycle_text(specs: list[str], players: int, games: int, mode: str = "table",
               teams: list[int] | None = None) -> str:
    """One line for the user: what the schedule plays and how many games that makes."""
    planned = len(schedule(specs, players, games, mode, teams))
    if mode == "pairs":
        pairs = len(specs) * (len(specs) - 1) // 2
        text = f"pairs mode: {pairs} pairings of {planned // pairs} games each, alternating seats"
        if planned // pairs != games:
            text += f" ({games} rounded up to an even number)"
    elif mode == "orders":
        cycle = len(order_cycle(specs, players, teams))
        full = math.factorial(players)
        text = (f"orders mode: a cycle of {cycle} {'game' if cycle == 1 else 'games'} (every circular order of "
                f"the agents at every seat rotation)")
        if cycle < full:
            text += (f" (shortened from {full}: seatings that repeated agents make equal are played fewer times, "
                     "in the same shares)")
    elif not has_teams(teams):
        text = f"table mode: a cycle of {players} games (the seat rotations of the agent list)"
    else:
        cycle = len(table_cycle(specs, players, teams))
        size = players // len(set(teams))
        splits = len(balanced_partnerings(players, size))
        games_word = "game" if cycle == 1 else "games"
        which = "the" if splits == len(partnerings(players, size)) else "a balanced set of"
        text = (f"table mode with teams {teams} (team of each seat): a cycle of {cycle} {games_word}, {which} "
                f"{splits} ways of splitting the agents into teams of {size} at {players} seat rotations each")
        if cycle < splits * players:
            text += (f" (shortened from {splits * players}: seatings that repeated agents make equal are played "
                     "fewer times, in the same shares)")
    if mode in ("table", "orders") and planned != games:
        text += f"; {games} games rounded up to {planned}"
    return text


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
