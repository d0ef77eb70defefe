"""benchmarks/train_breakdown.py: the network-only programs do the network work they claim (one
opponent pass more costs one more opponent forward pass over the batch, which XLA must not share
between passes), and a tiny breakdown runs end to end with consistent figures. No timing is
asserted: speeds are the benchmark's to print."""

from __future__ import annotations

import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("flax")
pytest.importorskip("optax")

import jax.numpy as jnp  # noqa: E402

import meadowzoo.jax  # noqa: E402
from benchmarks.train_breakdown import breakdown, network_programs, opponent_passes, report  # noqa: E402
from meadowzoo.training import jax_population  # noqa: E402
from meadowzoo.training.jax_config import jax_config_for  # noqa: E402
from meadowzoo.training.jax_ppo import SelfPlayPPO  # noqa: E402

TINY = dict(num_envs=16, num_steps=4, num_minibatches=2, opponent_slots=4, population=4, hidden=(8,), devices=1)


def rollout_flops(passes: int, opponents_in_first_pass: bool = True) -> tuple[float, SelfPlayPPO]:
    trainer = SelfPlayPPO(meadowzoo.jax.make("volle_wolle", num_players=2),
                          jax_config_for("volle_wolle", **TINY, passes_per_step=passes,
                                         opponents_in_first_pass=opponents_in_first_pass))
    runner = trainer.setup(0)
    _, rollout, _ = network_programs(trainer)
    slots = jax_population.member_params(runner.population, jnp.zeros(4, jnp.int32))
    net = trainer.network
    args = (runner.params, slots, jnp.zeros((16, net.observation_size)), jnp.ones((16, net.num_actions), bool),
            jax.random.PRNGKey(0))
    cost = jax.jit(rollout).lower(*args).compile().cost_analysis()
    cost = cost[0] if isinstance(cost, list) else cost
    return float(cost["flops"]), trainer


def test_every_opponent_pass_costs_a_forward_pass_of_the_opponents_actor():
    one, trainer = rollout_flops(1)
    three, _ = rollout_flops(3)
    net = trainer.network
    # the actor's dense products for one row: inputs x 8 hidden, 8 x actions (multiply and add)
    actor_row = 2 * (net.observation_size * 8 + 8 * net.num_actions)
    # XLA counts the body of the rollout's scan once: two more passes, two more forward passes of 16 games
    assert three - one >= 2 * 16 * actor_row


def test_a_first_pass_kept_for_learners_runs_one_opponent_pass_fewer():
    """The trainer runs no opponents' forward pass in a first pass kept for learners
    (``opponents_in_first_pass`` off), so neither does the least-cost rollout: a cap of 3 then costs
    what a cap of 2 costs with opponents in the first pass, one opponent pass less than a cap of 3."""
    assert [opponent_passes(jax_config_for("volle_wolle", passes_per_step=cap, opponents_in_first_pass=first))
            for cap, first in ((0, True), (0, False), (1, True), (2, True), (2, False), (3, False))] == [1, 1, 1, 2, 1, 2]
    three, trainer = rollout_flops(3)
    learners_first, _ = rollout_flops(3, opponents_in_first_pass=False)
    two, _ = rollout_flops(2)
    net = trainer.network
    actor_row = 2 * (net.observation_size * 8 + 8 * net.num_actions)
    assert three - learners_first >= 16 * actor_row
    assert learners_first == pytest.approx(two, rel=1e-3)


def test_epochs_program_trains_the_network_on_a_batch_of_the_updates_shape():
    trainer = SelfPlayPPO(meadowzoo.jax.make("volle_wolle", num_players=2), jax_config_for("volle_wolle", **TINY))
    runner = trainer.setup(0)
    epochs, _, flat_batch = network_programs(trainer)
    flat = flat_batch(jax.random.PRNGKey(2))
    assert flat[0].shape == (16 * 4, trainer.network.observation_size)
    assert flat[1].shape == (16 * 4, trainer.network.num_actions)
    params, losses = jax.jit(epochs)(runner.params, runner.opt_state, flat, jax.random.PRNGKey(3))
    # update_epochs x num_minibatches optimizer steps, each with its losses
    assert losses["policy_loss"].shape == (trainer.config.update_epochs, trainer.config.num_minibatches)
    moved = jax.tree_util.tree_map(lambda a, b: bool(jnp.any(a != b)), params, runner.params)
    assert all(jax.tree_util.tree_leaves(moved))


def test_breakdown_reports_the_parts_of_an_update():
    result = breakdown("volle_wolle", 2, 1, {key: value for key, value in TINY.items()})
    seconds = result["seconds"]
    assert set(seconds) == {"update", "epochs", "rollout_network"}
    assert all(value > 0 for value in seconds.values())
    assert result["rest_seconds"] == pytest.approx(seconds["update"] - seconds["epochs"] - seconds["rollout_network"],
                                                   abs=1e-6)
    assert 0 < result["learner_steps_per_update"] <= result["steps_per_update"] == 16 * 4
    network = seconds["epochs"] + seconds["rollout_network"]
    # the figures are rounded (steps to 0.001, seconds to 0.1 µs, the bound to 0.1): the bound agrees to that precision
    assert result["network_bound_steps_per_second"] == pytest.approx(result["learner_steps_per_update"] / network,
                                                                     rel=1e-3)
    text = report(result)
    assert "network bound" in text and "PPO epochs" in text
    assert f"{result['matmul_dtype']} products" in text  # the precision the figures were measured with
    assert result["matmul_dtype"] in ("float32", "bfloat16")
    assert f"{result['loss_gradient']} loss gradient" in text and result["loss_gradient"] == "fused"  # the default


def test_trainer_table_puts_the_network_bound_next_to_sb3():
    from benchmarks.jax_tables import trainer_table

    row = {"game": "haste_bock", "load": "1 → 1", "ratio": 10.0,
           "jax": {"steps_per_second": 8000.0, "devices": "[CpuDevice(id=0), CpuDevice(id=1)]", "passes_per_step": 2},
           "sb3": {"steps_per_second": 800.0}, "breakdown": {"network_bound_steps_per_second": 12000.0}}
    old = {key: value for key, value in row.items() if key != "breakdown"}  # a row recorded before the breakdown
    lines = trainer_table([row, old], "cmd")
    # rows recorded before the matmul_dtype and loss_gradient settings computed in float32, by autodiff
    assert lines[-2] == "| Haste Bock? | **8,000** | 2 | 2 | float32, autodiff | 800 | **10.0×** | 12,000 | 15.0× | 1 → 1 |"
    assert lines[-1] == "| Haste Bock? | **8,000** | 2 | 2 | float32, autodiff | 800 | **10.0×** | – | – | 1 → 1 |"
    assert lines[2].count("|") == lines[-1].count("|")
    # a game whose settings keep the first pass for learners says so next to its cap
    first = {**row, "jax": {**row["jax"], "opponents_in_first_pass": False, "matmul_dtype": "bfloat16",
                            "loss_gradient": "fused"}}
    assert "| 2, learners first | bfloat16, fused | 800 |" in trainer_table([first], "cmd")[-1]
    # and one whose epochs run over a share of the rollout's rows (epoch_share) says that
    shared = {**row, "jax": {**row["jax"], "epoch_share": 0.8125}}
    assert "| 2; epochs over 0.8125 of the rows | float32, autodiff |" in trainer_table([shared], "cmd")[-1]
    assert "| no cap | float32" in trainer_table([{**shared, "jax": {**shared["jax"], "passes_per_step": 0}}], "cmd")[-1]
