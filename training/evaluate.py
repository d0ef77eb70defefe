"""Tournament between any agents: seat-balanced, parallel, reproducible, with intervals and ratings.

    python -m meadowzoo.training.evaluate --game hase_und_igel --players 4 \\
        --agents strong,greedy,random,mcts:200 --games 400 --workers 2 --seed 0 --out results/hui_4p

``--agents`` takes agent specs (``name`` or ``name:parameter``, see ``meadowzoo.agents.registry``). With as
many agents as seats every game seats all of them, rotating seats (``--mode table``, the default);
in a team game (``--option teams=2x2`` in Hase und Igel) the games also go through ways of
splitting the agents into teams, so that every agent is partnered with every other equally often.
``--games`` is rounded up to whole cycles of that schedule; the command prints the cycle first
(:mod:`meadowzoo.training.tournament` describes it). With 2 players and more agents ``--mode pairs``
plays every pairing ``--games`` times, alternating seats. A name may repeat to fill seats
(``strong,random,random,random``); repeated seats pool their results under one label.
``--option key=value`` passes env options (ints and booleans are parsed), e.g.
``--option two_runners=false``. ``--truncated standing`` scores games cut at
``max_turns`` by the standing at the cut instead of as draws (4-player Hase und Igel with random
seats rarely ends: the race ends only when all runners but one are home).

``--backend ray`` plays the games as Ray tasks (a private Ray on this machine, or the cluster of
``RAY_ADDRESS``); ``--address HOST:PORT`` (or ``auto``) joins a running cluster
(:mod:`meadowzoo.training.ray_tournament`). The records are the same as the process pool's for the
same ``--seed``; ``results.json`` records the ``backend`` and the ``cluster`` (nodes, CPUs, games
played per node).

Prints the per-agent table (wins, draws, losses, win share, mean rank, mean margin, each with a
95% interval), the per-seat table, the head-to-head shares and the ratings; with ``--out DIR``
writes ``DIR/results.json`` (the command, settings, every game record and all statistics),
``DIR/agents.csv``, ``DIR/seats.csv``, ``DIR/head_to_head.csv`` and ``DIR/summary.png``. ``--out`` is
created and test-written before the first game, so an unwritable folder fails at once. Ctrl-C
(SIGINT) stops the tournament: the tables and files of the games finished so far are written,
marked partial (``"partial": true`` and ``games_planned`` in ``results.json``, ``PARTIAL`` in the
printed tables and the picture), and the command exits with status 130.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shlex
import sys
import time
from pathlib import Path

from meadowzoo.envs import GAMES
from meadowzoo.training import ratings, stats, tournament
from meadowzoo.training.arguments import (  # noqa: F401  (parse_option: its old home)
    add_game_arguments, check_agents, check_game_arguments, check_writable, command_error, command_parser, parse_option,
    positive_int,
)
from meadowzoo.training.ray_cluster import ClusterUnreachable

#: where the games run: local worker processes, or Ray tasks on a cluster
BACKENDS = ("processes", "ray")


def evaluate(game: str, players: int, specs: list[str], games: int, seed: int = 0, workers: int = 1,
             mode: str = "table", options: dict | None = None, progress: bool = True,
             truncated: str = "draw", backend: str = "processes", address: str | None = None) -> dict:
    """Run a tournament; the full result (records and statistics) as a JSON-ready dict.

    ``backend="processes"`` plays the games in ``workers`` local processes; ``backend="ray"`` plays
    them as Ray tasks on the cluster at ``address`` (see :mod:`meadowzoo.training.ray_cluster`;
    ``workers`` is then the cluster's CPU count). Both give the same records for the same seed.

    Ctrl-C raises :class:`meadowzoo.training.tournament.Interrupted` whose ``result`` is this
    dict for the games finished until then, marked ``partial`` (with ``games_planned``)."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose {' or '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise ValueError("a Ray address needs backend='ray'")
    options = {"num_players": players, **(options or {})}
    # the game says its teams: a team game's schedule rotates partners too (tournament.table_cycle)
    seatings = tournament.schedule(specs, players, games, mode, tournament.seat_teams(game, options))
    tasks = tournament.make_tasks(game, seatings, seed, options)
    start = time.time()
    interrupted = None
    try:
        if backend == "ray":
            from meadowzoo.training import ray_tournament

            records, cluster = ray_tournament.run(tasks, address=address, progress=progress)
            workers = cluster["cpus"]
        else:
            records = tournament.run(tasks, workers=workers, progress=progress)
            cluster = {"nodes": 1, "cpus": workers}
    except tournament.Interrupted as stop:  # Ctrl-C: the statistics of the games finished so far
        interrupted, records = stop, stop.records
        cluster = {"nodes": None, "cpus": workers}
    if truncated == "standing":  # score a game cut at max_turns by its standing at the cut
        for record in records:
            if record["truncated"]:
                record["env_rewards"], record["rewards"] = record["rewards"], record["standing_rewards"]
    labels = list(dict.fromkeys(specs))
    result = {
        "game": game, "players": players, "agents": labels, "games": len(records), "seed": seed,
        "mode": mode, "truncated_scoring": truncated, "options": options, "backend": backend, "cluster": cluster,
        "workers": workers, "wall_seconds": round(time.time() - start, 1),
        "truncated_games": sum(r["truncated"] for r in records),
        "margin_unit": "score" if records and records[0]["scores"] is not None else "reward",
        **stats.tournament_stats(records, labels),
        "openskill": ratings.openskill_ratings(records, labels),
        "bradley_terry_elo": ratings.bradley_terry(records, labels),
        "seconds_per_decision": stats.thinking_seconds(records, labels),
        "records": records,
    }
    if interrupted is not None:
        result["partial"] = True
        result["games_planned"] = len(tasks)
        interrupted.result = result
        raise interrupted
    return result


#: the checkout's paths that make up the installed package (rules, players and their files, tools)
PACKAGE_PATHS = ("envs", "agents", "training", "meadowzoo", "pyproject.toml", "setup.py")


def code_version() -> dict:
    """The code that played: meadowzoo's version and, from a git checkout, its commit and whether
    the tree had uncommitted changes (re-running a result's command reproduces its records only
    with the same rules and agents)."""
    import subprocess
    from pathlib import Path

    import meadowzoo

    out: dict = {"version": getattr(meadowzoo, "__version__", None), "commit": None, "dirty": None}
    root = Path(__file__).resolve().parent.parent
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10)
        if commit.returncode == 0:
            # the package's own files only: results and docs written meanwhile change no game
            status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", *PACKAGE_PATHS],
                                    cwd=root, capture_output=True, text=True, timeout=10)
            out["commit"] = commit.stdout.strip()
            out["dirty"] = bool(status.stdout.strip()) if status.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):  # no git: an installed package
        pass
    return out


# ---- output ---------------------------------------------------------------------------------------
def _pct(x: float | None) -> str:
    return stats.number_text(None if x is None else 100 * x, "5.1f") + ("%" if x is not None else "")


def _ci(interval: list[float] | None, pct: bool = False) -> str:
    return stats.interval_text(interval, percent=pct)


def _num(x: float | None, spec: str) -> str:
    return stats.number_text(x, spec)


def agent_table(result: dict) -> str:
    lines = [f"{'agent':<22} {'games':>5} {'W':>5} {'D':>4} {'L':>5}  {'win share':>7} {'95% CI':>14}  "
             f"{'rank':>5} {'95% CI':>14}  {'margin':>7} {'95% CI':>16}  {'openskill':>9} {'BT elo':>7}"]
    for label, s in result["per_agent"].items():
        skill = result["openskill"][label]
        lines.append(
            f"{label:<22} {s['games']:>5} {s['wins']:>5} {s['draws']:>4} {s['losses']:>5}  {_pct(s['win_share']):>7} "
            f"{_ci(s['win_share_ci'], pct=True):>14}  {_num(s['mean_rank'], '>5.2f')} {_ci(s['mean_rank_ci']):>14}  "
            f"{_num(s['mean_margin'], '>7.2f')} {_ci(s['mean_margin_ci']):>16}  {skill['mu']:>9.1f} "
            f"{result['bradley_terry_elo'][label]:>7.0f}")
    return "\n".join(lines)


def seat_table(result: dict) -> str:
    lines = [f"{'agent':<22} {'seat':>4} {'games':>5} {'W':>5} {'D':>4} {'L':>5}  {'win share':>7} {'95% CI':>14}  {'rank':>5} {'95% CI':>14}"]
    for label, seats in result["per_seat"].items():
        for seat, s in seats.items():
            if not s["games"]:
                continue
            lines.append(
                f"{label:<22} {seat:>4} {s['games']:>5} {s['wins']:>5} {s['draws']:>4} {s['losses']:>5}  "
                f"{_pct(s['win_share']):>7} {_ci(s['win_share_ci'], pct=True):>14}  {_num(s['mean_rank'], '>5.2f')} "
                f"{_ci(s['mean_rank_ci']):>14}")
    return "\n".join(lines)


def pair_table(result: dict) -> str:
    lines = [f"{'A':<22} {'B':<22} {'meetings':>8} {'A better':>8} {'95% CI':>14}  significant"]
    for h in result["head_to_head"].values():
        lines.append(f"{h['a']:<22} {h['b']:<22} {h['meetings']:>8} {_pct(h['share']):>8} "
                     f"{_ci(h['share_ci'], pct=True):>14}  {'yes' if h['significant'] else 'no'}")
    return "\n".join(lines)


def partial_note(result: dict) -> str:
    """"" for a complete tournament; else the warning every table of a partial one carries."""
    if not result.get("partial"):
        return ""
    return f"PARTIAL: interrupted after {result['games']} of {result['games_planned']} games"


def report(result: dict) -> str:
    head = (f"{result['game']}, {result['players']} players, {result['games']} games, seed {result['seed']}, "
            f"{result['truncated_games']} truncated, margin in {result['margin_unit']} points")
    if result.get("partial"):
        head = partial_note(result) + "\n" + head
    return "\n\n".join([head, agent_table(result), seat_table(result), pair_table(result)])


def write_outputs(result: dict, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    # written whole, then renamed: a reader (the browser app's list) never sees half a file
    partial = out / ".results.json.partial"
    partial.write_text(json.dumps(result, indent=1) + "\n")
    partial.replace(out / "results.json")
    keys = ["games", "wins", "draws", "losses", "win_share", "win_share_ci", "mean_rank", "mean_rank_ci",
            "mean_margin", "mean_margin_ci"]
    with open(out / "agents.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["agent", *keys, "openskill_mu", "openskill_sigma", "bradley_terry_elo"])
        for label, s in result["per_agent"].items():
            o = result["openskill"][label]
            w.writerow([label, *(_cell(s[k]) for k in keys), round(o["mu"], 3), round(o["sigma"], 3),
                        round(result["bradley_terry_elo"][label], 1)])
    with open(out / "seats.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["agent", "seat", *keys])
        for label, seats in result["per_seat"].items():
            for seat, s in seats.items():
                w.writerow([label, seat, *(_cell(s[k]) for k in keys)])
    with open(out / "head_to_head.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["a", "b", "meetings", "share", "share_ci", "significant"])
        for h in result["head_to_head"].values():
            w.writerow([h["a"], h["b"], h["meetings"], _cell(h["share"]), _cell(h["share_ci"]), h["significant"]])
    if result["games"]:
        plot(result, out / "summary.png")


def _cell(value):
    if isinstance(value, list):
        return " ".join(f"{v:.4f}" for v in value)
    return round(value, 4) if isinstance(value, float) else value


def plot(result: dict, path: Path) -> None:
    """Win share and mean rank per agent with their 95% intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = list(result["per_agent"])
    per = result["per_agent"]
    fig, axes = plt.subplots(1, 2, figsize=(10, 0.6 * len(labels) + 2))
    for ax, key, title in ((axes[0], "win_share", "win share (draws ½)"), (axes[1], "mean_rank", "mean rank (1 = first)")):
        values = [per[a][key] or 0.0 for a in labels]
        # no error bar where there is no interval (fewer than two games)
        lo = [per[a][key] - per[a][key + "_ci"][0] if per[a][key + "_ci"] else 0.0 for a in labels]
        hi = [per[a][key + "_ci"][1] - per[a][key] if per[a][key + "_ci"] else 0.0 for a in labels]
        ax.barh(labels, values, xerr=[lo, hi], color="#7a9e5a", capsize=4)
        ax.set_title(title)
        ax.invert_yaxis()
    axes[0].axvline(0.5 if result["players"] == 2 else 1 / result["players"], color="grey", lw=0.8, ls="--")
    fig.suptitle(f"{result['game']}, {result['players']} players, {result['games']} games (95% intervals)"
                 + (f"\n{partial_note(result)}" if result.get("partial") else ""))
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def parse_args(argv: list[str] | None = None):
    """The checked command line: every bad value is an argparse error (exit status 2) before any
    game is played; ``args.env_options`` and ``args.specs`` hold the parsed options and agents."""
    parser = command_parser("evaluate", "Seat-balanced tournament between agents.")
    add_game_arguments(parser, seed_help="master seed (every game's seed is drawn from it)")
    parser.add_argument("--agents", required=True, help="comma-separated agent specs, e.g. strong,greedy,random,mcts:200")
    parser.add_argument("--games", type=positive_int, default=400,
                        help="games (table and orders modes: rounded up to whole cycles) or games per pairing (pairs mode)")
    parser.add_argument("--mode", choices=tournament.MODES, default="table",
                        help="table: every game seats all agents, rotating seats (and partners, in a team game); "
                             "orders: table, and every agent sits right before every other equally often "
                             "(a cycle of players! games; no teams); pairs: every pairing of agents (2 players)")
    parser.add_argument("--workers", type=positive_int, default=min(2, os.cpu_count() or 1),
                        help="worker processes (processes backend)")
    parser.add_argument("--backend", choices=BACKENDS, default=None,
                        help="processes (default) or ray: games as Ray tasks across a cluster")
    parser.add_argument("--address", help="Ray cluster address (HOST:PORT or auto); implies --backend ray")
    parser.add_argument("--out", type=Path, help="directory for results.json, CSV files and summary.png")
    parser.add_argument("--truncated", choices=["draw", "standing"], default=None,
                        help="a game cut at max_turns counts as a draw (reward 0 for all) or by the standing at "
                             "the cut (points or race positions) (default: the env's truncation_scoring, draw "
                             "unless --option truncation_scoring=… says otherwise)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    options = check_game_arguments(parser, args)
    scoring = options.get("truncation_scoring", "draw")
    if args.truncated is None:
        args.truncated = scoring
    elif "truncation_scoring" in options and args.truncated != scoring:  # two answers to one question
        parser.error(f"argument --truncated: {args.truncated} contradicts --option truncation_scoring={scoring}")
    specs = args.agents.split(",")
    local = (args.backend or ("ray" if args.address else "processes")) == "processes"
    check_agents(parser, "--agents", specs, args.game, before_fork=local and args.workers > 1,
                 env_options={"num_players": args.players, **options})
    args.teams = tournament.seat_teams(args.game, {"num_players": args.players, **options})
    try:
        tournament.schedule(specs, args.players, args.games, args.mode, args.teams)
    except ValueError as error:
        parser.error(f"argument --agents: {error}")
    if args.out is not None:  # before any game: a folder that cannot be written fails now
        check_writable(parser, "--out", args.out)
    args.env_options, args.specs = options, specs
    return args


def main(argv: list[str] | None = None) -> dict:
    args = parse_args(argv)
    options, specs = args.env_options, args.specs
    command = "python -m meadowzoo.training.evaluate " + shlex.join(sys.argv[1:] if argv is None else argv)
    code = code_version()  # before the games: the code that plays them
    # what the games will be, before they start: a team game's cycle can round --games up a lot
    print(tournament.cycle_text(specs, args.players, args.games, args.mode, args.teams), flush=True)
    try:
        result = evaluate(args.game, args.players, specs, args.games, seed=args.seed,
                          workers=args.workers, mode=args.mode, options=options, progress=not args.quiet,
                          truncated=args.truncated, backend=args.backend or ("ray" if args.address else "processes"),
                          address=args.address)
    except ClusterUnreachable as error:  # --address / RAY_ADDRESS names no cluster that can be joined
        command_error("evaluate", str(error))
    except tournament.Interrupted as stop:  # Ctrl-C: keep what was played, exit as interrupted
        result = stop.result
        result["command"] = command
        result["code"] = code
        print("\n" + report(result))
        if args.out:
            write_outputs(result, args.out)
            print(f"\nwrote the partial results to {args.out}")
        sys.exit(130)
    result["command"] = command
    result["code"] = code
    print(report(result))
    if args.out:
        write_outputs(result, args.out)
        print(f"\nwrote {args.out}/results.json, agents.csv, seats.csv, head_to_head.csv, summary.png")
    return result


if __name__ == "__main__":
    main()
