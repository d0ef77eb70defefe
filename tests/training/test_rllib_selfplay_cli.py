"""The RLlib self-play command line: bad values stop in one line before Ray starts, a Ray address
where no cluster answers stops at once, and a seeded run is the same in every process (the
modules are built in a fixed order, not in a set's hash order)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ray.rllib")

from meadowzoo.training import rllib_selfplay  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("flags, message", [
    (["--players", "7"], "argument --players"),
    (["--fixed-opponents", "bogus"], "argument --fixed-opponents: unknown agent"),
    (["--fixed-opponents", "human"], "plays at the terminal"),
    (["--option", "foo=1"], "argument --option"),
    (["--option", "num_players=3"], "argument --option"),
    (["--fixed-share", "2"], "argument --fixed-share"),
    (["--snapshots", "0"], "argument --snapshots"),
    (["--batch", "0"], "argument --batch"),
    (["--env-runners", "-1"], "argument --env-runners"),
    (["--minibatch", "300", "--batch", "200"], "argument --minibatch"),
    (["--lr", "0"], "argument --lr"),
])
def test_bad_values_stop_in_one_line_before_ray_starts(flags, message, capsys):
    with pytest.raises(SystemExit) as stopped:
        rllib_selfplay.main(["--game", "haste_bock", *flags])
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and message in err and "Traceback" not in err


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _run(module: str, *args: str, hash_seed: str = "0", timeout: float = 300) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
    env.pop("RAY_ADDRESS", None)
    return subprocess.run([sys.executable, "-m", f"meadowzoo.training.{module}", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("module, args", [
    ("rllib_selfplay", ["--game", "haste_bock", "--iterations", "1"]),
    ("evaluate", ["--game", "haste_bock", "--players", "2", "--agents", "random,greedy", "--games", "2"]),
])
def test_an_address_where_no_cluster_answers_stops_at_once_in_one_line(module, args):
    address = f"127.0.0.1:{_free_port()}"  # nothing listens there
    done = _run(module, *args, "--address", address, timeout=60)
    assert done.returncode == 2, done.stderr[-2000:]
    last = done.stderr.strip().splitlines()[-1]
    assert f"no Ray cluster answers at {address}" in last and "ray start --head" in last


def test_a_seeded_run_is_the_same_whatever_the_string_hash_seed(tmp_path):
    """With the modules in a set, the snapshots' and main's build order (and so their initial
    weights and the first iterations) changed with PYTHONHASHSEED, i.e. from process to process."""
    import torch

    weights = []
    for hash_seed in ("1", "2"):
        out = tmp_path / f"hash{hash_seed}.pt"
        done = _run("rllib_selfplay", "--game", "haste_bock", "--iterations", "2", "--env-runners", "0",
                    "--batch", "300", "--minibatch", "100", "--epochs", "1", "--out", str(out), hash_seed=hash_seed)
        assert done.returncode == 0, done.stderr[-3000:]
        weights.append(torch.load(out, weights_only=False)["state_dict"])
    assert weights[0].keys() == weights[1].keys()
    assert all(torch.equal(weights[0][name], weights[1][name]) for name in weights[0])
