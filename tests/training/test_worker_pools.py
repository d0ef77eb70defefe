"""Issue #16: the worker pools of tournaments, imitation and afterstate data end with their parent,
even when it is killed with SIGKILL (training/processes.py ``worker_pool``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.training.test_train_resume import _alive, _children

ROOT = Path(__file__).resolve().parents[2]

# Each case starts the real pool of one module with its worker function replaced by a long sleep,
# so that the workers are busy when the parent is killed.
SCRIPT = '''
import sys, time
from meadowzoo.training import afterstate_data, imitation, tournament

def sleeper(*args):
    time.sleep(300)

def main(which):
    if which == "tournament":
        tournament.play_task = sleeper
        tasks = [tournament.GameTask(i, "volle_wolle", ("random", "random"), i) for i in range(4)]
        tournament.run(tasks, workers=2, progress=False)
    elif which == "imitation":
        imitation._collect_chunk = sleeper
        imitation.collect("volle_wolle", 2, "random", games=4, seed=0, workers=2)
    else:
        afterstate_data._play_range = sleeper
        afterstate_data.generate(4, 0, [("strong", "random")], workers=2, chunk=2)

if __name__ == "__main__":
    main(sys.argv[1])
'''


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("which", ["tournament", "imitation", "afterstate"])
def test_pool_workers_die_with_a_killed_parent(tmp_path, which):
    """Case: a parent killed with SIGKILL while its pool works leaves no worker behind."""
    script = tmp_path / "pool_parent.py"
    script.write_text(SCRIPT)
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    parent = subprocess.Popen([sys.executable, str(script), which], cwd=ROOT, env=environment,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    children: list[int] = []
    try:
        deadline = time.time() + 60
        while time.time() < deadline and parent.poll() is None:
            children = _children(parent.pid)
            if len(children) >= 2:
                break
            time.sleep(0.1)
        assert len(children) >= 2, "the pool started no workers"
        time.sleep(1.0)  # the workers have run their initializer and taken a task
        children = _children(parent.pid)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        deadline = time.time() + 20
        while any(_alive(child) for child in children) and time.time() < deadline:
            time.sleep(0.1)
        survivors = [child for child in children if _alive(child)]
        assert not survivors, f"{which} pool workers outlived their killed parent: {survivors}"
    finally:
        if parent.poll() is None:
            parent.kill()
        for child in children:  # never leave sleepers behind, whatever the outcome
            if _alive(child):
                os.kill(child, signal.SIGKILL)
