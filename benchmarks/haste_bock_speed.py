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
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    from pettingzoo.classic import connect_four_v3

    from envs import haste_bock_v0

    c4 = steps_per_second(connect_four_v3.raw_env, args.seconds)
    print(f"connect_four_v3 raw_env          {c4:9.0f} steps/s")
    for players in (2, 3, 4):
        hb = steps_per_second(haste_bock_v0.raw_env, args.seconds, num_players=players)
        print(f"haste_bock_v0 raw_env {players} players  {hb:9.0f} steps/s  ({hb / c4:.2f}x connect four)")
    c4_again = steps_per_second(connect_four_v3.raw_env, args.seconds)
    print(f"connect_four_v3 raw_env (again)  {c4_again:9.0f} steps/s")


if __name__ == "__main__":
    main()
