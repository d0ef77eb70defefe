"""Random-play speed of every meadowzoo env next to PettingZoo classic's connect_four_v3.

    python -m benchmarks.speed                 # all games, default configurations
    python -m benchmarks.speed --game hase_und_igel --seconds 2 --rounds 5

Every env is driven by the same loop (``agent_iter`` → ``last()`` → a seeded uniform choice among
the mask's legal actions → ``step``) as ``raw_env`` and as wrapped ``env()``. Rounds of all
configurations are interleaved, time is this process's CPU time, and each figure is the best round, so that load from other
processes on the machine hurts every figure alike; the ratios against connect four are what to
read. Prints steps/s, games/s and the ratios, writes JSON with ``--json`` and the table of
``docs/benchmarks.md`` with ``--docs``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable

import numpy as np

import meadowzoo  # noqa: F401  (registers the games)
from meadowzoo.envs.registry import GAMES, game_module, plugin

#: the page whose table ``--docs`` rewrites (between ``<!-- speed:start -->`` and ``<!-- speed:end -->``)
TABLE_PAGE = "docs/benchmarks.md"


def configurations(game: str) -> list[tuple[str, dict]]:
    """The configurations measured for ``game`` (its plug-in's ``benchmarks``): (label, env options)."""
    return [(bench.label, dict(bench.options)) for bench in plugin(game).benchmarks]


def play_game(env, seed: int, choose: random.Random) -> int:
    """One whole game of seeded uniform random legal play; returns its AEC steps. This loop is
    the measured work: the same for connect four and for every meadowzoo env."""
    steps = 0
    env.reset(seed=seed)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            # ndarray.nonzero is one C call; np.flatnonzero adds numpy's Python-level wrappers
            # (ravel, _wrapfunc), a microsecond a step that dilutes every ratio towards 1
            legal = observation["action_mask"].nonzero()[0]
            action = int(legal[choose.randrange(len(legal))])
        env.step(action)
        steps += 1
    return steps


def play(env, seconds: float, seed: int) -> tuple[int, int, float]:
    """Random legal play for about ``seconds``; returns (steps, finished games, elapsed)."""
    choose = random.Random(seed)
    steps = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        steps += play_game(env, seed + games, choose)
        games += 1
    return steps, games, time.process_time() - start


def connect_four() -> list[tuple[str, Callable, Callable]]:
    from pettingzoo.classic import connect_four_v3

    return [("connect_four_v3", connect_four_v3.raw_env, connect_four_v3.env)]


def candidates(games: list[str]) -> list[tuple[str, Callable, Callable]]:
    found = []
    for game in games:
        module = game_module(game)
        for label, kwargs in configurations(game):
            found.append((f"{game} {label}", _bind(module.raw_env, kwargs), _bind(module.env, kwargs)))
    return found


def _bind(factory: Callable, kwargs: dict) -> Callable:
    return lambda: factory(**kwargs)


def measure(entries, seconds: float, rounds: int) -> dict[str, dict[str, float]]:
    best: dict[str, dict[str, float]] = {}
    built = {(name, kind): factory() for name, raw, wrapped in entries for kind, factory in (("raw", raw), ("env", wrapped))}
    for round_ in range(rounds):
        for (name, kind), env in built.items():
            steps, games, elapsed = play(env, seconds, seed=1000 * round_)
            row = best.setdefault(name, {})
            if steps / elapsed > row.get(f"{kind}_steps", 0.0):
                row[f"{kind}_steps"] = steps / elapsed
                row[f"{kind}_games"] = games / elapsed
    return best


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="game(s) to measure (default all)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per round and configuration")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the best counts")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--docs", action="store_true",
                        help=f"rewrite the speed table in {TABLE_PAGE} (between the speed markers)")
    args = parser.parse_args(argv)
    entries = connect_four() + candidates(args.game or list(GAMES))
    results = measure(entries, args.seconds, args.rounds)
    base = results["connect_four_v3"]
    print(f"{'environment':<32}{'raw steps/s':>12}{'raw games/s':>12}{'x c4 raw':>9}"
          f"{'env steps/s':>12}{'env games/s':>12}{'x c4 env':>9}")
    for name, row in results.items():
        row["raw_ratio"] = row["raw_steps"] / base["raw_steps"]
        row["env_ratio"] = row["env_steps"] / base["env_steps"]
        print(f"{name:<32}{row['raw_steps']:>12,.0f}{row['raw_games']:>12,.1f}{row['raw_ratio']:>9.2f}"
              f"{row['env_steps']:>12,.0f}{row['env_games']:>12,.1f}{row['env_ratio']:>9.2f}")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(results, handle, indent=2)
    if args.docs:
        write_table(results, " ".join(["python -m benchmarks.speed"] + (argv if argv is not None else sys.argv[1:])))
    return results


def write_table(results: dict, command: str, path: str = TABLE_PAGE) -> None:
    """Replace the table between ``<!-- speed:start -->`` and ``<!-- speed:end -->``."""
    lines = [f"`{command}` on {platform.node() or 'this machine'} ({os.cpu_count()} cores), "
             f"{time.strftime('%Y-%m-%d')}:", "",
             "| environment | raw steps/s | × c4 raw | raw games/s | env() steps/s | × c4 env() |",
             "|---|---|---|---|---|---|"]
    for name, row in results.items():
        lines.append(f"| {name} | {row['raw_steps']:,.0f} | {row['raw_ratio']:.2f} | {row['raw_games']:,.1f} | "
                     f"{row['env_steps']:,.0f} | {row['env_ratio']:.2f} |")
    text = open(path).read()
    start, end = "<!-- speed:start -->", "<!-- speed:end -->"
    if start not in text or end not in text:
        raise SystemExit(f"{path} has no {start} … {end} markers")
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as handle:
        handle.write(head + start + "\n" + "\n".join(lines) + "\n" + end + tail)


if __name__ == "__main__":
    main()
