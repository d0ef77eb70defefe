"""The compiled self-play trainer (training/jax_ppo.py) on Volle Wolle 2p, one small compiled trainer
per pass setting shared by the module (no cap, a cap of one move per learner step, and a cap of two
with the first pass kept for learners' moves): a few hundred
learner steps, reproducibility, resume from a checkpoint equal to an uninterrupted run, and the
exported network playing without JAX; GAE over steps that were not the learner's."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("flax")
pytest.importorskip("optax")

import jax.numpy as jnp  # noqa: E402

import meadowzoo.jax  # noqa: E402
from meadowzoo.agents.mlp_policy import load_mlp_policy, save_mlp_policy  # noqa: E402
from meadowzoo.training import jax_checkpoints, jax_population  # noqa: E402
from meadowzoo.training.jax_config import JaxTrainConfig, jax_config_for  # noqa: E402
from meadowzoo.training.jax_network import export_arrays  # noqa: E402
from meadowzoo.training.jax_ppo import SelfPlayPPO, gae, gae_with_gaps, shaping_terms  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SMALL = dict(num_envs=16, num_steps=24, num_minibatches=2, opponent_slots=4, population=4, snapshot_min_updates=1)


@pytest.fixture(scope="module", params=[(0, True), (1, True), (2, False)],
                ids=["uncapped", "cap 1", "cap 2 learners first"])
def trainer(request):
    env = meadowzoo.jax.make("volle_wolle", num_players=2)
    cap, opponents_first = request.param
    return SelfPlayPPO(env, jax_config_for("volle_wolle", **SMALL, passes_per_step=cap,
                                           opponents_in_first_pass=opponents_first))


@pytest.fixture(scope="module")
def three_updates(trainer):
    """Runner after 0..3 updates from seed 0, and the metrics of each update."""
    runners, metrics = [trainer.setup(0)], []
    for _ in range(3):
        runner, m = trainer.update(runners[-1])
        runners.append(runner)
        metrics.append(jax.device_get(m))
    return runners, metrics


def leaves(tree) -> list[np.ndarray]:
    return [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(jax.device_get(tree))]


def assert_same(a, b) -> None:
    for x, y in zip(leaves(a), leaves(b), strict=True):
        np.testing.assert_array_equal(x, y)


def test_a_few_hundred_steps_train(trainer, three_updates):
    runners, metrics = three_updates
    assert trainer.config.steps_per_update * 3 == 1152
    for m in metrics:
        for name in ("policy_loss", "value_loss", "entropy", "approx_kl", "learner_elo"):
            assert np.isfinite(m[name]), name
        assert m["entropy"] > 0
    # the network moved, and games ended (a Volle Wolle 2p game lasts ~100-120 decisions, ~55 of the learner)
    before, after = leaves(runners[0].params), leaves(runners[-1].params)
    assert any(not np.array_equal(x, y) for x, y in zip(before, after))
    finished = sum(m["games_finished"] for m in metrics)
    if trainer.config.passes_per_step == 0:
        assert finished > 0
    else:  # one move per game and step at least (72 here): no game ends so soon with a cap of one
        assert finished > 0 or np.asarray(runners[-1].decisions).min() >= 3 * trainer.config.num_steps
    # the learner's decisions are counted: without a cap every step of every game but the first
    # update's steps of games an opponent began; with a cap of one move, about every other step
    counted = [int(m["learner_steps"]) for m in metrics]
    per_update = trainer.config.steps_per_update
    assert int(runners[-1].learner_steps) == sum(counted)
    if trainer.config.passes_per_step == 0:
        assert per_update - 16 <= counted[0] <= per_update and counted[1:] == [per_update] * 2
    elif trainer.config.passes_per_step == 1:
        assert all(0.3 * per_update < c < 0.8 * per_update for c in counted)
    else:  # two moves a step, learners' in the first pass only: most steps are the learner's, not all
        assert all(0.5 * per_update < c < per_update for c in counted)
    # every game waits for the learner (with a cap too: the update's last advance brings it there)
    games = runners[-1].games
    assert np.array_equal(np.asarray(games.current_player), np.asarray(runners[-1].seat))
    assert not np.asarray(games.terminated).any()
    # the learner's seat is random per game
    assert set(np.asarray(runners[-1].seat).tolist()) == {0, 1}


def test_same_seed_same_run_other_seed_other_run(trainer, three_updates):
    runners, _ = three_updates
    again, _ = trainer.update(trainer.setup(0))
    assert_same(again, runners[1])
    other, _ = trainer.update(trainer.setup(1))
    assert not np.array_equal(leaves(other.params)[0], leaves(runners[1].params)[0])


def test_resume_from_checkpoint_equals_uninterrupted(trainer, three_updates, tmp_path):
    runners, _ = three_updates
    steps = trainer.config.steps_per_update
    jax_checkpoints.save(runners[1], tmp_path, steps, {"run": {}, "state": {}})
    meta, stored = jax_checkpoints.latest(tmp_path)
    assert meta["timesteps"] == steps
    resumed = jax_checkpoints.restore(trainer.setup(7), stored)  # a template of other values
    assert_same(resumed, runners[1])
    for _ in range(2):
        resumed, _ = trainer.update(resumed)
    assert_same(resumed, runners[3])


def test_checkpoint_of_other_shapes_is_refused(trainer, three_updates, tmp_path):
    runners, _ = three_updates
    jax_checkpoints.save(runners[1], tmp_path, 1, {"run": {}, "state": {}})
    _, stored = jax_checkpoints.latest(tmp_path)
    with pytest.raises(ValueError, match="checkpoint"):
        jax_checkpoints.restore(trainer.setup(0), stored[:-1])
    with pytest.raises(ValueError, match="array 0"):
        jax_checkpoints.restore(trainer.setup(0), [np.zeros((3, 3), np.float32)] + stored[1:])


def test_exported_network_matches_the_jax_forward_pass(trainer, three_updates, tmp_path):
    runners, _ = three_updates
    runner = runners[-1]
    path = save_mlp_policy(tmp_path / "p.npz", export_arrays(jax.device_get(runner.params)), "volle_wolle",
                           {"num_players": 2}, list(trainer.config.hidden), trainer.config.activation)
    policy = load_mlp_policy(path)
    observation, mask = runner.games.observation, runner.games.legal_action_mask
    # the file holds the float32 network; a trainer with bfloat16 products computes it more coarsely
    network = trainer.network.with_matmul_dtype("float32")
    jax_logits = np.asarray(network.logits(runner.params["actor"], observation, mask))
    jax_value = np.asarray(network.value(runner.params["critic"], observation))
    logits, value = policy.forward(np.asarray(observation), np.asarray(mask))
    legal = np.asarray(mask)
    np.testing.assert_allclose(logits[legal], jax_logits[legal], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(value, jax_value, rtol=1e-4, atol=1e-5)
    assert np.all(logits[~legal] == jax_logits[~legal])
    trained = np.asarray(trainer.network.logits(runner.params["actor"], observation, mask))
    np.testing.assert_allclose(trained[legal], jax_logits[legal], atol=0.02)  # whatever the precision


PLAY_WITHOUT_JAX = r"""
import sys
for name in ("jax", "jaxlib", "flax", "optax", "torch"):
    sys.modules[name] = None  # importing any of them now fails
from meadowzoo.agents.registry import make_agent
from meadowzoo.envs.volle_wolle_v0 import raw_env
env = raw_env(num_players=2)
env.reset(seed=3)
agents = {"player_0": make_agent("policy:" + sys.argv[1], "volle_wolle", 0),
          "player_1": make_agent("random", "volle_wolle", 1)}
decisions = 0
while env.agents:
    seat = env.agent_selection
    if env.terminations[seat] or env.truncations[seat]:
        env.step(None)
        continue
    action = agents[seat].act(env, seat)
    assert env.observe(seat)["action_mask"][action] == 1, (seat, action)
    env.step(action)
    decisions += 1
print("decisions", decisions)
"""


def test_exported_policy_plays_legal_moves_without_jax(trainer, three_updates, tmp_path):
    runners, _ = three_updates
    path = save_mlp_policy(tmp_path / "p.npz", export_arrays(jax.device_get(runners[-1].params)), "volle_wolle",
                           {"num_players": 2}, list(trainer.config.hidden), trainer.config.activation)
    done = subprocess.run([sys.executable, "-c", PLAY_WITHOUT_JAX, str(path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.split()[-1]) > 10


def test_train_backend_flag_hands_over_to_the_compiled_trainer():
    from meadowzoo.training.train import split_backend

    assert split_backend(["--backend", "jax", "--game", "volle_wolle"]) == ("jax", ["--game", "volle_wolle"])
    assert split_backend(["--game", "volle_wolle"]) == ("sb3", ["--game", "volle_wolle"])


def test_train_backend_jax_help_and_errors_name_the_command_typed(capsys):
    """`train --backend jax --help` shows the train command, not train_jax's own name."""
    from meadowzoo.training import train
    from meadowzoo.training.arguments import program_name

    with pytest.raises(SystemExit):
        train.main(["--backend", "jax", "--help"])
    assert f"usage: {program_name('train')} --backend jax" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        train.main(["--backend", "jax", "--game", "volle_wolle", "--timesteps", "0"])
    assert f"{program_name('train')} --backend jax: error" in capsys.readouterr().err


def test_hidden_and_activation_flags_set_the_network(capsys):
    """--hidden/--activation override the game's network; bad widths are refused by the parser."""
    from meadowzoo.training import train_jax

    args = train_jax.parse_args(["--game", "volle_wolle", "--hidden", "64, 32,16", "--activation", "relu"])
    config, env, trainer = train_jax.build(args)
    assert config.hidden == (64, 32, 16) and config.activation == "relu"
    params = trainer.network.init(jax.random.PRNGKey(0))
    assert [params["actor"][str(i)]["kernel"].shape[1] for i in range(3)] == [64, 32, 16]
    assert train_jax.build(train_jax.parse_args(["--game", "volle_wolle"]))[0].hidden == JaxTrainConfig().hidden
    for bad in ("0,64", "64,x", ""):
        with pytest.raises(SystemExit):
            train_jax.parse_args(["--game", "volle_wolle", "--hidden", bad])
        assert "layer widths" in capsys.readouterr().err


@pytest.mark.slow
def test_cut_games_are_scored_as_configured():
    env = meadowzoo.jax.make("volle_wolle", num_players=2)
    finished = {}
    for scoring in ("draw", "standing"):
        # no pass cap: every learner step plays on to the learner's next turn (with the settings'
        # cap of 2, steps spent on opponents' moves alone leave fewer decisions for the count below)
        trainer = SelfPlayPPO(env, jax_config_for("volle_wolle", **SMALL, max_game_decisions=20,
                                                  truncation_scoring=scoring, passes_per_step=0))
        runner, metrics = trainer.update(trainer.setup(0))
        finished[scoring] = metrics = jax.device_get(metrics)
        # every game is cut after 20 decisions (about 10 of the learner's): 24 learner steps end two or more
        assert metrics["games_finished"] >= 2 * 16
        assert int(np.asarray(runner.decisions).max()) < 20
    assert finished["draw"]["mean_reward"] == 0.0 and finished["draw"]["win_share"] == 0.0
    # by the standing some learners lead at the cut (wool gained by then)
    assert finished["standing"]["win_share"] > 0.0


CLI = ["--game", "volle_wolle", "--players", "2", "--num-envs", "16", "--num-steps", "16", "--num-minibatches", "2",
       "--opponent-slots", "4", "--population", "4", "--eval-every", "512", "--eval-games", "2", "--ladder", "random",
       "--checkpoint-every", "256", "--quiet", "--seed", "3"]


@pytest.mark.slow
def test_command_line_run_resumes_exactly(tmp_path):
    from meadowzoo.training import train_jax

    whole = train_jax.main(CLI + ["--timesteps", "768", "--out", str(tmp_path / "whole")])
    train_jax.main(CLI + ["--timesteps", "256", "--out", str(tmp_path / "parts")])
    resumed = train_jax.main(CLI + ["--timesteps", "768", "--out", str(tmp_path / "parts")])
    # the run stops after the update that reaches 768 learner decisions (the first update counts
    # fewer than 256: games an opponent begins)
    assert whole["timesteps"] == resumed["timesteps"]
    assert 768 <= whole["timesteps"] < 768 + 256
    a, b = load_mlp_policy(whole["policy"]), load_mlp_policy(resumed["policy"])
    for part in ("actor", "critic"):
        for (ka, ba), (kb, bb) in zip(a.layers[part], b.layers[part]):
            np.testing.assert_array_equal(ka, kb)
            np.testing.assert_array_equal(ba, bb)
    strip = [{k: v for k, v in row.items() if k != "wall_seconds"} for row in whole["evaluations"]]
    assert strip == [{k: v for k, v in row.items() if k != "wall_seconds"} for row in resumed["evaluations"]]
    # the same command again changes nothing (its last evaluation and metrics stay)
    again = train_jax.main(CLI + ["--timesteps", "768", "--out", str(tmp_path / "parts")])
    assert again["evaluations"] == resumed["evaluations"] and again["last_metrics"] == resumed["last_metrics"]
    assert again["last_metrics"] and again["timesteps"] == resumed["timesteps"]
    # other settings into the same folder: the seed, or the env options, stop the command (exit status 2)
    for other in (CLI[:-1] + ["4"], CLI + ["--option", "max_turns=500"]):
        with pytest.raises(SystemExit) as stopped:
            train_jax.main(other + ["--timesteps", "1024", "--out", str(tmp_path / "parts")])
        assert stopped.value.code == 2


def test_fresh_starts_over_without_the_old_curves_and_bad_settings_stop_at_once(tmp_path, capsys):
    from meadowzoo.training import train_jax

    out = tmp_path / "run"
    train_jax.main(CLI + ["--timesteps", "256", "--out", str(out)])
    (out / "tb" / "old.events").write_text("x")
    train_jax.main(CLI + ["--timesteps", "256", "--out", str(out), "--fresh"])
    assert not (out / "tb" / "old.events").exists()
    for bad, message in ((["--gamma", "2"], "gamma"), (["--num-envs", "10"], "num_envs"),
                         (["--ladder", "human"], "plays at the terminal"), (["--out", str(tmp_path / "file" / "x")], "--out")):
        (tmp_path / "file").write_text("a file, not a folder")
        with pytest.raises(SystemExit) as stopped:
            train_jax.main(CLI + ["--timesteps", "256"] + bad + ([] if "--out" in bad else ["--out", str(out)]))
        assert stopped.value.code == 2 and message in capsys.readouterr().err, bad


def test_a_checkpoint_older_than_the_sampler_setting_resumes_as_gumbel(tmp_path):
    """Checkpoints written before the ``sampler`` setting existed drew with Gumbel noise: resuming
    one needs ``--sampler gumbel`` (then it continues exactly as a gumbel run), and today's default
    is refused as other settings rather than silently changing the draws. Settings added later
    (``score_shaping``, ``conv``) are missing from such a checkpoint too and mean what it did: none;
    ``matmul_dtype`` means float32 and ``loss_gradient`` autodiff, so its resume names them (today's
    defaults are ``auto``, which may be bfloat16, and fused)."""
    import json

    from meadowzoo.training import train_jax

    gumbel = CLI + ["--sampler", "gumbel", "--matmul-dtype", "float32", "--loss-gradient", "autodiff"]
    whole = train_jax.main(gumbel + ["--timesteps", "512", "--out", str(tmp_path / "whole")])
    train_jax.main(gumbel + ["--timesteps", "256", "--out", str(tmp_path / "old")])
    for meta_file in (tmp_path / "old" / "checkpoints").glob("step_*/meta.json"):  # as written before the setting
        meta = json.loads(meta_file.read_text())
        for later in ("sampler", "score_shaping", "conv", "opponents_in_first_pass", "matmul_dtype",
                      "loss_gradient"):  # and later ones
            del meta["run"]["config"][later]
        del meta["run"]["options"]  # recorded since session 22: an older checkpoint's are not compared
        meta_file.write_text(json.dumps(meta))
    with pytest.raises(SystemExit) as stopped:  # "other settings", exit status 2
        train_jax.main(CLI + ["--timesteps", "512", "--out", str(tmp_path / "old")])
    assert stopped.value.code == 2
    resumed = train_jax.main(gumbel + ["--timesteps", "512", "--out", str(tmp_path / "old")])
    a, b = load_mlp_policy(whole["policy"]), load_mlp_policy(resumed["policy"])
    for (ka, _), (kb, _) in zip(a.layers["actor"], b.layers["actor"]):
        np.testing.assert_array_equal(ka, kb)


def test_samplers_draw_differently_from_the_same_seed():
    """The setting is used: the same seed gives other games with the other sampler."""
    env = meadowzoo.jax.make("volle_wolle", num_players=2)
    actions = []
    for sampler in ("inverse_cdf", "gumbel"):
        trainer = SelfPlayPPO(env, jax_config_for("volle_wolle", **SMALL, sampler=sampler))
        runner, _ = trainer.update(trainer.setup(0))
        actions.append(leaves(runner.games))
    assert any(not np.array_equal(x, y) for x, y in zip(*actions))


def first_moves(opponents_in_first_pass: bool, passes: int):
    """Volle Wolle 2p games just dealt (about half begun by the learner's opponent) after one
    ``_advance`` of ``passes`` passes with a cap of 2: where the learner was to move, and each game's
    decisions made."""
    config = jax_config_for("volle_wolle", **SMALL, passes_per_step=2, opponents_in_first_pass=opponents_in_first_pass)
    trainer = SelfPlayPPO(meadowzoo.jax.make("volle_wolle", num_players=2), config)
    runner = trainer.setup(0)
    games, seat = runner.games, runner.seat
    learner_moves = games.current_player == seat
    first_legal = jnp.argmax(games.legal_action_mask, axis=1).astype(jnp.int32)
    slot_params = jax_population.member_params(runner.population, jnp.zeros(config.opponent_slots, jnp.int32))
    _, _, decisions, _, _ = jax.jit(trainer._advance, static_argnums=7)(
        games, seat, runner.decisions, slot_params, first_legal, learner_moves, jax.random.PRNGKey(1), passes)
    return np.asarray(learner_moves), np.asarray(decisions)


def test_first_pass_kept_for_learners_leaves_opponents_waiting():
    """With ``opponents_in_first_pass`` off, the first pass of a learner step moves only the games at
    their learner's turn (those at an opponent's turn wait for the second pass); with it on (runs
    before session 21), every game moves in it. Volle Wolle's turns alternate after a single move here."""
    for opponents_first in (True, False):
        learner_moves, decisions = first_moves(opponents_first, passes=1)
        assert learner_moves.any() and not learner_moves.all()
        assert (decisions[learner_moves] == 1).all()
        assert (decisions[~learner_moves] == (1 if opponents_first else 0)).all()
    # the second pass plays the opponents: the waiting games' first moves, the others' replies
    learner_moves, decisions = first_moves(False, passes=2)
    assert (decisions[~learner_moves] == 1).all() and (decisions[learner_moves] == 2).all()


def test_first_pass_setting_is_checked_and_reaches_the_command_line():
    from meadowzoo.training import train_jax

    with pytest.raises(ValueError, match="opponents_in_first_pass"):
        jax_config_for("volle_wolle", passes_per_step=1, opponents_in_first_pass=False)
    with pytest.raises(ValueError, match="opponents_in_first_pass"):
        jax_config_for("volle_wolle", opponents_in_first_pass="no")
    jax_config_for("volle_wolle", passes_per_step=0, opponents_in_first_pass=False)  # no effect without a cap
    # Hase und Igel's settings keep the first pass for learners; the flag restores the schedule of older runs
    assert not jax_config_for("hase_und_igel").opponents_in_first_pass
    assert jax_config_for("volle_wolle").opponents_in_first_pass
    for argv, expected in (([], False), (["--opponents-in-first-pass"], True), (["--no-opponents-in-first-pass"], False)):
        args = train_jax.parse_args(["--game", "hase_und_igel"] + argv)
        assert train_jax.settings(args).opponents_in_first_pass is expected


def test_annealed_learning_rate_reaches_zero_at_its_horizon():
    """--anneal-lr without a pass cap: the learning rate falls linearly to 0 over the optimizer
    steps of anneal_timesteps, so an update past the horizon leaves the network as it was, while
    the updates before it changed it."""
    tiny = dict(num_envs=8, num_steps=4, num_minibatches=1, opponent_slots=1, population=2)
    config = jax_config_for("volle_wolle", **tiny, anneal_timesteps=2 * 8 * 4, passes_per_step=0)
    trainer = SelfPlayPPO(meadowzoo.jax.make("volle_wolle", num_players=2), config)
    runners = [trainer.setup(0)]
    for _ in range(3):
        runners.append(trainer.update(runners[-1])[0])
    changed = [any(not np.array_equal(a, b) for a, b in zip(leaves(x.params), leaves(y.params)))
               for x, y in zip(runners, runners[1:])]
    assert changed == [True, True, False]
    with pytest.raises(ValueError, match="anneal_timesteps"):
        jax_config_for("volle_wolle", anneal_timesteps=-1)


def test_annealed_learning_rate_of_a_capped_run_follows_its_learner_steps():
    """With a pass cap an update plays a varying number of learner decisions: the learning rate
    falls with the learner steps counted, so the updates that begin at or past anneal_timesteps
    leave the network as it was and the ones before changed it."""
    tiny = dict(num_envs=8, num_steps=4, num_minibatches=1, opponent_slots=1, population=2, passes_per_step=1)
    config = jax_config_for("volle_wolle", **tiny, anneal_timesteps=40)
    trainer = SelfPlayPPO(meadowzoo.jax.make("volle_wolle", num_players=2), config)
    runners = [trainer.setup(0)]
    for _ in range(8):
        runners.append(trainer.update(runners[-1])[0])
    for before, after in zip(runners, runners[1:]):
        changed = any(not np.array_equal(a, b) for a, b in zip(leaves(before.params), leaves(after.params)))
        assert changed == (int(before.learner_steps) < 40), int(before.learner_steps)
    assert int(runners[-1].learner_steps) >= 40 > int(runners[1].learner_steps)
    with pytest.raises(ValueError, match="passes_per_step"):
        jax_config_for("volle_wolle", passes_per_step=-1)


def reference_gae_with_gaps(reward, value, done, valid, tail_reward, tail_done, last_value, gamma, lam):
    """GAE of each game's own learner steps, written out step by step: a learner step's return is its
    reward plus the rewards of the opponent-only steps after it up to the game's end or the next
    learner step (or the rollout's tail), bootstrapped from that next learner step's value."""
    steps, games = reward.shape
    advantages = np.zeros((steps, games))
    for g in range(games):
        next_adv, next_value = 0.0, float(last_value[g])
        for t in range(steps - 1, -1, -1):
            if not valid[t, g]:
                continue
            extra, ended = 0.0, bool(done[t, g])
            u = t + 1
            while not ended and u < steps and not valid[u, g]:
                extra += reward[u, g]
                ended = bool(done[u, g])
                u += 1
            if not ended and u == steps:
                extra += tail_reward[g]
                ended = bool(tail_done[g])
            bootstrap, follow = (0.0, 0.0) if ended else (next_value, next_adv)
            delta = reward[t, g] + extra + gamma * bootstrap - value[t, g]
            advantages[t, g] = delta + gamma * lam * follow
            next_adv, next_value = advantages[t, g], value[t, g]
    return advantages


def random_rollout(seed: int, steps: int = 12, games: int = 40, learner_share: float = 0.6):
    rng = np.random.default_rng(seed)
    reward = np.where(rng.random((steps, games)) < 0.3, rng.choice([-1.0, 0.5, 1.0], (steps, games)), 0.0)
    return (reward.astype(np.float32), rng.normal(size=(steps, games)).astype(np.float32),
            rng.random((steps, games)) < 0.15, rng.random((steps, games)) < learner_share,
            rng.choice([0.0, 1.0], games).astype(np.float32), rng.random(games) < 0.3,
            rng.normal(size=games).astype(np.float32))


def test_gae_with_gaps_follows_each_games_own_learner_steps():
    for seed in range(3):
        reward, value, done, valid, tail_reward, tail_done, last_value = random_rollout(seed)
        advantages, targets = gae_with_gaps(reward, value, done, valid, tail_reward, tail_done, last_value, 0.99, 0.9)
        expected = reference_gae_with_gaps(reward, value, done, valid, tail_reward, tail_done, last_value, 0.99, 0.9)
        np.testing.assert_allclose(np.where(valid, advantages, 0.0), np.where(valid, expected, 0.0), rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(np.asarray(targets)[valid], (np.asarray(advantages) + value)[valid], rtol=1e-6)


def test_gae_with_gaps_is_plain_gae_when_every_step_is_the_learners():
    reward, value, done, _, _, _, last_value = random_rollout(7)
    every = np.ones_like(done)
    nothing = np.zeros(reward.shape[1], np.float32)
    plain = gae(reward, value, done, last_value, 0.995, 0.95)
    gapped = gae_with_gaps(reward, value, done, every, nothing, nothing.astype(bool), last_value, 0.995, 0.95)
    for a, b in zip(plain, gapped):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


def test_shaping_terms_telescope_over_a_game():
    """score_shaping: gamma * phi(after) - phi(before) per step, 0 after the step that ends the game
    (the next potential is a fresh game's); with gamma = 1 a game's terms sum to -phi(start)."""
    phi = np.array([0.0, 0.3, -0.2, 0.5, 0.1, 7.0], np.float32)  # 7.0: the fresh game after the end
    done = np.array([False, False, False, False, True])
    terms = np.asarray(shaping_terms(phi[:-1], phi[1:], done, 1.0))
    np.testing.assert_allclose(terms, [0.3, -0.5, 0.7, -0.4, -0.1], atol=1e-6)
    assert terms.sum() == pytest.approx(-phi[0], abs=1e-6)
    np.testing.assert_allclose(np.asarray(shaping_terms(phi[:-1], phi[1:], done, 0.5)),
                               [0.15, -0.4, 0.45, -0.45, -0.1], atol=1e-6)


def test_score_shaping_changes_what_is_learnt_not_the_games_or_ratings():
    """With score_shaping the rollout is the same (same seed, same network) and the population is
    rated on the same, unshaped results, but the advantages differ wherever points changed, so the
    losses differ; the potential is the learner's points minus the best other player's."""
    env = meadowzoo.jax.make("volle_wolle", num_players=3)
    # games cut after 24 decisions and scored by their standing, so that some finish in one update
    small = dict(SMALL, num_envs=12, opponent_slots=2, num_steps=16, max_game_decisions=24,
                 truncation_scoring="standing")
    plain = SelfPlayPPO(env, jax_config_for("volle_wolle", **small))
    shaped = SelfPlayPPO(env, jax_config_for("volle_wolle", **small, score_shaping=0.1))
    runner_a, metrics_a = plain.update(plain.setup(0))
    runner_b, metrics_b = shaped.update(shaped.setup(0))
    assert_same(runner_a.games, runner_b.games)
    assert_same(runner_a.population, runner_b.population)
    metrics_a, metrics_b = jax.device_get(metrics_a), jax.device_get(metrics_b)
    assert metrics_a["games_finished"] > 0
    for name in ("games_finished", "mean_reward", "win_share", "learner_elo"):
        assert metrics_a[name] == metrics_b[name], name
    assert metrics_a["value_loss"] != metrics_b["value_loss"]
    scores = np.asarray(jax.vmap(env.scores)(runner_a.games), np.float32)
    assert scores.max() > 0  # points were won during the rollout, so the shaping had something to say
    seat = np.asarray(runner_a.seat)
    rows = np.arange(len(seat))
    best_other = np.where(np.arange(3)[None, :] == seat[:, None], -np.inf, scores).max(axis=1)
    np.testing.assert_allclose(np.asarray(shaped._potential(runner_a.games, runner_a.seat)),
                               0.1 * (scores[rows, seat] - best_other), rtol=1e-6)
    with pytest.raises(ValueError, match="score_shaping"):
        jax_config_for("volle_wolle", score_shaping=-0.1)
    from meadowzoo.training import train_jax

    assert train_jax.build(train_jax.parse_args(["--game", "volle_wolle", "--score-shaping", "0.05"]))[0].score_shaping == 0.05


def test_convolutional_network_exports_and_plays_the_same_without_jax(tmp_path):
    """--conv: 3x3 convolutions over the board planes (Haste Bock?'s 9 sheep planes of 9 x 9) before
    the dense layers; the v2 policy file's numpy forward pass equals flax's, and it loads as a
    policy: agent. Games without board planes refuse the flag."""
    from meadowzoo.agents.mlp_policy import FORMAT_CONV
    from meadowzoo.agents.policy import load_policy
    from meadowzoo.training import train_jax
    from meadowzoo.training.jax_network import ActorCritic

    obs_size, actions, board = 1036, 996, (9, 9, 9)
    net = ActorCritic(obs_size, actions, (32,), "tanh", conv=(4, 3), board=board)
    params = net.init(jax.random.PRNGKey(1))
    assert params["actor"]["conv0"]["kernel"].shape == (3, 3, 9, 4)
    assert params["actor"]["0"]["kernel"].shape == (3 * 81 + obs_size - 729, 32)
    rng = np.random.default_rng(0)
    observation = (rng.random((5, obs_size)) < 0.1).astype(np.float32)
    mask = rng.random((5, actions)) < 0.3
    path = save_mlp_policy(tmp_path / "conv.npz", export_arrays(params), "haste_bock", {"num_players": 2},
                           [32], "tanh", conv=[4, 3], board=list(board))
    policy = load_mlp_policy(path)
    assert policy.meta["format"] == FORMAT_CONV and policy.meta["observation_size"] == obs_size
    logits, values = policy.forward(observation, mask)
    np.testing.assert_allclose(logits, np.asarray(net.logits(params["actor"], observation, mask)), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(values, np.asarray(net.value(params["critic"], observation)), rtol=1e-4, atol=1e-5)
    # a square's neighbourhood matters: moving one sheep changes the convolutions' output
    moved = observation.copy()
    moved[:, :81] = np.roll(moved[:, :81], 1, axis=1)
    assert not np.allclose(policy.forward(moved, mask)[1], values)
    assert type(load_policy(path)).__name__ == "MlpPolicy"
    # a v2 file whose conv field is missing is refused
    import json
    with np.load(path) as archive:
        arrays = {name: archive[name] for name in archive.files if name != "meta"}
        meta = json.loads(str(archive["meta"]))
    del meta["conv"]
    with pytest.raises(ValueError, match="conv"):
        type(policy)(meta, arrays)
    with pytest.raises(ValueError, match="board planes"):
        ActorCritic(100, 10, (8,), "tanh", conv=(4,), board=None)
    with pytest.raises(SystemExit):
        train_jax.parse_args(["--game", "volle_wolle", "--conv", "8"])
    config = train_jax.build(train_jax.parse_args(["--game", "haste_bock", "--conv", "8,4"]))[0]
    assert config.conv == (8, 4)


def test_the_progress_bar_stops_at_the_asked_timesteps(tmp_path, capsys):
    """Whole updates pass the target: the bar stops at it, the run's files say how far it went."""
    from meadowzoo.training import train_jax

    out = tmp_path / "bar"
    train_jax.main([a for a in CLI if a != "--quiet"] + ["--timesteps", "100", "--out", str(out)])
    err = capsys.readouterr().err
    assert "100/100" in err and not re.search(r"\b(10[1-9]|1[1-9]\d|[2-9]\d\d)/100\b", err)


def test_a_resumed_run_shows_each_step_once_in_tensorboard(tmp_path):
    """A run killed after its checkpoint had logged steps past it; resumed from the checkpoint, it
    logs them again, and TensorBoard shows each step once (the resumed writer purges them)."""
    import shutil

    pytest.importorskip("tensorboard")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    from meadowzoo.training import train_jax

    out = tmp_path / "run"
    train_jax.main(CLI + ["--timesteps", "512", "--out", str(out)])
    steps = sorted(int(p.name.removeprefix("step_")) for p in (out / "checkpoints").glob("step_*"))
    for later in steps[1:]:  # as if killed after the first checkpoint (its curve points stay in tb/)
        shutil.rmtree(out / "checkpoints" / f"step_{later:012d}")
    train_jax.main(CLI + ["--timesteps", "512", "--out", str(out)])
    curve = EventAccumulator(str(out / "tb")).Reload().Scalars("train/learner_steps")
    logged = [point.step for point in curve]
    assert len(logged) == len(set(logged)) and logged == sorted(logged) and logged[-1] >= 512
