"""Exact resumption of SB3 training: ``SelfPlayEnv.episode_record`` / ``replay_episode`` rebuild
a game in progress exactly (opponents, their generators, the view's own generator), the pool can be
set back to the snapshots of an episode's start, and :mod:`meadowzoo.training.resume` carries SB3's
between-rollout state through a checkpoint. The end-to-end test (a resumed run trains exactly as an
uninterrupted one) is in ``test_train_resume.py``."""

from __future__ import annotations

import json

import numpy as np
import pytest

from meadowzoo.training.pool import OpponentPool
from meadowzoo.training.selfplay import SelfPlayEnv


def play(env: SelfPlayEnv, steps: int, rng: np.random.Generator) -> list:
    """``steps`` random legal learner actions (fewer if the episode ends); the observations seen."""
    seen = []
    for _ in range(steps):
        legal = np.flatnonzero(env.action_masks())
        if not len(legal):
            break
        observation, _, terminated, truncated, _ = env.step(int(legal[rng.integers(len(legal))]))
        seen.append(observation)
        if terminated or truncated:
            break
    return seen


@pytest.mark.parametrize("game, opponents, options", [
    ("volle_wolle", "random,greedy,mcts:8", {"num_players": 3}),
    ("hase_und_igel", "random,strong", {"num_players": 2, "max_turns": 300}),
    ("haste_bock", "random,greedy", {"num_players": 2}),
])
def test_a_replayed_episode_goes_on_exactly_as_the_original(game, opponents, options):
    """Mid-game, a fresh env replaying the record is in the same state (observation, mask, game
    snapshot with its generator), and the same actions then give the same game, opponents' moves
    (their generators: mcts draws from its own) included."""
    original = SelfPlayEnv(game, opponents=opponents, **options)
    original.reset(seed=3)
    play(original, 6, np.random.default_rng(0))
    record = original.episode_record()
    assert json.loads(json.dumps(record)) == record  # a checkpoint stores it as JSON
    twin = SelfPlayEnv(game, opponents=opponents, **options)
    twin.reset(seed=99)  # another game first: the replay must not depend on the env's past
    observation = twin.replay_episode(json.loads(json.dumps(record)))
    np.testing.assert_array_equal(observation, original._observation())
    np.testing.assert_array_equal(twin.action_masks(), original.action_masks())
    assert twin.raw.snapshot() == original.raw.snapshot()
    assert twin.learner == original.learner
    assert twin.np_random.bit_generator.state == original.np_random.bit_generator.state
    for a, b in zip(play(original, 40, np.random.default_rng(1)), play(twin, 40, np.random.default_rng(1))):
        np.testing.assert_array_equal(a, b)
    assert twin.raw.snapshot() == original.raw.snapshot()
    # and the next episodes too (the view's generator draws them)
    original.reset()
    twin.reset()
    assert twin.raw.snapshot() == original.raw.snapshot() and twin.learner == original.learner


def test_the_record_of_a_first_episode_replays_without_the_reset_seed():
    """The record keeps the generator after the reset's seeding, so the seed is not needed again."""
    env = SelfPlayEnv("volle_wolle", opponents="random", num_players=2)
    first, _ = env.reset(seed=12)
    record = env.episode_record()
    assert record["actions"] == []
    other = SelfPlayEnv("volle_wolle", opponents="random", num_players=2)
    np.testing.assert_array_equal(other.replay_episode(record), first)


@pytest.mark.parametrize("damage, message", [
    (lambda r: r.pop("actions"), "keys rng, pool, options, actions"),
    (lambda r: r.update(actions=[1.5]), "list of integers"),
    (lambda r: r.update(actions=[True]), "list of integers"),
    (lambda r: r.update(pool=[3]), "list of snapshot paths"),
    (lambda r: r.update(rng={"bit_generator": "MT19937"}), "rng is no state"),
    (lambda r: r.update(options={"seat": 7}), "seat"),
    (lambda r: r.update(pool=["/nonexistent/snapshot.pt"]), "snapshot.pt"),
])
def test_a_bad_record_is_refused_and_leaves_the_generator_alone(damage, message):
    env = SelfPlayEnv("volle_wolle", opponents="random", num_players=2)
    env.reset(seed=1)
    play(env, 3, np.random.default_rng(0))
    record = env.episode_record()
    damage(record)
    generator = env.np_random.bit_generator.state
    with pytest.raises((ValueError, OSError), match=message):
        env.replay_episode(record)
    assert env.np_random.bit_generator.state == generator
    assert env.pool.snapshot_paths() == []


def test_actions_past_the_end_of_the_episode_are_refused():
    env = SelfPlayEnv("volle_wolle", opponents="random", num_players=2)
    env.reset(seed=1)
    while play(env, 1, np.random.default_rng(0)) and not env._finished():
        pass
    record = env.episode_record()
    record["actions"].append(record["actions"][-1])
    with pytest.raises(ValueError, match="after its episode ended"):
        SelfPlayEnv("volle_wolle", opponents="random", num_players=2).replay_episode(record)


def test_the_pool_is_set_back_to_the_snapshots_of_the_episodes_start(tmp_path):
    """An episode drawn while the pool held two snapshots replays with those two, although the pool
    holds a third by then; afterwards it holds the three again."""
    from sb3_contrib import MaskablePPO

    from meadowzoo.agents.policy import save_policy

    env = SelfPlayEnv("volle_wolle", opponents="random", num_players=2)
    model = MaskablePPO("MlpPolicy", env, seed=0, policy_kwargs={"net_arch": [8]})
    paths = [str(save_policy(model, tmp_path / f"s{i}.pt", "volle_wolle", {"num_players": 2})) for i in range(3)]
    pool = OpponentPool("volle_wolle", "random", fixed_share=0.0)
    for path in paths[:2]:
        pool.add_snapshot(path)
    original = SelfPlayEnv("volle_wolle", opponents=pool, num_players=2)
    original.reset(seed=4)
    record = original.episode_record()
    assert record["pool"] == paths[:2]
    pool.add_snapshot(paths[2])
    twin_pool = OpponentPool("volle_wolle", "random", fixed_share=0.0)
    for path in paths:
        twin_pool.add_snapshot(path)
    twin = SelfPlayEnv("volle_wolle", opponents=twin_pool, num_players=2)
    twin.replay_episode(record)
    opponent = next(iter(twin.opponents.values()))
    assert opponent.name == next(iter(original.opponents.values())).name  # not the third snapshot
    assert twin_pool.snapshot_paths() == paths


def test_set_snapshots_keeps_loaded_policies_and_the_newest():
    pool = OpponentPool("volle_wolle", "random", max_snapshots=2)
    pool.snapshots = [("a", lambda: "A"), ("b", lambda: "B")]
    held = dict(pool.snapshots)
    pool.set_snapshots(["b", "a"])
    assert pool.snapshot_paths() == ["b", "a"] and dict(pool.snapshots)["a"] is held["a"]
    pool.set_snapshots([])
    assert pool.snapshot_paths() == []
    pool.snapshots = [("a", lambda: "A"), ("b", lambda: "B")]
    pool.max_snapshots = 1
    pool.set_snapshots(["b", "a"])
    assert pool.snapshot_paths() == ["a"]  # the newest one that fits


def test_resume_module_carries_sb3s_state_between_rollouts():
    """``env_state`` after a rollout, replayed into a new model's envs by ``restore_env_state``:
    the same last observations, episode starts and logged episodes."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from meadowzoo.training.resume import ReplayMonitor, env_state, restore_env_state

    def build():
        vec = DummyVecEnv([lambda: ReplayMonitor(SelfPlayEnv("volle_wolle", opponents="random,greedy",
                                                             num_players=2))] * 2)
        return MaskablePPO("MlpPolicy", vec, seed=0, n_steps=64, batch_size=32, policy_kwargs={"net_arch": [8]})

    model = build()
    assert env_state(model) is None  # before the first rollout
    model.learn(256)
    saved = json.loads(json.dumps(env_state(model)))
    assert len(saved["ep_info_buffer"]) >= 1
    resumed = build()
    assert "replayed the 2 envs" in restore_env_state(resumed, saved)
    np.testing.assert_array_equal(resumed._last_obs, model._last_obs)
    assert resumed._last_obs.dtype == model._last_obs.dtype
    np.testing.assert_array_equal(resumed._last_episode_starts, model._last_episode_starts)
    assert list(resumed.ep_info_buffer) == list(model.ep_info_buffer)
    # another number of envs: nothing replayed, SB3 starts fresh games
    fewer = MaskablePPO("MlpPolicy", DummyVecEnv([lambda: ReplayMonitor(SelfPlayEnv("volle_wolle", num_players=2))]),
                        seed=0, n_steps=64, batch_size=32, policy_kwargs={"net_arch": [8]})
    assert "made with 2 env processes" in restore_env_state(fewer, saved) and fewer._last_obs is None
    assert "no env records" in restore_env_state(fewer, None)
    broken = dict(saved, records=[dict(saved["records"][0], pool=["/gone.pt"]), saved["records"][1]])
    with pytest.raises(ValueError, match="env 0: .*gone.pt"):
        restore_env_state(build(), broken)
