"""Issue #16: resuming never unpickles anything, a killed run loses at most one checkpoint interval,
a corrupt newest checkpoint falls back to the previous one, env processes die with their run."""

from __future__ import annotations

import json
import os
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from meadowzoo.training import checkpoints
from meadowzoo.training.files import read_csv
from meadowzoo.training.train import main

ROOT = Path(__file__).resolve().parents[2]
TINY = ["--game", "volle_wolle", "--players", "2", "--n-steps", "64", "--batch-size", "32", "--eval-every", "64",
        "--eval-games", "2", "--checkpoint-every", "64", "--ladder", "random", "--quiet"]


class _Payload:
    """Pickles to a call that creates a marker file: proof of code execution if ever unpickled."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def _steps(out: Path) -> list[int]:
    return [int(row["timesteps"]) for row in read_csv(out / "evaluations.csv")]


def test_crafted_pickles_in_the_run_folder_never_run(tmp_path):
    out, marker = tmp_path / "run", tmp_path / "pwned"
    out.mkdir()
    (out / "checkpoint.zip").write_bytes(pickle.dumps(_Payload(marker)))  # the old SB3 resume file
    forged = out / "checkpoints" / f"step_{999:012d}"
    forged.mkdir(parents=True)
    (forged / "weights.pt").write_bytes(pickle.dumps(_Payload(marker)))
    (forged / "meta.json").write_text(json.dumps({"format": checkpoints.FORMAT, "timesteps": 999, "n_updates": 0,
                                                  "episode_num": 0, "settings": {}, "state": {},
                                                  "numpy_rng": [], "python_rng": []}))
    with pytest.warns(RuntimeWarning, match="skipping unusable checkpoint step_000000000999"):
        main([*TINY, "--n-envs", "1", "--timesteps", "64", "--out", str(out)])
    assert not marker.exists()
    assert json.loads((out / "final.json").read_text())["timesteps"] == 64  # trained from scratch


def test_a_corrupt_newest_checkpoint_falls_back_to_the_previous_one(tmp_path, capsys):
    out = tmp_path / "run"
    main([*TINY, "--n-envs", "1", "--timesteps", "128", "--out", str(out)])
    newest, previous = checkpoints.folders(out)
    assert (newest.name, previous.name) == (f"step_{128:012d}", f"step_{64:012d}")
    weights = newest / "weights.pt"
    weights.write_bytes(weights.read_bytes()[: weights.stat().st_size // 2])  # a kill during the save
    with pytest.warns(RuntimeWarning, match="skipping unusable checkpoint step_000000000128"):
        main([*TINY, "--n-envs", "1", "--timesteps", "192", "--out", str(out)])
    assert "at 64 timesteps" in capsys.readouterr().out
    steps = _steps(out)
    assert steps == sorted(set(steps)) and steps[-1] >= 192  # the rows after step 64 were cut and redone
    state = json.loads((out / "state.json").read_text())
    assert [i["from_timesteps"] for i in state["invocations"]] == [0, 64]


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        children = (task / "children").read_text().split()
        found += [int(child) for child in children]
    return found


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "State:\tZ" not in status


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_killed_run_resumes_losing_at_most_one_interval_and_leaves_no_processes(tmp_path):
    out = tmp_path / "run"
    command = [sys.executable, "-m", "meadowzoo.training.train", *TINY, "--n-envs", "2", "--timesteps", "100000",
               "--out", str(out)]
    run = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 240
        while len(checkpoints.folders(out)) < 2 and time.time() < deadline and run.poll() is None:
            time.sleep(0.2)
        assert len(checkpoints.folders(out)) >= 2, "the run wrote no checkpoints"
        children = _children(run.pid)
        assert len(children) >= 2  # the env processes
        saved_before_kill = checkpoints.folders(out)[0].name
        os.kill(run.pid, signal.SIGKILL)
        run.wait()
    finally:
        if run.poll() is None:
            run.kill()
    deadline = time.time() + 30
    while any(_alive(child) for child in children) and time.time() < deadline:
        time.sleep(0.2)
    assert not any(_alive(child) for child in children), "env processes outlived the killed run"
    found = checkpoints.latest(out)
    assert found is not None and found.path.name >= saved_before_kill
    # resumed, it trains exactly as a run never killed: the games in progress are replayed in the
    # env processes (training.resume), the network, optimizer and generators come back
    target = str(found.timesteps + 128)
    main([*TINY, "--n-envs", "2", "--timesteps", target, "--out", str(out)])
    state = json.loads((out / "state.json").read_text())
    assert state["invocations"][-1]["from_timesteps"] == found.timesteps
    steps = _steps(out)
    assert steps == sorted(set(steps))  # the killed run's later rows were cut, none doubled
    main([*TINY, "--n-envs", "2", "--timesteps", target, "--out", str(tmp_path / "never_killed")])
    assert_same_training(out, tmp_path / "never_killed")


def assert_same_training(run: Path, reference: Path) -> None:
    """The same policy bit for bit, the same ladder evaluations and final scores (not the times)."""
    import torch

    mine, theirs = (torch.load(path / "policy.pt", map_location="cpu", weights_only=True) for path in (run, reference))
    assert mine["state_dict"].keys() == theirs["state_dict"].keys()
    for name, tensor in mine["state_dict"].items():
        assert torch.equal(tensor, theirs["state_dict"][name]), name
    timeless = [[{k: v for k, v in row.items() if k != "wall_seconds"} for row in read_csv(path / "evaluations.csv")]
                for path in (run, reference)]
    assert timeless[0] == timeless[1] and len(timeless[0]) >= 2
    finals = [json.loads((path / "final.json").read_text()) for path in (run, reference)]
    assert finals[0]["ladder"] == finals[1]["ladder"] and finals[0]["timesteps"] == finals[1]["timesteps"]


def test_a_resumed_run_trains_exactly_as_an_uninterrupted_one(tmp_path, capsys):
    """Stopped at 192 of 384 timesteps (its final checkpoint) and run again to 384: the same policy
    and evaluations as one run to 384. With snapshots entering the pool at every evaluation (the
    replay draws an episode's opponents from the pool as it was then) and a greedy opponent."""
    options = [*TINY, "--n-envs", "1", "--snapshot-threshold", "0", "--opponents", "random,greedy"]
    main([*options, "--timesteps", "384", "--out", str(tmp_path / "whole")])
    main([*options, "--timesteps", "192", "--out", str(tmp_path / "split")])
    main([*options, "--timesteps", "384", "--out", str(tmp_path / "split")])
    assert "replayed the 1 envs' games in progress" in capsys.readouterr().out
    assert_same_training(tmp_path / "split", tmp_path / "whole")


def test_a_record_that_does_not_replay_resumes_with_fresh_games(tmp_path, capsys):
    """A checkpoint whose game record names a snapshot file that is gone: a warning, fresh games
    (as checkpoints without records resume), and the run goes on to its end."""
    out = tmp_path / "run"
    main([*TINY, "--n-envs", "1", "--timesteps", "192", "--out", str(out)])
    meta_path = checkpoints.folders(out)[0] / "meta.json"
    meta = json.loads(meta_path.read_text())
    meta["envs"]["records"][0]["pool"] = [str(tmp_path / "gone.pt")]
    meta_path.write_text(json.dumps(meta))
    with pytest.warns(RuntimeWarning, match="do not replay .*gone.pt"):
        main([*TINY, "--n-envs", "1", "--timesteps", "256", "--out", str(out)])
    assert "the envs start fresh games" in capsys.readouterr().out
    assert json.loads((out / "final.json").read_text())["timesteps"] >= 256


def test_a_checkpoint_of_another_player_count_or_options_is_not_resumed(tmp_path, capsys):
    """Haste Bock?'s networks fit every player count, so the sizes cannot tell: the run's own record does."""
    from meadowzoo.training import train

    out = tmp_path / "run"
    train.main(TINY + ["--timesteps", "64", "--out", str(out)])
    command = (out / "command.json").read_text()
    for other in (["--players", "3"], ["--option", "max_turns=300"]):
        with pytest.raises(SystemExit) as stopped:
            train.main(TINY + ["--timesteps", "128", "--out", str(out)] + other)
        assert stopped.value.code == 2 and "other settings" in capsys.readouterr().err
    assert (out / "command.json").read_text() == command  # a refused command leaves the record alone
    (out / "tb").mkdir(exist_ok=True)
    (out / "tb" / "old.events").write_text("x")
    train.main(TINY + ["--timesteps", "64", "--out", str(out), "--fresh"])
    assert not (out / "tb" / "old.events").exists()


@pytest.mark.parametrize("flag", ["--opponents", "--ladder", "--imitate"])
def test_a_person_cannot_be_a_training_opponent_teacher_or_ladder_rung(flag, capsys):
    from meadowzoo.training import train

    with pytest.raises(SystemExit) as stopped:
        train.main(TINY + ["--timesteps", "64", flag, "human"])
    assert stopped.value.code == 2 and "plays at the terminal" in capsys.readouterr().err


def test_ctrl_c_in_a_ladder_is_exit_status_130_without_a_traceback(capsys):
    from meadowzoo.training.arguments import stops_on_ctrl_c
    from meadowzoo.training.tournament import Interrupted

    @stops_on_ctrl_c
    def interrupted_in_a_ladder():
        raise Interrupted([])

    with pytest.raises(SystemExit) as stopped:
        interrupted_in_a_ladder()
    assert stopped.value.code == 130 and "resumes the run" in capsys.readouterr().err


def test_ship_leaves_a_shipped_agent_alone_when_the_run_is_unfinished(tmp_path, capsys):
    from meadowzoo.training import ship, train

    run = tmp_path / "run"
    train.main(TINY + ["--timesteps", "64", "--out", str(run)])
    dest = tmp_path / "shipped" / "agent"
    ship.main([str(run), str(dest)])
    before = {p.name: p.read_bytes() for p in dest.parent.iterdir()}
    (run / "final.json").unlink()  # a run stopped during its final ladder
    with pytest.raises(SystemExit) as stopped:
        ship.main([str(run), str(dest)])
    assert stopped.value.code == 2 and "final.json" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in dest.parent.iterdir()} == before
    with pytest.raises(SystemExit):
        ship.main([str(tmp_path / "nothing"), str(dest)])


def test_results_read_the_agents_records_whatever_the_current_folder(tmp_path, monkeypatch):
    from meadowzoo.training import results

    expected = results.render(ROOT / "results", ROOT / "results")
    assert "was trained with" in expected
    monkeypatch.chdir(tmp_path)
    assert results.render(ROOT / "results", ROOT / "results") == expected
