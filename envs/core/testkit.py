"""Reusable checks for meadowzoo environments (used by every game's tests; usable for new games).

``env_fn(**overrides)`` below is any callable returning a fresh *raw* env of the configuration
under test (``render_mode`` is passed through where rendering is checked).

* :func:`check_pettingzoo_api` — PettingZoo's ``api_test``, ``seed_test``, ``render_test``
  (ansi and rgb_array) and pickling.
* :func:`play_random_games` — many whole games with invariant checks at every step
  (PettingZoo's own tests stop after one game).
* :func:`check_snapshots` — ``snapshot()`` → JSON → ``restore()`` at every step reproduces
  observations, masks, the next step and the rest of the game.
* :func:`check_clone` — a clone is identical and independent.
* :func:`playthrough` — a seeded game's full text trace, to diff against a committed golden file.
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pettingzoo.test import api_test, render_test, seed_test

Policy = Callable[[Any, np.random.Generator], int]


def random_policy(env: Any, rng: np.random.Generator) -> int:
    """Uniform choice among the legal actions of the agent to move."""
    legal = env.legal_actions()
    return legal[int(rng.integers(len(legal)))]


# ---- PettingZoo's own checks ------------------------------------------------------------------------
def check_pettingzoo_api(env_fn: Callable[..., Any], wrapped_fn: Callable[..., Any], cycles: int = 300) -> None:
    """api_test (raw and wrapped), seed_test, render_test for ansi and rgb_array, pickling."""
    api_test(env_fn(), num_cycles=cycles)
    api_test(wrapped_fn(), num_cycles=cycles)
    seed_test(wrapped_fn, num_cycles=cycles)
    render_test(env_fn, custom_tests={"ansi": lambda text: isinstance(text, str) and len(text) > 40})
    env = env_fn()
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(5):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        env.step(random_policy(env, rng))
    twin = pickle.loads(pickle.dumps(env))
    assert twin.snapshot() == env.snapshot(), "pickling changed the state"


# ---- random simulation ------------------------------------------------------------------------------
@dataclass
class RandomPlayStats:
    games: int = 0
    terminated: int = 0
    truncated: int = 0
    steps: int = 0
    final_rewards: list[dict[str, float]] = field(default_factory=list)


def play_random_games(
    env_fn: Callable[[], Any],
    games: int,
    seed: int,
    invariant: Callable[[Any], None] | None = None,
    policy: Policy = random_policy,
    max_steps: int = 100_000,
) -> RandomPlayStats:
    """Play ``games`` whole games on the raw env checking at every step:

    * the agent to move has a non-empty mask equal to ``legal_actions()``; all others' masks are 0;
    * observations lie in the observation space (the mover's at every step, everybody's at every
      eighth step, which keeps 1,000-game runs affordable);
    * every game ends (termination) or truncates within ``max_steps`` AEC steps;
    * on termination the final rewards sum to 0 (equal team sizes) and lie in [−1, 1];
    * ``invariant(env)`` (game-specific checks) holds after every step.
    """
    stats = RandomPlayStats()
    rng = np.random.default_rng(seed)
    env = env_fn()
    space = None
    for game in range(games):
        env.reset(seed=seed * 100_003 + game)
        if space is None:
            space = {agent: env.observation_space(agent) for agent in env.possible_agents}
        steps = 0
        while True:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                break
            _check_masks(env, agent, space, every_observation=steps % 8 == 0)
            env.step(policy(env, rng))
            steps += 1
            if invariant is not None:
                invariant(env)
            assert steps < max_steps, f"game {game} did not end within {max_steps} steps"
        stats.games += 1
        stats.steps += steps
        if all(env.terminations.values()):
            stats.terminated += 1
            rewards = dict(env._cumulative_rewards)
            assert abs(sum(rewards.values())) < 1e-9, f"final rewards do not sum to 0: {rewards}"
            assert all(-1.0 <= r <= 1.0 for r in rewards.values()), rewards
            stats.final_rewards.append(rewards)
        else:
            assert all(env.truncations.values()), "a game stopped without ending or truncating"
            stats.truncated += 1
            assert all(v == 0 for v in env._cumulative_rewards.values()), "truncation must give 0"
        for other in env.possible_agents:
            assert not env.observe(other)["action_mask"].any(), "a finished game still offers actions"
    return stats


def _check_masks(env: Any, agent: str, space: dict[str, Any], every_observation: bool) -> None:
    legal = env.legal_actions()
    assert legal, f"{agent} is to move but has no legal action"
    observation = env.observe(agent)
    assert list(np.flatnonzero(observation["action_mask"])) == list(legal), "mask differs from legal_actions()"
    assert space[agent].contains(observation), f"observation of {agent} outside its space"
    for other in env.possible_agents:
        if other != agent:
            assert not env.action_mask(other).any(), f"{other} is not to move but its mask is not empty"
            if every_observation:
                observation = env.observe(other)
                assert not observation["action_mask"].any()
                assert space[other].contains(observation), f"observation of {other} outside its space"


# ---- snapshots and clones ---------------------------------------------------------------------------
def _observations(env: Any) -> list[tuple[bytes, bytes]]:
    result = []
    for agent in env.possible_agents:
        observation = env.observe(agent)
        result.append((observation["observation"].tobytes(), observation["action_mask"].tobytes()))
    return result


def check_snapshots(env_fn: Callable[[], Any], games: int, seed: int, policy: Policy = random_policy) -> int:
    """At every step of ``games`` games: restore the JSON snapshot into a fresh env and check that
    observations and masks of every agent agree, that the same action leads to the same next
    state, and (once per game, at a random step) that the whole rest of the game is identical.
    Returns the number of steps checked."""
    rng = np.random.default_rng(seed)
    env, twin = env_fn(), env_fn()
    checked = 0
    for game in range(games):
        env.reset(seed=seed + game)
        fork_at = int(rng.integers(1, 60))
        step = 0
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            snapshot = json.loads(json.dumps(env.snapshot()))
            twin.restore(snapshot)
            assert twin.snapshot() == env.snapshot(), "restore(snapshot()) is not the same state"
            assert _observations(twin) == _observations(env), "observations differ after restore"
            assert twin.agent_selection == env.agent_selection
            action = policy(env, rng)
            if step == fork_at:
                _play_in_lockstep(env.clone(), twin, rng)
                twin.restore(snapshot)
            twin.step(action)
            env.step(action)
            assert twin.snapshot() == env.snapshot(), "the same action from a restored state diverged"
            checked += 1
            step += 1
    return checked


def _play_in_lockstep(a: Any, b: Any, rng: np.random.Generator) -> None:
    """Play both envs to the end with the same actions, checking they never differ."""
    while not (a.terminations[a.agent_selection] or a.truncations[a.agent_selection]):
        assert _observations(a) == _observations(b)
        action = random_policy(a, rng)
        a.step(action)
        b.step(action)
    assert a.snapshot() == b.snapshot()
    assert a._cumulative_rewards == b._cumulative_rewards


def check_clone(env_fn: Callable[[], Any], seed: int, steps: int = 30) -> None:
    """A clone starts identical, follows the same actions identically, and changing it leaves the
    original untouched."""
    rng = np.random.default_rng(seed)
    env = env_fn()
    env.reset(seed=seed)
    for _ in range(steps):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            return
        env.step(random_policy(env, rng))
    before = env.snapshot()
    twin = env.clone()
    assert twin.snapshot() == before
    _play_in_lockstep(twin, env.clone(), rng)
    assert env.snapshot() == before, "playing a clone changed the original"


def check_bad_snapshots(env_fn: Callable[[], Any], corruptions: dict[str, Callable[[dict], None]]) -> None:
    """Each corruption of a valid snapshot must raise ValueError naming the field given as key,
    and must leave the env unchanged."""
    env = env_fn()
    env.reset(seed=11)
    rng = np.random.default_rng(11)
    for _ in range(10):
        env.step(random_policy(env, rng))
    good = env.snapshot()
    for field_name, corrupt in corruptions.items():
        bad = json.loads(json.dumps(good))
        corrupt(bad)
        try:
            env.restore(bad)
        except ValueError as error:
            assert field_name in str(error), f"error for {field_name!r} does not name it: {error}"
        else:
            raise AssertionError(f"corrupted {field_name!r} was accepted")
        assert env.snapshot() == good, f"a rejected snapshot ({field_name}) changed the env"


# ---- golden playthrough -------------------------------------------------------------------------------
def playthrough(env_fn: Callable[[], Any], seed: int, max_steps: int = 400) -> str:
    """A seeded game's trace: every decision with its legal actions, the chosen action and the
    state summary after it. Deterministic given the seed."""
    env = env_fn()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    lines = [f"# {env.metadata['name']} options={json.dumps(env.options, sort_keys=True)} seed={seed}"]
    for step in range(max_steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        legal = env.legal_actions()
        action = legal[int(rng.integers(len(legal)))]
        lines.append(f"step {step} {agent} legal={legal}")
        lines.append(f"  action {action} = {env.action_to_string(action)}")
        env.step(action)
        state = {k: v for k, v in env.snapshot()["game"].items() if k != "rng"}  # the generator is noise here
        lines.append("  state " + json.dumps(state, sort_keys=True))
    lines.append(f"end terminations={env.terminations} truncations={env.truncations} "
                 f"rewards={env._cumulative_rewards}")
    return "\n".join(lines) + "\n"
