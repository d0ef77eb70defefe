"""The training command on tiny settings: it trains, evaluates, checkpoints, resumes, is
reproducible, and ships a weights-only policy that plays legal moves."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
import torch

from meadowzoo.agents.policy import PolicyAgent, load_policy
from meadowzoo.training.train import main

TINY = ["--players", "2", "--n-envs", "1", "--n-steps", "64", "--batch-size", "32", "--eval-every", "64",
        "--eval-games", "2", "--checkpoint-every", "64", "--ladder", "random", "--quiet"]


def run(tmp_path, name, timesteps, *extra):
    out = tmp_path / name
    main(["--game", "volle_wolle", "--timesteps", str(timesteps), "--out", str(out), *TINY, *extra])
    return out


def test_trains_checkpoints_and_writes_a_weights_only_policy(tmp_path):
    out = run(tmp_path, "a", 128)
    for name in ("policy.pt", "state.json", "evaluations.csv", "final.json", "command.json"):
        assert (out / name).exists(), name
    assert not (out / "checkpoint.zip").exists()  # Stable-Baselines3's pickled format is not used
    newest = out / "checkpoints" / f"step_{128:012d}"
    weights = torch.load(newest / "weights.pt", weights_only=True)  # tensors only, no pickled code
    assert set(weights) == {"format", "policy", "optimizer", "torch_rng"}
    assert json.loads((newest / "meta.json").read_text())["timesteps"] == 128
    payload = torch.load(out / "policy.pt", weights_only=True)  # no pickled code needed
    assert payload["game"] == "volle_wolle" and payload["env_options"] == {"num_players": 2}
    final = json.loads((out / "final.json").read_text())
    assert final["timesteps"] >= 128 and 0.0 <= final["ladder"]["random"]["score"] <= 1.0
    low, high = final["ladder"]["random"]["ci95"]
    assert low <= final["ladder"]["random"]["score"] <= high


def test_resume_continues_from_the_checkpoint(tmp_path, capsys):
    out = run(tmp_path, "r", 128)
    run(tmp_path, "r", 256)
    assert "settings are kept" not in capsys.readouterr().out
    run(tmp_path, "r", 320, "--learning-rate", "0.123")  # a checkpoint keeps its own settings, and says so
    assert "learning_rate=0.0003 (asked 0.123)" in capsys.readouterr().out
    state = json.loads((out / "state.json").read_text())
    assert state["timesteps"] >= 256
    invocations = state["invocations"]  # both commands are on record, the second from the checkpoint
    assert [i["from_timesteps"] for i in invocations][0] == 0 and invocations[1]["from_timesteps"] >= 128
    assert "128" in invocations[0]["argv"] and "256" in invocations[1]["argv"]
    rows = (out / "evaluations.csv").read_text().strip().splitlines()
    steps = [int(row.split(",")[0]) for row in rows[1:]]
    assert steps == sorted(steps) and len(steps) >= 4  # no step evaluated twice, none lost


def test_same_seed_same_weights(tmp_path):
    a = load_policy(run(tmp_path, "s1", 128, "--seed", "3") / "policy.pt").state_dict()
    b = load_policy(run(tmp_path, "s2", 128, "--seed", "3") / "policy.pt").state_dict()
    c = load_policy(run(tmp_path, "s3", 128, "--seed", "4") / "policy.pt").state_dict()
    assert all(torch.equal(a[k], b[k]) for k in a)
    assert not all(torch.equal(a[k], c[k]) for k in a)


def test_policy_agent_plays_only_legal_actions(tmp_path):
    from meadowzoo.envs import volle_wolle_v0

    agent = PolicyAgent.from_file(run(tmp_path, "p", 64) / "policy.pt", game="volle_wolle")
    env = volle_wolle_v0.raw_env(num_players=2)
    env.reset(seed=0)
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        action = agent.act(env, env.agent_selection)
        assert action in env.legal_actions()
        env.step(action)
    with pytest.raises(ValueError, match="policy for volle_wolle"):
        PolicyAgent.from_file(tmp_path / "p" / "policy.pt", game="haste_bock")


def test_a_file_that_is_not_a_policy_is_rejected(tmp_path):
    path = tmp_path / "bad.pt"
    torch.save({"weights": np.zeros(3).tolist()}, path)
    with pytest.raises(ValueError, match="not a meadowzoo policy"):
        load_policy(path)


def test_behaviour_cloning_fits_the_teacher(tmp_path, capsys):
    """A warm start makes the policy imitate the teacher: its loss falls, and the imitation run
    records the teacher data it used; while it collects the teacher's games and fits them it prints
    progress lines (issue 15 item 8b: the main job was silent for minutes)."""
    from sb3_contrib import MaskablePPO

    from meadowzoo.training.imitation import collect, pretrain
    from meadowzoo.training.selfplay import SelfPlayEnv

    data = collect("volle_wolle", players=2, teacher="greedy", games=6, seed=0)
    assert len(data) > 50 and data.masks[np.arange(len(data)), data.actions].all()  # teacher moves are legal
    assert set(np.unique(data.returns)) <= {-1.0, 0.0, 1.0}
    model = MaskablePPO("MlpPolicy", SelfPlayEnv("volle_wolle", num_players=2), seed=0, policy_kwargs={"net_arch": [64]})
    losses = pretrain(model, data, epochs=8)
    assert losses[-1] < losses[0] * 0.8
    capsys.readouterr()
    out = tmp_path / "bc"
    main(["--game", "volle_wolle", "--timesteps", "64", "--out", str(out), *[a for a in TINY if a != "--quiet"],
          "--imitate", "greedy", "--imitate-games", "3", "--imitate-epochs", "2"])
    shown = capsys.readouterr().out
    assert re.search(r"^collecting greedy's games: 1/3 \(33%\), [\d.e+-]+ games/s, ETA \d+ s$", shown, re.M)
    assert re.search(r"^collecting greedy's games: 3/3 \(100%\), [\d.e+-]+ games/s, \d+ s in all$", shown, re.M)
    assert re.search(r"^imitation epochs \(\d+ decisions\): 1/2 \(50%\), .*ETA .*; loss \d+\.\d{4}$", shown, re.M)
    assert re.search(r"^imitation epochs \(\d+ decisions\): 2/2 \(100%\), .*; loss \d+\.\d{4}$", shown, re.M)
    assert re.search(r"^collecting held-out games: 1/1 \(100%\)", shown, re.M)
    imitation = json.loads((out / "state.json").read_text())["imitation"]
    assert imitation["teacher"] == "greedy" and imitation["held_out_decisions"] > 0
    assert 0.0 <= imitation["held_out_agreement"] <= 1.0


def test_agreement_counts_the_decisions_where_the_policy_picks_the_teachers_action():
    from dataclasses import replace

    from sb3_contrib import MaskablePPO

    from meadowzoo.training.imitation import agreement, collect
    from meadowzoo.training.selfplay import SelfPlayEnv

    data = collect("volle_wolle", players=2, teacher="random", games=2, seed=3)
    model = MaskablePPO("MlpPolicy", SelfPlayEnv("volle_wolle", num_players=2), seed=0)
    import torch

    with torch.no_grad():
        own = model.policy.get_distribution(torch.as_tensor(data.observations), action_masks=data.masks)
        favourite = own.distribution.probs.argmax(dim=1).numpy()
    assert agreement(model.policy, replace(data, actions=favourite)) == 1.0
    # a legal action other than the favourite wherever there is one: agreement drops by that share
    other = favourite.copy()
    changed = 0
    for i, mask in enumerate(data.masks):
        legal = [a for a in mask.nonzero()[0] if a != favourite[i]]
        if legal:
            other[i] = legal[0]
            changed += 1
    assert changed > 0
    assert agreement(model.policy, replace(data, actions=other), batch_size=7) == 1.0 - changed / len(data)


def test_ship_records_how_the_policy_was_trained(tmp_path):
    from meadowzoo.training.results import _training_lines
    from meadowzoo.training.ship import main as ship

    out = run(tmp_path, "ship", 64, "--seed", "5")
    ship([str(out), str(tmp_path / "shipped" / "vw2")])
    record = json.loads((tmp_path / "shipped" / "vw2.json").read_text())
    assert record["seed"] == 5 and record["timesteps"] >= 64 and "--game volle_wolle" in record["command"]
    assert torch.load(tmp_path / "shipped" / "vw2.pt", weights_only=True)["game"] == "volle_wolle"
    line = " ".join(_training_lines([f"policy:{tmp_path / 'shipped' / 'vw2.pt'}"]))
    assert record["command"] in line and "seed 5" in line and "continued" not in line
    run(tmp_path, "ship", 128, "--seed", "5")  # continued by a second command
    ship([str(out), str(tmp_path / "shipped" / "vw2")])
    record = json.loads((tmp_path / "shipped" / "vw2.json").read_text())
    assert len(record["invocations"]) == 2 and record["invocations"][1]["from_timesteps"] >= 64
    line = " ".join(_training_lines([f"policy:{tmp_path / 'shipped' / 'vw2.pt'}"]))
    assert "continued from" in line and record["invocations"][1]["command"] in line


def test_snapshot_threshold_above_one_keeps_the_pool_fixed(tmp_path):
    """A threshold no ladder score reaches never adds the learner to its own opponent pool; a
    threshold of 0 adds a snapshot at every evaluation."""
    never = json.loads((run(tmp_path, "never", 128, "--snapshot-threshold", "2") / "state.json").read_text())
    always = json.loads((run(tmp_path, "always", 128, "--snapshot-threshold", "0") / "state.json").read_text())
    assert never["snapshots"] == []
    assert len(always["snapshots"]) >= 2


def test_fixed_share_one_never_draws_a_snapshot_opponent():
    from meadowzoo.training.pool import OpponentPool
    from meadowzoo.training.train import parse_args
    from meadowzoo.training.config import config_for

    assert config_for("volle_wolle", fixed_share=parse_args(["--game", "volle_wolle", "--fixed-share", "1"]).fixed_share
                      ).fixed_share == 1.0
    pool = OpponentPool("volle_wolle", "greedy", fixed_share=1.0)
    pool.snapshots.append(("never", lambda: pytest.fail("a snapshot was drawn")))
    rng = np.random.default_rng(0)
    assert all(pool.sample(rng).name == "greedy" for _ in range(200))


@pytest.mark.parametrize("flags, message", [
    (["--eval-every", "0"], "--eval-every: expected a whole number of at least 1"),
    (["--checkpoint-every", "-1"], "--checkpoint-every: expected a whole number of at least 1"),
    (["--players", "7"], "--players: volle_wolle is for 2-6 players, not 7"),
    (["--fixed-share", "1.5"], "--fixed-share: expected a share between 0 and 1"),
    (["--learning-rate", "nan"], "--learning-rate: expected a finite number"),
])
def test_bad_command_line_values_are_argparse_errors(flags, message, capsys, tmp_path):
    """Issue #16: checked before anything runs (no ZeroDivisionError, no checkpoint every step)."""
    with pytest.raises(SystemExit) as stopped:
        main(["--game", "volle_wolle", "--out", str(tmp_path / "never"), *flags])
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "never").exists()


def test_the_progress_bar_stops_at_the_asked_timesteps(tmp_path, capsys):
    """SB3 collects whole rollouts (64 steps here), so 100 asked steps run 128: the bar says 100/100."""
    out = tmp_path / "bar"
    main(["--game", "volle_wolle", "--timesteps", "100", "--out", str(out), *[a for a in TINY if a != "--quiet"]])
    err = capsys.readouterr().err
    assert json.loads((out / "state.json").read_text())["timesteps"] == 128
    assert "100/100" in err and "128/100" not in err


def test_a_resumed_run_shows_each_step_once_in_tensorboard(tmp_path):
    """Killed after a checkpoint, a run had logged curve points past it; resumed from the checkpoint,
    it logs its own into the same folder (tb/ppo_1), and TensorBoard shows those, each step once.
    (A point logged after the checkpoint at its very step is the update the resumed run redoes:
    hidden too.)"""
    import shutil

    pytest.importorskip("tensorboard")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    out = run(tmp_path, "tb", 256)
    before = [point.step for point in EventAccumulator(str(out / "tb" / "ppo_1")).Reload().Scalars("time/fps")]
    assert before == [64, 128, 192, 256]  # one point per 64-step rollout
    steps = sorted(int(p.name.removeprefix("step_")) for p in (out / "checkpoints").glob("step_*"))
    resumed_from = steps[0]
    for later in steps[1:]:  # as if killed after the first checkpoint kept (its curve points stay in tb/)
        shutil.rmtree(out / "checkpoints" / f"step_{later:012d}")
    run(tmp_path, "tb", 256)
    assert sorted(p.name for p in (out / "tb").iterdir()) == ["ppo_1"]
    logged = [point.step for point in EventAccumulator(str(out / "tb" / "ppo_1")).Reload().Scalars("time/fps")]
    assert logged == [s for s in before if s < resumed_from] + list(range(resumed_from + 64, 257, 64))
