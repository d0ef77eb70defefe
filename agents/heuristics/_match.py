"""A tiny seat-balanced match runner for measuring the heuristic players (not the official
tournament, which lives in ``training.evaluate``).

    PYTHONPATH=. python -m agents.heuristics._match --game volle_wolle --players 2 \\
        --agents greedy random --games 400

With two agent names A and B and ``n`` players, game ``g`` seats A on seat ``g mod n`` and B on
all other seats, so every seat is played equally often by A. It reports A's *win share* (its
reward-by-rank mapped to 0..1: first 1, last 0, shared places between; at 2 players a draw is ½)
with a 95% Wilson interval, and A's and the field's mean rank (0 = first) with a normal interval
of A's mean rank. A game truncated by ``max_turns`` is ranked by its provisional standing
(:func:`provisional_places`): pure random Hase und Igel runners never meet the finishing
conditions, so a game of one heuristic against random players would otherwise always be a draw.
"""

from __future__ import annotations

import argparse
import math
import time

from agents.registry import make_agent
from envs import game_module
from envs.core.rewards import rank_rewards


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (fractional successes allowed: draws count ½)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def provisional_places(game) -> list[int]:
    """Places of a game stopped before its end: the game's own ``places()`` where it is defined
    at any time (scores), else (Hase und Igel) by the race positions of each player's runners
    (HUI-15, finished runners by finishing order; two runners: their sum)."""
    try:
        return game.places()
    except RuntimeError:
        keys = [sum(game.race_position(r) for r in range(p * game.rpp, (p + 1) * game.rpp))
                for p in range(game.num_agents)]
        return [sum(1 for k in keys if k < mine) for mine in keys]


def play(game: str, specs: list[str], seed: int, **options) -> tuple[list[float], list[float], list[int]]:
    """One seeded game; returns (mean-rank number of every seat, seconds spent deciding per seat,
    decisions per seat)."""
    env = game_module(game).raw_env(**options)
    env.reset(seed=seed)
    players = [make_agent(spec, game, seed=seed * 101 + i) for i, spec in enumerate(specs)]
    for p in players:
        p.reset()
    index = {a: i for i, a in enumerate(env.possible_agents)}
    decisions = [0] * len(specs)
    seconds = [0.0] * len(specs)
    while True:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        seat = index[agent]
        start = time.perf_counter()
        action = players[seat].act(env, agent)
        seconds[seat] += time.perf_counter() - start
        decisions[seat] += 1
        env.step(action)
    n = len(specs)
    if env.game.is_over:
        rewards = [env._cumulative_rewards[a] for a in env.possible_agents]
    else:
        rewards = rank_rewards(provisional_places(env.game), env.game.teams())
    # reward r in [-1, 1] by rank -> mean rank (n-1)(1-r)/2, exact for shared places too
    return [(n - 1) * (1 - r) / 2 for r in rewards], seconds, decisions


def match(game: str, a: str, b: str, players: int, games: int, seed: int = 0, **options) -> dict:
    """Seat-balanced match of ``a`` against ``players - 1`` copies of ``b``."""
    share = 0.0
    ranks_a: list[float] = []
    ranks_b: list[float] = []
    seconds = decisions = 0
    for g in range(games):
        seat = g % players
        specs = [a if s == seat else b for s in range(players)]
        ranks, dt, nd = play(game, specs, seed + g, num_players=players, **options)
        seconds += dt[seat]
        decisions += nd[seat]
        ranks_a.append(ranks[seat])
        ranks_b += [r for s, r in enumerate(ranks) if s != seat]
        share += 1 - ranks[seat] / (players - 1)
    lo, hi = wilson(share, games)
    mean_a = sum(ranks_a) / games
    sd = math.sqrt(sum((r - mean_a) ** 2 for r in ranks_a) / max(1, games - 1))
    half = 1.96 * sd / math.sqrt(games)
    return {
        "game": game, "players": players, "a": a, "b": b, "games": games,
        "share": share / games, "wilson": (lo, hi),
        "rank_a": mean_a, "rank_a_ci": (mean_a - half, mean_a + half),
        "rank_b": sum(ranks_b) / len(ranks_b), "random_rank": (players - 1) / 2,
        "ms_per_decision": 1000 * seconds / max(1, decisions),
    }


def report(r: dict) -> str:
    lo, hi = r["wilson"]
    rlo, rhi = r["rank_a_ci"]
    return (f"{r['game']:<14} {r['players']}p {r['a']:>7} vs {r['b']:<7} games {r['games']:4d}  "
            f"share {r['share']:.3f} [{lo:.3f}, {hi:.3f}]  mean rank {r['a']} {r['rank_a']:.3f} "
            f"[{rlo:.3f}, {rhi:.3f}] vs {r['b']} {r['rank_b']:.3f}  ({r['a']}: {r['ms_per_decision']:.2f} ms/decision)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Seat-balanced match: agent A against copies of B.")
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--agents", nargs=2, metavar=("A", "B"), required=True)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print(report(match(args.game, *args.agents, args.players, args.games, args.seed)), flush=True)


if __name__ == "__main__":
    main()
