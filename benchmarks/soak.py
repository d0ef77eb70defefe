"""Soak test: many seeded random whole games of every game, player count and main variant, with the
env's invariants checked at every step, and memory measured before and after.

    python -m benchmarks.soak --games 100000 --seed 0 --processes 1
    python -m benchmarks.soak --games 200 --json soak.json

Game ``i`` plays configuration ``i % len(configurations())`` with env seed ``seed * 1_000_003 + i``
and random legal actions drawn from a generator seeded the same way, so a run is reproducible
whatever ``--processes``: uniform among the legal actions, except in Hase und Igel, whose uniform
random runners hoard carrots and never finish (every game would truncate after 1,500 turns):
there the ``racing_random`` driver (:mod:`meadowzoo.envs.hase_und_igel.drivers`) plays (uniform 30% of the time, else towards the Goal).
At every step:

* the agent to move is in ``agents``, is neither terminated nor truncated, and ``agents``,
  ``terminations``, ``truncations``, ``rewards`` and ``infos`` list the same agents;
* its mask (int8, 0/1) is non-empty and equals ``legal_actions()``; every other agent's mask is
  all zero (checked every 16th step);
* its observation lies in its ``Box`` (shape, float32 dtype) and is finite;
* rewards are finite; terminations come for every agent at once;
* at random points (1 step in 64) ``snapshot()`` → JSON → ``restore()`` into a second env gives
  the same snapshot and the same observation and mask.

At the end of a game: either every agent is terminated and the cumulative rewards equal
``rank_rewards(places, teams)`` (in [-1, 1], summing to 0 when the teams are equally large), or
every agent is truncated with reward 0; then ``step(None)`` for each finished agent empties
``agents``. Memory: the process's RSS before and after, and ``tracemalloc``'s memory still
allocated after a probe window of games at the start and another at the end (a leak shows as
growth). A summary table (games, steps, ended/truncated, steps/s, failures per configuration) is
printed at the end; the exit status is 1 if any invariant failed.
"""

from __future__ import annotations

import argparse
import json
import math
import time
import tracemalloc
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

import meadowzoo  # noqa: F401  (registers the games)
from meadowzoo.envs.core.rewards import rank_rewards
from meadowzoo.envs.registry import GAMES, game_module, plugin
from meadowzoo.envs.hase_und_igel.drivers import racing_random

#: the main variants besides every player count (label, game, options)
VARIANTS: tuple[tuple[str, str, dict], ...] = (
    ("hase_und_igel 2p duel", "hase_und_igel", {"num_players": 2, "two_runners": False}),
    ("hase_und_igel 4p teams 2x2", "hase_und_igel", {"num_players": 4, "teams": "2x2"}),
    ("hase_und_igel 6p teams 2x3", "hase_und_igel", {"num_players": 6, "teams": "2x3"}),
    ("hase_und_igel 6p chain+reshuffle", "hase_und_igel",
     {"num_players": 6, "teams": "3x2", "chain_hare_cards": True, "reshuffle_deck": True}),
    ("haste_bock 4p fixed consecutive", "haste_bock",
     {"num_players": 4, "layout": "fixed", "facing": "E", "phase2_rows": "consecutive"}),
)
SNAPSHOT_EVERY = 64  # a snapshot round-trip in one step of this many, on average
OTHERS_EVERY = 16  # the other agents' masks every this many steps


def configurations() -> list[tuple[str, str, dict]]:
    """(label, game, env options) of every game at every player count, then the main variants."""
    out = [(f"{game} {n}p", game, {"num_players": n}) for game in GAMES for n in plugin(game).player_counts]
    return out + list(VARIANTS)


@dataclass
class Tally:
    games: int = 0
    steps: int = 0
    ended: int = 0
    truncated: int = 0
    snapshots: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    def add(self, other: "Tally") -> None:
        for name in ("games", "steps", "ended", "truncated", "snapshots", "seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.failures += other.failures


class SoakFailure(AssertionError):
    pass


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise SoakFailure(message)


def play_checked(env, twin, seed: int, tally: Tally) -> None:
    """One whole random game on ``env`` with every check above (``twin``: an env of the same
    configuration for the snapshot round-trips)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    spaces = {agent: env.observation_space(agent)["observation"] for agent in env.possible_agents}
    shapes = {agent: space.shape for agent, space in spaces.items()}
    policy = racing_random if env.metadata["name"] == "hase_und_igel_v0" else None
    steps = 0
    while True:
        agent = env.agent_selection
        _check(set(env.terminations) == set(env.truncations) == set(env.rewards) == set(env.infos)
               == set(env.agents), "agents and the bookkeeping dicts list different agents")
        _check(agent in env.agents, f"agent_selection {agent!r} is not in agents")
        if env.terminations[agent] or env.truncations[agent]:
            break
        observation = env.observe(agent)
        mask = observation["action_mask"]
        _check(mask.dtype == np.int8 and mask.shape == (env.num_actions,), "mask dtype or shape")
        legal = env.legal_actions()
        _check(bool(legal), f"{agent} is to move but has no legal action")
        _check(np.flatnonzero(mask).tolist() == legal and int(mask.max()) == 1, "mask differs from legal_actions()")
        vector = observation["observation"]  # the Box is unbounded: shape, dtype and finite values
        _check(vector.shape == shapes[agent] and vector.dtype == np.float32 and bool(np.isfinite(vector).all()),
               "observation outside its Box")
        if steps % OTHERS_EVERY == 0:
            for other in env.possible_agents:
                if other != agent:
                    seen = env.observe(other)
                    _check(not seen["action_mask"].any(), f"{other} has actions while {agent} is to move")
                    _check(spaces[other].contains(seen["observation"]), f"{other}'s observation outside its Box")
        if rng.random() < 1 / SNAPSHOT_EVERY:
            _round_trip(env, twin, agent)
            tally.snapshots += 1
        env.step(policy(env, rng) if policy is not None else legal[int(rng.integers(len(legal)))])
        steps += 1
        _check(all(math.isfinite(r) for r in env.rewards.values()), "a reward is not finite")
        ended = list(env.terminations.values())
        _check(all(ended) or not any(ended), "some agents terminated, others not")
    tally.steps += steps
    rewards = [env._cumulative_rewards[a] for a in env.possible_agents]
    if all(env.terminations.values()):
        game = env.game
        _check(game.is_over, "terminated but the game is not over")
        expected = rank_rewards(game.places(), game.teams())
        _check(all(abs(r - e) < 1e-9 for r, e in zip(rewards, expected)), f"rewards {rewards} != rank {expected}")
        _check(all(-1.0 <= r <= 1.0 for r in rewards), f"rewards outside [-1, 1]: {rewards}")
        sizes = Counter(game.teams()).values()
        if len(set(sizes)) == 1:
            _check(abs(sum(rewards)) < 1e-9, f"rewards of equal teams do not sum to 0: {rewards}")
        tally.ended += 1
    else:
        _check(all(env.truncations.values()), "the game stopped neither terminated nor truncated")
        _check(all(r == 0 for r in rewards), "a truncated game pays rewards")
        tally.truncated += 1
    if rng.random() < 0.5:  # a finished game's snapshot round-trips too
        _round_trip(env, twin, env.agent_selection)
        tally.snapshots += 1
    for agent in env.agent_iter(len(env.possible_agents) + 1):
        env.step(None)
    _check(env.agents == [], "agents is not empty after every finished agent stepped None")
    tally.games += 1


def _round_trip(env, twin, agent: str) -> None:
    snapshot = json.loads(json.dumps(env.snapshot()))
    twin.restore(snapshot)
    _check(twin.snapshot() == snapshot, "snapshot → restore → snapshot changed it")
    mine, theirs = env.observe(agent), twin.observe(agent)
    _check(np.array_equal(mine["observation"], theirs["observation"])
           and np.array_equal(mine["action_mask"], theirs["action_mask"]), "a restored env observes differently")


def soak_range(job: tuple[int, int, int, int], progress: int = 0, seconds: float = math.inf) -> dict[str, Tally]:
    """Games ``first``, ``first + stride``, … below ``stop``; a tally per configuration. With
    ``progress``, a line of running totals after every ``progress`` games (a long run that is cut
    short still tells how far it got); no new game starts after ``seconds``."""
    first, stop, stride, seed = job
    begun = time.perf_counter()
    configs = configurations()
    envs: dict[str, tuple] = {}
    tallies = {label: Tally() for label, _, _ in configs}
    for index in range(first, stop, stride):
        if time.perf_counter() - begun > seconds:
            print(f"[soak] time budget of {seconds:.0f} s spent: stopping before game {index}", flush=True)
            break
        label, game, options = configs[index % len(configs)]
        if label not in envs:
            module = game_module(game)
            envs[label] = (module.raw_env(**options), module.raw_env(**options))
        env, twin = envs[label]
        tally = tallies[label]
        started = time.perf_counter()
        try:
            play_checked(env, twin, seed * 1_000_003 + index, tally)
        except Exception as error:  # noqa: BLE001 - every failure is recorded with its game
            tally.failures.append(f"game {index} ({label}, seed {seed * 1_000_003 + index}): "
                                  f"{type(error).__name__}: {error}")
            tally.games += 1
        tally.seconds += time.perf_counter() - started
        done = (index - first) // stride + 1
        if progress and done % progress == 0:
            print(f"[soak] games {first}..{index}: {done} played, {sum(t.steps for t in tallies.values())} steps, "
                  f"{sum(len(t.failures) for t in tallies.values())} failures, "
                  f"{time.perf_counter() - begun:.0f} s, RSS {_rss_kib() / 1024:.1f} MiB", flush=True)
    return tallies


def _rss_kib() -> int:
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def _probe(first: int, stop: int, stride: int, seed: int) -> tuple[dict[str, Tally], int]:
    """:func:`soak_range` under ``tracemalloc``: the tallies and the bytes still allocated after."""
    tracemalloc.start()
    try:
        tallies = soak_range((first, stop, stride, seed))
        retained = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return tallies, retained


def soak(games: int, seed: int, processes: int = 1, probe: int | None = None, progress: int = 0,
         seconds: float = math.inf) -> dict:
    """Play ``games`` games (fewer if the middle part, between the probe windows, runs out of
    ``seconds``); returns the summary (per configuration tallies and memory)."""
    configs = configurations()
    probe = probe if probe is not None else max(len(configs), min(500, games // 100))
    probe = min(probe, games // 2)
    rss_before = _rss_kib()
    started = time.perf_counter()
    totals = {label: Tally() for label, _, _ in configs}
    # probe windows (tracemalloc) at the start and the end; the middle in the worker processes
    head, head_retained = _probe(0, probe, 1, seed)
    middle_jobs = [(probe + k, games - probe, processes, seed) for k in range(processes)]
    if processes > 1:
        from functools import partial

        from meadowzoo.training.processes import worker_pool

        with worker_pool(processes) as pool:
            middle = pool.map(partial(soak_range, progress=progress, seconds=seconds), middle_jobs)
    else:
        middle = [soak_range(middle_jobs[0], progress, seconds)]
    tail, tail_retained = _probe(games - probe, games, 1, seed)
    for part in (head, *middle, tail):
        for label, tally in part.items():
            totals[label].add(tally)
    return {
        "games": sum(t.games for t in totals.values()), "games_asked": games, "seed": seed, "processes": processes, "seconds": time.perf_counter() - started,
        "rss_kib_before": rss_before, "rss_kib_after": _rss_kib(), "probe_games": probe,
        "tracemalloc_retained_first_probe": head_retained, "tracemalloc_retained_last_probe": tail_retained,
        "configurations": {label: vars(t) for label, t in totals.items()},
    }


def table(summary: dict) -> str:
    rows = [f"{'configuration':36} {'games':>7} {'steps':>10} {'ended':>7} {'trunc':>6} {'snaps':>7} "
            f"{'steps/s':>8} {'fail':>5}"]
    for label, t in summary["configurations"].items():
        rate = t["steps"] / t["seconds"] if t["seconds"] else 0.0
        rows.append(f"{label:36} {t['games']:7d} {t['steps']:10d} {t['ended']:7d} {t['truncated']:6d} "
                    f"{t['snapshots']:7d} {rate:8.0f} {len(t['failures']):5d}")
    total = {k: sum(t[k] for t in summary["configurations"].values())
             for k in ("games", "steps", "ended", "truncated", "snapshots")}
    failures = sum(len(t["failures"]) for t in summary["configurations"].values())
    rows.append(f"{'total':36} {total['games']:7d} {total['steps']:10d} {total['ended']:7d} "
                f"{total['truncated']:6d} {total['snapshots']:7d} {'':8} {failures:5d}")
    rows.append(f"wall {summary['seconds']:.0f} s, {summary['processes']} process(es); RSS "
                f"{summary['rss_kib_before'] / 1024:.1f} MiB before, {summary['rss_kib_after'] / 1024:.1f} MiB after; "
                f"tracemalloc retained after {summary['probe_games']} games: "
                f"{summary['tracemalloc_retained_first_probe'] / 1024:.0f} KiB (first probe), "
                f"{summary['tracemalloc_retained_last_probe'] / 1024:.0f} KiB (last probe)")
    for t in summary["configurations"].values():
        rows += [f"FAILED {message}" for message in t["failures"][:5]]
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=_positive, default=1000, help="games in all (default 1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--processes", type=_positive, default=1)
    parser.add_argument("--json", help="also write the summary to this JSON file")
    parser.add_argument("--progress", type=int, default=0, help="print running totals every N games (per process)")
    parser.add_argument("--probe", type=_positive, help="games of each tracemalloc window (default 1%%, ≤ 500)")
    parser.add_argument("--seconds", type=float, default=math.inf,
                        help="time budget of the games between the probe windows (default: none)")
    args = parser.parse_args(argv)
    summary = soak(args.games, args.seed, args.processes, args.probe, args.progress, args.seconds)
    print(table(summary))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(summary, handle, indent=1)
    return 1 if any(t["failures"] for t in summary["configurations"].values()) else 0


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


if __name__ == "__main__":
    raise SystemExit(main())
