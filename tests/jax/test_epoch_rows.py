"""``epoch_share`` (training/jax_config.py, training/jax_ppo.py): the PPO epochs of a capped rollout
run over its learner decisions first, not over every row of it; each game's share per player
count from its plug-in."""

from __future__ import annotations

import json

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("flax")
pytest.importorskip("optax")

import jax.numpy as jnp  # noqa: E402

import meadowzoo.jax  # noqa: E402
from meadowzoo.envs.registry import plugin  # noqa: E402
from meadowzoo.training.jax_config import JaxTrainConfig, as_recorded, jax_config_for  # noqa: E402
from meadowzoo.training.jax_ppo import SelfPlayPPO, valid_rows_first  # noqa: E402

SMALL = dict(num_envs=16, num_steps=16, num_minibatches=2, opponent_slots=4, population=4, snapshot_min_updates=1)


def test_valid_rows_come_first_and_every_one_that_fits_is_kept():
    rng = np.random.default_rng(0)
    for trial in range(30):
        valid = rng.random(64) < rng.uniform(0.05, 0.95)
        count = int(rng.integers(1, 65))
        rows = np.asarray(valid_rows_first(jnp.asarray(valid), count, jax.random.PRNGKey(trial)))
        total = int(valid.sum())
        assert rows.shape == (count,) and len(set(rows.tolist())) == count  # distinct rows of the rollout
        if total <= count:
            assert set(rows[:total].tolist()) == set(np.flatnonzero(valid).tolist())
            assert not valid[rows[total:]].any()
        else:
            assert valid[rows].all()


def test_the_valid_rows_come_in_random_order():
    valid = jnp.ones(32, bool)
    kept = [tuple(np.asarray(valid_rows_first(valid, 8, jax.random.PRNGKey(seed))).tolist()) for seed in range(60)]
    assert len(set(kept)) > 50  # not one fixed order (such as the rows' own)
    times = np.bincount([row for subset in kept for row in subset], minlength=32)
    assert times.min() > 0 and times.max() < 40  # every row among the first 8 about 60 * 8 / 32 = 15 times


def test_epochs_over_row_indices_train_on_exactly_those_rows():
    """The epochs gather each minibatch through the row indices (no copy of the rollout): the same
    network as epochs over a batch holding only those rows, bit for bit."""
    trainer = SelfPlayPPO(meadowzoo.jax.make("volle_wolle", num_players=2),
                          jax_config_for("volle_wolle", **SMALL, passes_per_step=2, epoch_share=0.5))
    runner = trainer.setup(0)
    size, rows = 16 * 16, trainer.config.epoch_rows
    assert rows == size // 2
    keys = jax.random.split(jax.random.PRNGKey(5), 4)
    flat = (jax.random.uniform(keys[0], (size, trainer.network.observation_size)),
            jax.random.uniform(keys[1], (size, trainer.network.num_actions)) < 0.5,
            jnp.zeros(size, jnp.int32), jnp.full(size, -1.0), jnp.zeros(size), jax.random.normal(keys[2], (size,)),
            jax.random.normal(keys[3], (size,)), jnp.arange(size) % 3 != 0)
    flat = (flat[0], flat[1].at[:, 0].set(True)) + flat[2:]  # every row has its action 0 legal
    chosen = jax.random.permutation(jax.random.PRNGKey(9), size)[:rows]
    through_indices = trainer._epochs(runner.params, runner.opt_state, flat, jax.random.PRNGKey(1), rows=chosen)
    only_those = trainer._epochs(runner.params, runner.opt_state, jax.tree_util.tree_map(lambda x: x[chosen], flat),
                                 jax.random.PRNGKey(1), rows=jnp.arange(rows))
    for a, b in zip(jax.tree_util.tree_leaves(through_indices), jax.tree_util.tree_leaves(only_those), strict=True):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    every_row = trainer._epochs(runner.params, runner.opt_state, flat, jax.random.PRNGKey(1))
    assert not np.array_equal(np.asarray(every_row[0][0]["actor"]["0"]["kernel"]),
                              np.asarray(through_indices[0][0]["actor"]["0"]["kernel"]))


def test_rows_follow_the_share_only_with_a_pass_cap():
    base = dict(num_envs=256, num_steps=32, num_minibatches=4, devices=2, passes_per_step=2)
    assert JaxTrainConfig(**base).epoch_rows == 4096  # the default: every row
    assert JaxTrainConfig(**base, epoch_share=0.8125).epoch_rows == 3328
    assert JaxTrainConfig(**base, epoch_share=0.3).epoch_rows == 1232  # 1228.8 rows, up to whole minibatches
    assert JaxTrainConfig(**{**base, "passes_per_step": 0}, epoch_share=0.5).epoch_rows == 4096
    for bad in (0, 0.0, -0.5, 1.5, True, "half", float("nan")):
        with pytest.raises(ValueError, match="epoch_share"):
            JaxTrainConfig(epoch_share=bad)
    assert as_recorded({"num_envs": 8})["epoch_share"] == 1.0  # runs recorded before it trained on every row


def test_each_player_count_takes_its_plugins_settings_and_flags_win():
    for game in ("haste_bock", "volle_wolle", "hase_und_igel"):
        entry = plugin(game)
        assert entry.jax_training_by_players, game
        base = jax_config_for(game)
        assert jax_config_for(game, 2).epoch_share == entry.jax_training.get("epoch_share", 1.0) == base.epoch_share
        for players, settings in entry.jax_training_by_players.items():
            config = jax_config_for(game, players)
            assert {name: getattr(config, name) for name in settings} == dict(settings)
            assert jax_config_for(game, players, epoch_share=1.0).epoch_share == 1.0


def small_trainer(**settings) -> SelfPlayPPO:
    return SelfPlayPPO(meadowzoo.jax.make("volle_wolle", num_players=2),
                       jax_config_for("volle_wolle", **SMALL, passes_per_step=2, **settings))


def test_an_update_whose_decisions_do_not_fit_trains_on_every_row_as_before():
    """No learner decision is ever left out: where they do not fit in the share, the epochs run over
    every row, the same update bit for bit as with a share of 1; where they fit, over the share."""
    every_row, too_small, fitting = small_trainer(epoch_share=1.0), small_trainer(epoch_share=0.25), \
        small_trainer(epoch_share=0.875)
    runners = {name: trainer.setup(0) for name, trainer in
               (("every_row", every_row), ("too_small", too_small), ("fitting", fitting))}
    for update in range(2):
        runners["every_row"], m_all = every_row.update(runners["every_row"])
        runners["too_small"], m_small = too_small.update(runners["too_small"])
        runners["fitting"], m_fit = fitting.update(runners["fitting"])
        assert 0.25 * 256 < int(m_all["learner_steps"]) <= 0.875 * 256  # what makes the three cases
        assert int(m_all["epoch_rows"]) == int(m_small["epoch_rows"]) == 256
        assert int(m_fit["epoch_rows"]) == fitting.config.epoch_rows == 224
        if update == 0:  # the first update's games: the rollout does not depend on the share
            np.testing.assert_array_equal(np.asarray(runners["fitting"].games.observation),
                                          np.asarray(runners["every_row"].games.observation))
    for a, b in zip(jax.tree_util.tree_leaves(runners["every_row"]), jax.tree_util.tree_leaves(runners["too_small"]),
                    strict=True):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    assert not np.array_equal(np.asarray(runners["fitting"].params["actor"]["0"]["kernel"]),
                              np.asarray(runners["every_row"].params["actor"]["0"]["kernel"]))


def test_the_command_line_takes_the_player_count_and_says_when_an_update_used_every_row(tmp_path, capsys):
    from meadowzoo.training import train_jax

    cli = ["--game", "volle_wolle", "--num-envs", "16", "--num-steps", "16", "--num-minibatches", "2",
           "--opponent-slots", "4", "--population", "4", "--eval-every", "100000", "--eval-games", "2",
           "--ladder", "random", "--checkpoint-every", "100000", "--quiet", "--timesteps", "300"]
    args = train_jax.parse_args(cli + ["--players", "4"])
    assert train_jax.settings(args).epoch_share == plugin("volle_wolle").jax_training_by_players[4]["epoch_share"]
    final = train_jax.main(cli + ["--players", "2", "--epoch-share", "0.25", "--out", str(tmp_path / "run")])
    assert final["config"]["epoch_share"] == 0.25 and final["updates_over_every_row"] > 0
    assert "its epochs ran over every row" in capsys.readouterr().out
    saved = json.loads((tmp_path / "run" / "final.json").read_text())
    assert saved["updates_over_every_row"] == final["updates_over_every_row"]


@pytest.mark.slow
@pytest.mark.parametrize("game", ["haste_bock", "volle_wolle", "hase_und_igel"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_plugins_shares_hold_the_learner_decisions_of_a_fresh_run(game, players):
    """Where the shares save work: at the games' settings (256 games, 32 learner steps, one
    device) every update of a fresh run fits its learner decisions into the share (a share of 1
    trivially). Trained play may need more (then an update runs over every row)."""
    config = jax_config_for(game, players)
    trainer = SelfPlayPPO(meadowzoo.jax.make(game, num_players=players), config)
    runner = trainer.setup(0)
    for _ in range(4):
        runner, metrics = trainer.update(runner)
        assert int(metrics["epoch_rows"]) == config.epoch_rows, (game, players)
