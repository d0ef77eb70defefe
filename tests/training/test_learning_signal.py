"""A learner starting from random improves against random on Hase und Igel 2p within a short run,
because games cut at ``max_turns`` are scored by the race standing at the cut
(``truncation_scoring="standing"``, issue 15 item 3): with the default ``"draw"`` most random races
end with 0 for both and there is nothing to learn from.

Measured on 300 evaluation games before and after (mean reward of the learner, +1 win … −1 loss;
the standard error of a mean of 300 such rewards is at most 0.058). About 25 s of CPU: in the default suite, because it is the issue's evidence of a learning signal.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from meadowzoo.training.selfplay import SelfPlayEnv  # noqa: E402

OPTIONS = {"num_players": 2, "max_turns": 40, "truncation_scoring": "standing"}
GAMES = 300


def mean_reward(model, games: int = GAMES, seed: int = 10_000) -> float:
    """The learner's mean final reward against random (seat drawn per game), playing the
    model's greedy masked action."""
    env = SelfPlayEnv("hase_und_igel", opponents="random", **OPTIONS)
    total = 0.0
    for game in range(games):
        obs, info = env.reset(seed=seed + game)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
            obs, reward, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
        total += reward
    return total / games


def test_maskable_ppo_from_random_improves_against_random_on_hase_und_igel_2p():
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)  # one thread: the same result on every machine load
    model = MaskablePPO("MlpPolicy", SelfPlayEnv("hase_und_igel", opponents="random", **OPTIONS), seed=0,
                        n_steps=512, batch_size=128, n_epochs=4, learning_rate=1e-3,
                        policy_kwargs={"net_arch": [64, 64]})
    before = mean_reward(model)
    model.learn(6144)
    after = mean_reward(model)
    print(f"mean reward against random over {GAMES} games: before {before:+.3f}, after {after:+.3f}")
    # 0.35 is six standard errors of either mean: not reached by chance, nor by a learner that
    # did not learn (random play itself scores about 0 here)
    assert after - before > 0.35 and after > 0.3
