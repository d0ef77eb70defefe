"""The env's own settings (``max_turns``, ``truncation_scoring``) across ``restore`` and ``reset``,
the end of a game cut by ``max_turns``, copies of states that a wrapper made, and option errors:
every game, through the conformance cases' first configuration of each game."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from meadowzoo.envs import game_module
from tests.core.cases import GAME_IDS


def _play_until(env, stop, seed: int = 0, limit: int = 100_000) -> None:
    """Random legal moves until ``stop(env)`` (or the game ends)."""
    rng = np.random.default_rng(seed)
    for _ in range(limit):
        if stop(env) or all(env.terminations.values()) or all(env.truncations.values()):
            return
        env.step(int(rng.choice(env.legal_actions())))


@pytest.mark.parametrize("game", GAME_IDS)
def test_reset_goes_back_to_the_constructor_settings_after_restoring_a_snapshot(game):
    """A snapshot's max_turns and truncation_scoring hold for its game only (docs/environments.md)."""
    module = game_module(game)
    source = module.raw_env(num_players=2)
    source.reset(seed=0)
    env = module.raw_env(num_players=2, max_turns=40, truncation_scoring="standing")
    env.reset(seed=0)
    env.restore(source.snapshot())
    assert (env.max_turns, env.truncation_scoring) == (source.max_turns, "draw")  # the snapshot's game
    env.reset(seed=1)
    assert (env.max_turns, env.truncation_scoring) == (40, "standing")
    assert env.snapshot()["max_turns"] == 40


@pytest.mark.parametrize("game", GAME_IDS)
def test_nothing_is_legal_once_max_turns_cuts_the_game(game):
    env = game_module(game).raw_env(num_players=2, max_turns=6)
    env.reset(seed=3)
    _play_until(env, lambda e: False)
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.legal_actions() == []
    assert all(env.observe(a)["action_mask"].sum() == 0 for a in env.possible_agents)
    while env.agents:  # every agent leaves with a dead step
        env.step(None)
    assert all(env.observe(a)["action_mask"].sum() == 0 for a in env.possible_agents)


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_game_ended_by_an_illegal_move_in_the_wrapper_pickles_and_deep_copies(game):
    """PettingZoo's TerminateIllegalWrapper ends the game outside the rules (−1 for the mover): no
    snapshot holds that state, so snapshot() says so, while pickling and deepcopy keep it as it is."""
    env = game_module(game).env(num_players=2)
    env.reset(seed=0)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    env.step(illegal)  # PettingZoo logs "Illegal move made, game terminating"
    assert env.rewards[agent] == -1
    with pytest.raises(ValueError, match="no snapshot of this state"):
        env.unwrapped.snapshot()
    for twin in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        assert twin.terminations == env.terminations and twin.truncations == env.truncations
        assert twin.unwrapped._cumulative_rewards == env.unwrapped._cumulative_rewards
        assert twin.agent_selection == env.agent_selection
        assert twin.unwrapped.game.to_dict() == env.unwrapped.game.to_dict()


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_pickled_env_deals_the_same_next_game_as_the_original(game):
    """The seed generator travels with the copy: an unseeded reset() of both deals the same game."""
    env = game_module(game).raw_env(num_players=2)
    env.reset(seed=11)
    env.step(env.legal_actions()[0])
    twin = pickle.loads(pickle.dumps(env))
    assert twin.snapshot() == env.snapshot()
    env.reset()
    twin.reset()
    assert twin.snapshot() == env.snapshot()


@pytest.mark.parametrize("game", GAME_IDS)
def test_an_unknown_option_is_a_value_error_naming_every_option_the_env_takes(game):
    with pytest.raises(ValueError, match="unknown option") as caught:
        game_module(game).raw_env(bogus=1)
    for setting in ("max_turns", "truncation_scoring", "render_mode", "num_players"):
        assert setting in str(caught.value)


@pytest.mark.parametrize("game", GAME_IDS)
def test_agent_iter_and_clone_before_reset_say_to_reset(game):
    env = game_module(game).raw_env(num_players=2)
    for call in (env.agent_iter, env.clone):
        with pytest.raises(RuntimeError, match="reset"):
            call()


@pytest.mark.parametrize("game", GAME_IDS)
def test_before_reset_the_raw_env_has_no_agents(game):
    env = game_module(game).raw_env(num_players=2)
    assert env.agents == [] and env.num_agents == 0
    assert env.rewards == {} and env.terminations == {} and env.truncations == {}
    env.reset(seed=0)
    assert env.agents == env.possible_agents


@pytest.mark.parametrize("game", GAME_IDS)
def test_max_cycles_is_refused_with_a_pointer_to_max_turns(game):
    with pytest.raises(ValueError, match="max_turns, counted in player turns"):
        game_module(game).raw_env(num_players=2, max_cycles=50)


@pytest.mark.parametrize("game", GAME_IDS)
@pytest.mark.parametrize("make", ["raw_env", "env"])
def test_reset_options_snapshot_continues_from_the_snapshot(game, make):
    module = game_module(game)
    source = module.raw_env(num_players=2)
    source.reset(seed=5)
    _play_until(source, lambda e: e.game.turn >= 4)
    env = getattr(module, make)(num_players=2)
    env.reset(seed=9, options={"snapshot": source.snapshot()})
    assert env.unwrapped.snapshot() == source.snapshot()
    assert env.agent_selection == source.agent_selection
    # the next reset deals from the seed generator again, not from the snapshot
    env.reset(seed=5)
    fresh = module.raw_env(num_players=2)
    fresh.reset(seed=5)
    assert env.unwrapped.snapshot() == fresh.snapshot()


@pytest.mark.parametrize("game", GAME_IDS)
def test_reset_options_a_bad_snapshot_needs_a_reset_and_other_keys_are_ignored(game):
    env = game_module(game).raw_env(num_players=2)
    env.reset(seed=0)
    before = env.snapshot()
    with pytest.raises(ValueError, match="reset options must be None or a dict"):
        env.reset(seed=1, options=["snapshot"])
    assert env.snapshot() == before  # refused before anything changed
    with pytest.raises(ValueError, match="version"):
        env.reset(seed=1, options={"snapshot": dict(before, version=99)})
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    # PettingZoo's api_test resets with options={"options": 1}: other keys deal a new game as without them
    env.reset(seed=1, options={"options": 1})
    fresh = game_module(game).raw_env(num_players=2)
    fresh.reset(seed=1)
    assert env.snapshot() == fresh.snapshot()


@pytest.mark.parametrize("game", GAME_IDS)
@pytest.mark.parametrize("action", [-1, 10**6])
def test_the_wrapped_env_refuses_an_action_outside_the_space_with_a_value_error(game, action):
    env = game_module(game).env(num_players=2)
    env.reset(seed=0)
    before = env.unwrapped.snapshot()
    with pytest.raises(ValueError, match="outside the action space"):
        env.step(action)
    assert env.unwrapped.snapshot() == before and env.agents == env.possible_agents
