"""Volle Wolle raw_env random-play speed, side by side with PettingZoo's connect_four_v3 raw_env.

Both envs run the same loop (``agent_iter`` → ``last()`` → a random legal action from the mask →
``step``); time is the process's CPU time, the runs are interleaved and the best of ``--repeats``
is kept for each, so that other work on a shared machine hurts neither side more. Run: ``python -m benchmarks.volle_wolle_speed``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def steps_per_second(env, steps: int, seed: int = 0) -> float:
    random = np.random.default_rng(seed).random  # cheapest uniform pick: the loop is timed too
    env.reset(seed=seed)
    done = 0
    start = time.process_time()
    while done < steps:
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            if termination or truncation:
                action = None
            else:
                legal = observation["action_mask"].nonzero()[0]
                action = int(legal[int(random() * len(legal))])
            env.step(action)
            done += 1
        env.reset()
    return done / (time.process_time() - start)


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    from pettingzoo.classic import connect_four_v3

    from envs import volle_wolle_v0

    envs = {"connect_four_v3 raw": connect_four_v3.raw_env()}
    for n in (2, 4, 6):
        envs[f"volle_wolle_v0 raw, {n} players"] = volle_wolle_v0.raw_env(num_players=n)
    best = dict.fromkeys(envs, 0.0)
    for _ in range(args.repeats):
        for name, env in envs.items():
            best[name] = max(best[name], steps_per_second(env, args.steps))
    base = best["connect_four_v3 raw"]
    for name, rate in best.items():
        print(f"{name:34s} {rate:10,.0f} steps/s  {rate / base:5.2f}x connect four")
    return best


if __name__ == "__main__":
    main()
