"""``evaluate`` keeps work safe (issue 16): an output folder that cannot be written fails before any
game; Ctrl-C writes the finished games, marks the tables partial and exits 130."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from meadowzoo.training import evaluate

ROOT = Path(__file__).resolve().parents[2]


def test_unwritable_out_fails_before_any_game(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setattr(evaluate, "evaluate", lambda *a, **k: pytest.fail("a game was played"))
    with pytest.raises(SystemExit) as stopped:
        evaluate.main(["--game", "volle_wolle", "--agents", "random,random", "--games", "2",
                       "--out", str(blocker / "results")])
    assert stopped.value.code == 2
    assert "argument --out: cannot write to" in capsys.readouterr().err


def test_out_folder_is_created_and_left_clean(tmp_path):
    out = tmp_path / "new" / "results"
    result = evaluate.main(["--game", "volle_wolle", "--agents", "random,random", "--games", "2", "--quiet",
                            "--out", str(out)])
    assert result["games"] == 2 and "partial" not in result
    assert sorted(p.name for p in out.iterdir()) == ["agents.csv", "head_to_head.csv", "results.json", "seats.csv",
                                                     "summary.png"]  # no test file left behind


def default_sigint() -> None:
    """In the child before exec: Ctrl-C's default disposition, as in a user's terminal. A test run
    started in the background by a shell without job control (``cmd &`` in a script, as a CI runner
    may start it) inherits SIGINT ignored, and Python then installs no KeyboardInterrupt handler."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_writes_the_finished_games_and_exits_130(tmp_path, workers):
    out = tmp_path / "out"
    games = 100_000
    process = subprocess.Popen(
        [sys.executable, "-m", "meadowzoo.training.evaluate", "--game", "hase_und_igel", "--agents", "random,random",
         "--games", str(games), "--workers", str(workers), "--out", str(out)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)
    # the progress bar (stderr) says how many games are done: interrupt once a few are
    seen, deadline = "", time.time() + 120
    while time.time() < deadline:
        seen += os.read(process.stderr.fileno(), 4096).decode(errors="replace")
        done = [int(n) for n in re.findall(rf"(\d+)/{games}", seen)]
        if done and max(done) >= 3:
            break
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr[-2000:]
    assert "Traceback" not in seen + stderr
    result = json.loads((out / "results.json").read_text())
    assert result["partial"] is True and result["games_planned"] == games
    assert 3 <= result["games"] == len(result["records"]) < games
    assert all(record["actions"] for record in result["records"])  # finished games, replayable
    assert result["per_agent"]["random"]["games"] == 2 * result["games"]
    assert f"PARTIAL: interrupted after {result['games']} of {games} games" in stdout
    assert (out / "agents.csv").exists()


def test_a_policy_checked_on_the_command_line_does_not_hang_the_forked_workers(tmp_path):
    """The parse-time check loads the policy network; done in the parent before the fork pool it
    deadlocked the workers (torch's threads do not survive fork). It runs in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-m", "meadowzoo.training.evaluate", "--game", "volle_wolle", "--agents",
         "policy:agents/trained/volle_wolle_2p.pt,greedy", "--games", "2", "--workers", "2", "--quiet"],
        cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "policy:agents/trained/volle_wolle_2p.pt" in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "meadowzoo.training.evaluate", "--game", "haste_bock", "--agents",
         "policy:agents/trained/volle_wolle_2p.pt,greedy", "--games", "2", "--workers", "2"],
        cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert "error: argument --agents: " in bad.stderr.strip().splitlines()[-1]
