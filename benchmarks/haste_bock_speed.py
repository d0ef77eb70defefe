"""Random-play speed of Haste Bock? next to PettingZoo's connect_four_v3, in the same run.

    python benchmarks/haste_bock_speed.py [--seconds 3]

Both envs are the raw (unwrapped) envs, driven by the same loop: ``agent_iter`` -> ``last()`` ->
a random legal action from the mask -> ``step``. Prints steps/s and the ratio.
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def steps_per_second(make, seconds: float, **kwargs) -> float:
    env = make(**kwargs)
    rng = np.random.default_rng(0)
    steps, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the median is reported")
    args = parser.parse_args()
    from pettingzoo.classic import connect_four_v3

    from envs import haste_bock_v0

    results: dict[str, list[float]] = {"connect_four_v3": [], "2": [], "3": [], "4": []}
    for _ in range(args.rounds):  # interleaved, so that a busy machine slows both alike
        results["connect_four_v3"].append(steps_per_second(connect_four_v3.raw_env, args.seconds))
        for players in (2, 3, 4):
            results[str(players)].append(steps_per_second(haste_bock_v0.raw_env, args.seconds, num_players=players))
    c4 = float(np.median(results["connect_four_v3"]))
    print(f"connect_four_v3 raw_env           {c4:9.0f} steps/s (median of {args.rounds})")
    for players in (2, 3, 4):
        hb = float(np.median(results[str(players)]))
        print(f"haste_bock_v0 raw_env, {players} players {hb:9.0f} steps/s  {hb / c4:.2f}x connect four")


if __name__ == "__main__":
    main()
