"""Tournament games as Ray tasks, on one machine or a cluster.

The games are the tournament's :class:`~meadowzoo.training.tournament.GameTask` list; each task is
played by :func:`meadowzoo.training.tournament.play_task`, a pure function of the task (game,
seats, the game's seed drawn from the master seed and its index). So the records are identical
to the process pool's for the same master seed, whichever nodes play which games.

Games travel in chunks (one Ray task plays ``chunk`` consecutive games, to keep Ray's per-task
cost small next to the games): by default about eight chunks per CPU of the cluster, at most 32
games each. A chunk's result is one object fetched once, so no game can be counted twice. When a
worker process or a node dies mid-chunk, Ray re-runs the chunk elsewhere (``max_retries``); the
replay computes the same records, so the dead worker costs no game and duplicates none. Errors
raised by a game itself are not retried: they would fail again.

The returned ``cluster`` dict says how many nodes and CPUs the cluster had and how many games each
node played (by Ray node id).
"""

from __future__ import annotations

import collections

from meadowzoo.training.ray_cluster import _import_ray, cluster_size, connect
from meadowzoo.training.tournament import GameTask, play_task

#: Ray re-runs a chunk this often when its worker or node dies
MAX_RETRIES = 5


def _play_chunk(tasks: list[GameTask]) -> tuple[str, list[dict]]:
    """The records of ``tasks`` and the id of the node that played them."""
    ray = _import_ray()
    return ray.get_runtime_context().get_node_id(), [play_task(task) for task in tasks]


def default_chunk(games: int, cpus: int) -> int:
    """Games per Ray task: about eight tasks per CPU, between 1 and 32 games each."""
    return max(1, min(32, games // max(1, 8 * cpus)))


def run(tasks: list[GameTask], address: str | None = None, progress: bool = True,
        chunk: int | None = None) -> tuple[list[dict], dict]:
    """Play all ``tasks`` as Ray tasks; the records in task order and the cluster's description."""
    if chunk is not None and chunk < 1:
        raise ValueError(f"chunk must be at least 1 game, got {chunk}")
    ray = _import_ray()
    connection = connect(address)
    try:
        size = cluster_size()
        chunk = chunk or default_chunk(len(tasks), size["cpus"])
        remote = ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=False)(_play_chunk)
        pending = {remote.remote(tasks[i:i + chunk]): len(tasks[i:i + chunk]) for i in range(0, len(tasks), chunk)}
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=len(tasks), unit="game", smoothing=0.05, desc=f"ray, {size['cpus']} CPUs")
        records, per_node = [], collections.Counter()
        try:
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    node, chunk_records = ray.get(ref)
                    del pending[ref]
                    records += chunk_records
                    per_node[node] += len(chunk_records)
                    bar and bar.update(len(chunk_records))
        except KeyboardInterrupt:  # keep the finished games (see tournament.Interrupted)
            from meadowzoo.training.tournament import Interrupted

            raise Interrupted(sorted(records, key=lambda r: r["index"])) from None
        finally:
            if bar is not None:
                bar.close()
            for ref in pending:  # a failed game: stop the rest instead of playing on unseen
                ray.cancel(ref)
    finally:
        connection.close()
    records.sort(key=lambda r: r["index"])
    if [r["index"] for r in records] != [t.index for t in sorted(tasks, key=lambda t: t.index)]:
        raise RuntimeError("the Ray backend lost or duplicated games")  # by construction never
    return records, {**size, "chunk": chunk, "games_per_node": dict(sorted(per_node.items()))}
