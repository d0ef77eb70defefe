"""The fast observation (byte tables, memoised deck block, progress table, mask memo) against a plain
encoding written from the module docstring's table, for every agent at every step of random games,
across restore (also to another ``max_turns``), clone and reset."""

from __future__ import annotations

import numpy as np
import pytest

from meadowzoo.envs import hase_und_igel_v0
from meadowzoo.envs.hase_und_igel import data
from tests.hase_und_igel.policies import racing_random

CONFIGS = {
    "2p-two-runners": {"num_players": 2},
    "2p-duel": {"num_players": 2, "two_runners": False},
    "4p": {"num_players": 4},
    "6p": {"num_players": 6},
    "4p-teams-2x2": {"num_players": 4, "teams": "2x2"},
    "6p-teams-3x2-variants": {"num_players": 6, "teams": "3x2", "chain_hare_cards": True, "reshuffle_deck": True},
}


def reference_observation(env, agent: str) -> np.ndarray:
    """The observation of ``agent`` as the docstring specifies it, float by float."""
    game = env.game
    n, rpp, runners = game.num_agents, game.rpp, game.num_runners
    seat = env.possible_agents.index(agent)
    order = [(seat + k) % n for k in range(n)]
    values: list[float] = []
    for p in order:
        for r in range(p * rpp, p * rpp + rpp):
            one_hot = [0.0] * (data.GOAL + 1)
            one_hot[game.pos[r]] = 1.0
            values += one_hot
            values += [game.eat[r], game.miss[r], game.payout[r]]
            values += [game.race_position(r) / runners, game.place[r] / runners]
    for p in order:
        values += [game.carrots[p] / 100, game.lettuces[p] / game.start_lettuces,
                   game.team_of[p] == game.team_of[seat], p == game.current_agent]
    kinds = len(data.CARD_KINDS)
    for slot in range(12):
        cells = [0.0] * (kinds + 1)
        if slot < len(game.deck):
            cells[game.deck[slot] if slot >= game.known_from else kinds] = 1.0
        values += cells
    unseen = [0.0] * kinds
    for card in game.deck[: game.known_from]:
        unseen[card] += 0.5
    values += unseen
    last = [0.0] * kinds
    if game.last_card >= 0:
        last[game.last_card] = 1.0
    values += last
    decision = [0.0] * 4
    if not game.over:
        decision[game.pending] = 1.0
    values += decision
    card_runner = [0.0] * rpp
    if game.card_runner >= 0:
        card_runner[game.card_runner % rpp] = 1.0
    values += card_runner
    values.append(min(1.0, game.turns / env.max_turns))
    return np.array(values, dtype=np.float32)


def reference_mask(env, agent: str) -> np.ndarray:
    mask = np.zeros(env.num_actions, dtype=np.int8)
    if agent == env.agent_selection and not (env.terminations[agent] or env.truncations[agent]):
        mask[env.game.legal_actions()] = 1
    return mask


def check_every_agent(env) -> None:
    for agent in env.possible_agents:
        observation = env.observe(agent)
        expected = reference_observation(env, agent)
        # float32 rounding of a quotient may differ from the tables' product in the last bit
        np.testing.assert_allclose(observation["observation"], expected, rtol=1e-6, atol=0)
        assert np.array_equal(observation["action_mask"], reference_mask(env, agent)), agent
        assert observation["observation"].flags.writeable and observation["action_mask"].flags.writeable


@pytest.mark.parametrize("config", CONFIGS)
def test_observations_match_the_reference_through_restore_and_clone(config):
    rng = np.random.default_rng(len(config))
    env = hase_und_igel_v0.raw_env(**CONFIGS[config], max_turns=400)
    for game in range(8):
        env.reset(seed=game)
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            check_every_agent(env)
            roll = rng.random()
            if roll < 0.05:  # a restored game, now and then with another max_turns
                snapshot = env.snapshot()
                if roll < 0.01:
                    snapshot["max_turns"] = int(rng.integers(max(1, env.game.turns), 500))
                env.restore(snapshot)
                check_every_agent(env)
            elif roll < 0.08:
                env = env.clone()
                check_every_agent(env)
            # observations handed out are the caller's: scribbling on them changes nothing
            env.observe(env.agent_selection)["observation"][:] = 7
            env.observe(env.agent_selection)["action_mask"][:] = 1
            env.step(racing_random(env, rng) if rng.random() < 0.7 else int(rng.choice(env.legal_actions())))
        check_every_agent(env)


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
