"""Issue #16, restore(): every inconsistent state is refused with a ValueError naming the field and
changes nothing; a restored finished game does not pay its final rewards again."""

from __future__ import annotations

import json

import numpy as np
import pytest

from meadowzoo.envs.core.rewards import rank_rewards
from tests.core.cases import GAME_IDS, hooks, raw


def _played(game: str, steps: int | None, seed: int = 3, players: int = 3):
    """An env of ``players`` after ``steps`` steps of seeded play (None: to the end of the game)."""
    env = raw(game, {"num_players": players})()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    policy = hooks(game).policy
    taken = 0
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        if steps is not None and taken == steps:
            break
        env.step(policy(env, rng))
        taken += 1
    return env


def _finished(game: str):
    for seed in range(20):
        env = _played(game, None, seed)
        if env.game.is_over:
            return env
    raise AssertionError("no seeded game ended")


def _refused(env, snapshot: dict, words: str) -> None:
    before = env.snapshot()
    with pytest.raises(ValueError, match=words):
        env.restore(snapshot)
    assert env.snapshot() == before, "a refused snapshot changed the env"


@pytest.mark.parametrize("game", GAME_IDS)
def test_agents_dropping_live_players_are_refused(game):
    """Case: an agents list dropping a live player, with matching cumulative_rewards, was accepted."""
    env = _played(game, 6)
    snapshot = env.snapshot()
    for agents in (["player_0", "player_2"], ["player_1", "player_0", "player_2"],
                   ["player_0", "player_0", "player_1", "player_2"], [["player_0"], "player_1", "player_2"]):
        bad = {**snapshot, "agents": agents}
        if all(isinstance(a, str) for a in agents):
            bad["cumulative_rewards"] = dict.fromkeys(agents, 0.0)
        _refused(env, bad, "agents")


@pytest.mark.parametrize("game", GAME_IDS)
def test_non_finite_or_impossible_rewards_are_refused(game):
    """Case: NaN and inf cumulative rewards were accepted."""
    env = _played(game, 6)
    snapshot = env.snapshot()
    for value in (float("nan"), float("inf"), -float("inf"), 0.5, True, "0"):
        bad = json.loads(json.dumps(snapshot))
        bad["cumulative_rewards"]["player_1"] = value
        _refused(env, bad, "cumulative_rewards")


@pytest.mark.parametrize("game", GAME_IDS)
def test_bad_generator_states_are_value_errors(game):
    """Case: a generator state out of range raised OverflowError."""
    env = _played(game, 4)
    snapshot = env.snapshot()
    rng = snapshot["game"]["rng"]
    bad_states = [
        {**rng, "state": {"state": 2**200, "inc": 5}},
        {**rng, "state": {"state": -1, "inc": 5}},
        {**rng, "state": {"state": 1.5, "inc": 5}},
        {**rng, "uinteger": -1},
        {**rng, "uinteger": 2**70},
        {**rng, "has_uint32": 7},
        {**rng, "has_uint32": True},
        {**rng, "extra": 1},
        {"bit_generator": "PCG64"},
    ]
    for state in bad_states:
        bad = json.loads(json.dumps(snapshot))
        bad["game"]["rng"] = state
        _refused(env, bad, "rng")


@pytest.mark.parametrize("game", GAME_IDS)
def test_unhashable_or_wrongly_typed_values_anywhere_are_value_errors(game):
    """Case: unhashable values raised TypeError. Every field of the snapshot and of its game, in
    turn, replaced by a list, a dict, a nested list and None."""
    env = _played(game, 5)
    snapshot = env.snapshot()
    for replacement in ([["x"]], {"a": [1]}, [], None):
        for key in snapshot:
            if not (key == "last_action" and replacement is None):  # null: no action yet, a valid value
                _refused(env, {**snapshot, key: replacement}, "snapshot")
        for key in snapshot["game"]:
            if snapshot["game"][key] == replacement:  # an empty list or None that the state holds already
                continue
            bad = json.loads(json.dumps(snapshot))
            bad["game"][key] = replacement
            _refused(env, bad, "snapshot|game")
    bad = json.loads(json.dumps(snapshot))
    bad["last_action"] = [["player_0"], 1]
    _refused(env, bad, "last_action")
    for where in ((), ("game",)):  # a field nobody reads is refused too, never silently dropped
        bad = json.loads(json.dumps(snapshot))
        target = bad
        for key in where:
            target = target[key]
        target["extra"] = 0
        _refused(env, bad, "unknown fields")
    bad = json.loads(json.dumps(snapshot))
    bad["options"]["num_players"] = float(bad["options"]["num_players"])  # equal, but not the same JSON
    _refused(env, bad, "options")
    if game == "haste_bock":  # its game's config object too (a fuzz finding)
        bad = json.loads(json.dumps(snapshot))
        bad["game"]["config"]["extra"] = {}
        _refused(env, bad, "config")


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_restored_finished_game_does_not_pay_its_final_rewards_again(game):
    """Case: after restoring a finished game the final rewards were reported again (the rewards
    of the step that ended it). A restored env took no step: its rewards are 0; last() reports
    each agent's cumulative reward once, and an agent that left is gone for good."""
    env = _finished(game)
    final = rank_rewards(env.game.places(), env.game.teams())
    assert any(env.rewards.values())  # the original env: the step that ended the game paid
    env.step(None)  # the first agent collects its reward and leaves
    snapshot = json.loads(json.dumps(env.snapshot()))
    twin = raw(game, {"num_players": 3})()
    twin.restore(snapshot)
    assert twin.rewards == dict.fromkeys(twin.agents, 0.0)
    assert twin.agents == env.possible_agents[1:] and twin.snapshot() == snapshot
    collected = {}
    for agent in twin.agent_iter():
        _, reward, termination, _, _ = twin.last()
        assert termination
        collected[agent] = reward
        twin.step(None)
        assert all(value == 0 for value in twin.rewards.values())
    assert collected == {a: final[i] for i, a in enumerate(env.possible_agents) if i > 0}
    assert twin.agents == []
    # a finished game's snapshot that claims other rewards than the game's ranks is refused
    bad = json.loads(json.dumps(snapshot))
    bad["cumulative_rewards"][bad["agents"][0]] += 1.0
    _refused(twin, bad, "cumulative_rewards")


@pytest.mark.parametrize("game", GAME_IDS)
def test_float32_final_rewards_restore_as_the_exact_rank_rewards(game):
    """The JAX engines' snapshots carry float32 rewards (1/3 rounded): accepted, installed exactly."""
    env = _finished(game)
    snapshot = json.loads(json.dumps(env.snapshot()))
    exact = dict(snapshot["cumulative_rewards"])
    snapshot["cumulative_rewards"] = {a: float(np.float32(r)) + 1e-8 for a, r in exact.items()}
    twin = raw(game, {"num_players": 3})()
    twin.restore(snapshot)
    assert twin._cumulative_rewards == exact


@pytest.mark.parametrize("game", GAME_IDS)
def test_truncated_games_restore_with_any_remaining_agents_and_no_rewards(game):
    env = raw(game, {"num_players": 3}, max_turns=3)()
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    while not env.truncations[env.agent_selection]:
        env.step(hooks(game).policy(env, rng))
    env.step(None)
    snapshot = env.snapshot()
    twin = raw(game, {"num_players": 3}, max_turns=3)()
    twin.restore(snapshot)
    assert twin.snapshot() == snapshot and all(twin.truncations.values())
    bad = {**snapshot, "cumulative_rewards": {a: 1.0 for a in snapshot["agents"]}}
    _refused(twin, bad, "cumulative_rewards")
