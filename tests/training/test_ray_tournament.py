"""Distributed tournaments on a real local Ray cluster: a head node and one worker node on this
machine, one CPU each (the fixture in conftest.py)."""

import os
import signal
import threading
import time

import pytest

pytest.importorskip("ray")

from meadowzoo.training import evaluate, ray_tournament, tournament  # noqa: E402

GAME = dict(game="haste_bock", players=2, specs=["greedy", "random"], seed=11, progress=False)


def _strip(records):
    """Records without the decision timings (wall-clock, never reproducible)."""
    return [{k: v for k, v in record.items() if k != "seconds"} for record in records]


def test_ray_backend_spreads_games_over_both_nodes_with_the_process_pool_results(ray_cluster):
    by_ray = evaluate.evaluate(games=24, backend="ray", **GAME)
    by_pool = evaluate.evaluate(games=24, backend="processes", workers=2, **GAME)
    assert _strip(by_ray["records"]) == _strip(by_pool["records"])
    assert by_ray["per_agent"] == by_pool["per_agent"]
    assert by_ray["backend"] == "ray" and by_pool["backend"] == "processes"
    cluster = by_ray["cluster"]
    assert cluster["nodes"] == 2 and cluster["cpus"] == 2 and by_ray["workers"] == 2
    assert len(cluster["games_per_node"]) == 2, cluster  # both nodes played
    assert sum(cluster["games_per_node"].values()) == 24


def _chunk_workers() -> list[int]:
    """PIDs of Ray worker processes busy playing a chunk (Ray titles them ray::<function>)."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    if f.read().startswith(b"ray::_play_chunk"):
                        pids.append(int(entry))
            except OSError:
                pass
    return pids


def test_a_worker_killed_mid_tournament_costs_no_game_and_duplicates_none(ray_cluster):
    tasks = tournament.make_tasks("haste_bock", tournament.schedule(["greedy", "random"], 2, 48), 5,
                                  {"num_players": 2})
    killed = []

    def kill_one_busy_worker():
        deadline = time.time() + 60
        while time.time() < deadline and not killed:
            for pid in _chunk_workers():
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
                return
            time.sleep(0.005)

    killer = threading.Thread(target=kill_one_busy_worker)
    killer.start()
    records, cluster = ray_tournament.run(tasks, progress=False, chunk=6)
    killer.join()
    assert killed, "no busy worker was found to kill"
    assert [r["index"] for r in records] == list(range(len(tasks)))
    assert sum(cluster["games_per_node"].values()) == len(tasks)
    assert _strip(records) == _strip(tournament.run(tasks, workers=1, progress=False))


def test_bad_backend_arguments_are_refused():
    with pytest.raises(ValueError, match="backend"):
        evaluate.evaluate(games=2, backend="dask", **GAME)
    with pytest.raises(ValueError, match="address"):
        evaluate.evaluate(games=2, backend="processes", address="auto", **GAME)
    with pytest.raises(ValueError, match="chunk"):
        ray_tournament.run([], chunk=0)
