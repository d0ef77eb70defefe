"""Hase und Igel's observation caches (progress table, memoised deck block, mask memo) against the
reference encoder of the declared layout in the corners random play rarely reaches: progress past
the table, and clones sharing the tables. Every game's encoder is checked against its reference at
every step of random games in tests/core/test_observations.py."""

from __future__ import annotations

import numpy as np

from meadowzoo.envs import hase_und_igel_v0
from tests.core.test_observations import check_every_agent
from tests.hase_und_igel.policies import racing_random


def test_progress_beyond_the_table_and_huge_max_turns():
    env = hase_und_igel_v0.raw_env(num_players=3, max_turns=10**7)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(30):
        env.step(racing_random(env, rng))
    check_every_agent(env)
    snapshot = env.snapshot()
    snapshot["max_turns"] = 3  # restored past the limit: the progress column is capped at 1
    env.restore(snapshot)
    check_every_agent(env)


def test_clones_sharing_the_observation_tables_each_observe_their_own_game():
    """A clone shares the env's tables and memos (deck block, progress, masks): observing the two
    in turn, with different ``max_turns``, must follow each one's own game."""
    rng = np.random.default_rng(4)
    env = hase_und_igel_v0.raw_env(num_players=4, max_turns=900)
    env.reset(seed=4)
    twin = env.clone()
    snapshot = twin.snapshot()
    snapshot["max_turns"] = 1200
    twin.restore(snapshot)
    for _ in range(300):
        for e in (env, twin) if rng.random() < 0.5 else (twin, env):
            if e.terminations[e.agent_selection] or e.truncations[e.agent_selection]:
                return
            check_every_agent(e)
            e.step(racing_random(e, rng))
