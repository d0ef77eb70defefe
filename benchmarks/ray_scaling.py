"""Tournament throughput of the Ray backend with 1 and 2 worker nodes on this machine.

    python -m benchmarks.ray_scaling --games 200 --game haste_bock --agents strong,greedy

Starts a local Ray cluster (:class:`ray.cluster_utils.Cluster`): a head node with one CPU, plays
the tournament, adds a second one-CPU node, plays it again; then the same tournament with the
process pool in 1 and 2 processes, for reference. Prints games per second (wall clock, Ray's
start-up not counted: the cluster is up before the clock starts) and the 2-to-1 ratios, and checks
that all four runs gave the same records. Wall-clock figures: on a loaded machine they measure the
load too; say so when quoting them.
"""

from __future__ import annotations

import argparse
import json
import os
import time


def _records(result: dict) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in result["records"]]


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="haste_bock")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--agents", default="strong,greedy")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args(argv)
    import ray
    from ray.cluster_utils import Cluster

    from meadowzoo.training.evaluate import evaluate
    from meadowzoo.training.ray_cluster import code_runtime_env

    kwargs = dict(game=args.game, players=args.players, specs=args.agents.split(","), games=args.games,
                  seed=args.seed, progress=False)
    figures, results = {}, {}
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    try:
        ray.init(address=cluster.address, runtime_env=code_runtime_env(), logging_level="WARNING")
        for nodes in (1, 2):
            if nodes == 2:
                cluster.add_node(num_cpus=1)
                cluster.wait_for_nodes()
            ray.get([ray.remote(lambda: None).remote() for _ in range(4)])  # workers started
            started = time.perf_counter()
            results[f"ray_{nodes}"] = evaluate(backend="ray", **kwargs)
            figures[f"ray_{nodes}"] = args.games / (time.perf_counter() - started)
    finally:
        ray.shutdown()
        cluster.shutdown()
    for workers in (1, 2):
        started = time.perf_counter()
        results[f"processes_{workers}"] = evaluate(backend="processes", workers=workers, **kwargs)
        figures[f"processes_{workers}"] = args.games / (time.perf_counter() - started)
    identical = all(_records(r) == _records(results["ray_1"]) for r in results.values())
    report = {"games": args.games, "game": args.game, "players": args.players, "agents": args.agents,
              "games_per_second": {k: round(v, 2) for k, v in figures.items()},
              "ray_ratio": round(figures["ray_2"] / figures["ray_1"], 2),
              "processes_ratio": round(figures["processes_2"] / figures["processes_1"], 2),
              "identical_records": identical, "load_average": os.getloadavg()}
    print(json.dumps(report, indent=1))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    return report


if __name__ == "__main__":
    main()
