"""Run by tests/jax/test_train_jax_devices.py in a fresh process (the CPU device count must be set
before JAX's first operation): the compiled trainer data-parallel on two CPU devices. Exits
non-zero with a message on the first failed check; prints what it checked."""

from __future__ import annotations

import sys
import tempfile

import meadowzoo.jax

assert meadowzoo.jax.use_cpu_devices(2) == 2, "JAX did not start with two CPU devices"

import jax  # noqa: E402
import numpy as np  # noqa: E402

from meadowzoo.training import jax_checkpoints  # noqa: E402
from meadowzoo.training.jax_config import jax_config_for  # noqa: E402
from meadowzoo.training.jax_ppo import SelfPlayPPO  # noqa: E402

SMALL = dict(num_envs=16, num_steps=24, num_minibatches=2, opponent_slots=4, population=4, snapshot_min_updates=1)


def leaves(tree):
    return [np.asarray(x) for x in jax.tree_util.tree_leaves(jax.device_get(tree))]


def same(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(leaves(a), leaves(b), strict=True))


env = meadowzoo.jax.make("volle_wolle", num_players=2)
trainer = SelfPlayPPO(env, jax_config_for("volle_wolle", devices=2, **SMALL))
runner = trainer.setup(0)
assert runner.seat.shape == (2, 8), f"each device holds half the games, got seats {runner.seat.shape}"
runs = [runner]
for _ in range(3):
    runner, metrics = trainer.update(runner)
    runs.append(runner)
metrics = jax.device_get(metrics)
for name in ("policy_loss", "value_loss", "entropy", "approx_kl", "learner_elo"):
    assert np.all(np.isfinite(metrics[name])), f"metric {name} is not finite: {metrics[name]}"
# what every device holds a copy of is the same on both: one network, one optimizer, one population
for name in ("params", "opt_state", "population", "key", "updates", "learner_steps"):
    for leaf in leaves(getattr(runner, name)):
        assert np.array_equal(leaf[0], leaf[1]), f"the devices' copies of {name} differ"
for name in ("games_finished", "mean_reward", "learner_elo", "policy_loss"):
    assert np.array_equal(metrics[name][0], metrics[name][1], equal_nan=True), f"metric {name} differs between devices"
assert not same(runs[1].params, runs[3].params), "the network did not change"
print("copies identical on both devices; metrics finite")

# the devices play different games (their keys differ)
games = jax.device_get(runner.games.observation)
assert not np.array_equal(games[0], games[1]), "both devices play the same games"

# same seed, same run; other seed, other run
again = trainer.setup(0)
for _ in range(3):
    again, _ = trainer.update(again)
assert same(again, runner), "the same seed gave another run"
other, _ = trainer.update(trainer.setup(1))
assert not same(other.params, runs[1].params), "another seed gave the same run"
print("same seed same run")

# the ordinary form round-trips, and a checkpoint of it resumes exactly
assert same(trainer.scattered(trainer.gathered(runs[1])), runs[1]), "gathered/scattered do not round-trip"
assert trainer.gathered(runs[1]).seat.shape == (16,)
with tempfile.TemporaryDirectory() as folder:
    jax_checkpoints.save(trainer.gathered(runs[1]), folder, 384, {"run": {}})
    _, stored = jax_checkpoints.latest(folder)
resumed = trainer.scattered(jax_checkpoints.restore(trainer.gathered(trainer.setup(7)), stored))
for _ in range(2):
    resumed, _ = trainer.update(resumed)
assert same(resumed, runner), "resumed from a checkpoint, the run differs from the uninterrupted one"
print("checkpoint resume exact")

# a setting the devices cannot split is refused clearly
try:
    jax_config_for("volle_wolle", devices=2, **{**SMALL, "num_envs": 12})
except ValueError as error:
    assert "opponent_slots × devices" in str(error), error
else:
    sys.exit("num_envs 12 over 2 devices × 4 slots was accepted")
# the command line with --devices 2: a short run to its end (metrics reach the host, the policy exports)
from meadowzoo.training import train_jax  # noqa: E402

with tempfile.TemporaryDirectory() as folder:
    final = train_jax.main(["--game", "volle_wolle", "--players", "2", "--devices", "2", "--timesteps", "700",
                            "--num-envs", "16", "--num-steps", "24", "--num-minibatches", "2", "--opponent-slots", "4",
                            "--population", "4", "--ladder", "random", "--eval-games", "2", "--eval-every", "100000", "--checkpoint-every", "100000",
                            "--quiet", "--out", folder])
    # the run stops after the update that reaches 700 learner decisions (at most 16 × 24 an update)
    assert 700 <= final["timesteps"] < 700 + 16 * 24, final["timesteps"]
    assert np.isfinite(final["last_metrics"]["policy_loss"]), final["last_metrics"]
print("command line on two devices")
print("ok")
