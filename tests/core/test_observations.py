"""Every game's fast observation against the plain reference encoder of its declared layout
(:mod:`meadowzoo.envs.core.observation`), for every agent at every step of random games, across
restore (also to another ``max_turns``), clone and reset; and every env docstring's observation
table against the declaration."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from meadowzoo.envs.core.observation import documented_table
from tests.core.cases import CASES, GAME_IDS, hooks, raw


def reference_mask(env, agent: str) -> np.ndarray:
    mask = np.zeros(env.num_actions, dtype=np.int8)
    if agent == env.agent_selection and not (env.terminations[agent] or env.truncations[agent]):
        mask[env.game.legal_actions()] = 1
    return mask


def check_every_agent(env) -> None:
    layout = env.observation_layout
    for seat, agent in enumerate(env.possible_agents):
        observation = env.observe(agent)
        expected = layout.reference(env, seat)
        # float32 rounding of a quotient may differ from the tables' product in the last bit
        np.testing.assert_allclose(observation["observation"], expected, rtol=1e-6, atol=0, err_msg=agent)
        assert np.array_equal(observation["action_mask"], reference_mask(env, agent)), agent
        assert observation["observation"].flags.writeable and observation["action_mask"].flags.writeable


@pytest.mark.parametrize("game, options", CASES)
def test_observations_match_the_reference_through_restore_and_clone(game, options):
    policy = hooks(game).policy
    rng = np.random.default_rng(len(str(options)))
    env = raw(game, options, max_turns=400)()
    for episode in range(2):
        env.reset(seed=episode)
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            check_every_agent(env)
            roll = rng.random()
            if roll < 0.05:  # a restored game, now and then with another max_turns
                snapshot = env.snapshot()
                if roll < 0.01:
                    snapshot["max_turns"] = int(rng.integers(max(1, env.game.turn), 500))
                env.restore(snapshot)
                check_every_agent(env)
            elif roll < 0.08:
                env = env.clone()
                check_every_agent(env)
            # observations handed out are the caller's: scribbling on them changes nothing
            env.observe(env.agent_selection)["observation"][:] = 7
            env.observe(env.agent_selection)["action_mask"][:] = 1
            env.step(policy(env, rng) if rng.random() < 0.7 else int(rng.choice(env.legal_actions())))
        check_every_agent(env)


@pytest.mark.parametrize("game, options", CASES)
def test_declared_blocks_tile_the_observation_space(game, options):
    env = raw(game, options)()
    env.reset(seed=0)
    slices = env.observation_layout.slices(env.game)
    ends = [0] + [part.stop for part in slices.values()]
    assert [part.start for part in slices.values()] == ends[:-1], "blocks must follow each other"
    assert env.observation_space(env.possible_agents[0])["observation"].shape == (ends[-1],)


@pytest.mark.parametrize("game", GAME_IDS)
def test_docstring_table_is_generated_from_the_declaration(game):
    env = raw(game, {})()
    doc = sys.modules[type(env).__module__].__doc__
    assert documented_table(doc) == env.observation_layout.table(), (
        "regenerate with `python -m meadowzoo.envs.core.observation`")
