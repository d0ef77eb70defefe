"""Regenerate the JAX speed tables: engines (every game, 2 and 4 players, batch 1024) and the
compiled trainer next to Stable-Baselines3 (every game, 2 players), written into ``docs/jax.md``
and the README's summary (needs the ``jax`` and ``train`` extras).

    python -m benchmarks.jax_tables                      # both tables (about 6 minutes on 2 cores)
    python -m benchmarks.jax_tables --engines            # only the engines' table
    python -m benchmarks.jax_tables --trainer --games volle_wolle
    python -m benchmarks.jax_tables --engines --devices 2  # each batch split over two CPU devices

Each engine row is one :mod:`benchmarks.jax_speed` run (``--batches 1024``: the engine, Pgx's
connect four and ``raw_env`` measured in the same run, rounds interleaved, the best of each);
each trainer row one :mod:`benchmarks.train_speed` run pinned to two cores, then the same
trainer's :mod:`benchmarks.train_breakdown` (its *network bound*: the learner steps/s that the
network's passes alone allow on these cores, engine and all else free). Both tables' headers name the
CPU (:mod:`benchmarks.machine`), whose vector and bfloat16 units move every ratio. The machine is shared:
read the ratios, which are measured under the same load; the load average is printed with them.
Targets (issues #17–#19): at batch 1024 on two CPU cores ≥ 20× ``raw_env`` and ≥ 0.2× connect
four; the trainer ≥ 20,000 learner steps/s and ≥ 50× the SB3 path.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.machine import describe_cpu
from benchmarks.train_breakdown import epoch_share_phrase

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "jax.md"
README = ROOT / "README.md"


def jax_games() -> list[str]:
    """The games with a JAX engine (their plug-ins say so)."""
    import meadowzoo.jax

    return meadowzoo.jax.available()


def title(game: str) -> str:
    from meadowzoo.envs import plugin

    return plugin(game).title


def replace_between(path: Path, marker: str, lines: list[str]) -> None:
    """Replace the text between ``<!-- marker:start -->`` and ``<!-- marker:end -->`` of ``path``."""
    text = path.read_text(encoding="utf-8")
    start, end = f"<!-- {marker}:start -->", f"<!-- {marker}:end -->"
    if start not in text or end not in text:
        raise SystemExit(f"{path} has no {start} … {end} markers")
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    path.write_text(head + start + "\n" + "\n".join(lines) + "\n" + end + tail, encoding="utf-8")


def load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


def engine_rows(games, players, seconds: float, rounds: int, devices: int = 1) -> list[dict]:
    from benchmarks import jax_speed

    rows = []
    for game in games:
        for count in players:
            before = load()
            result = jax_speed.main(["--game", game, "--players", str(count), "--batches", "1024",
                                     "--seconds", str(seconds), "--rounds", str(rounds), "--devices", str(devices)])
            row = result["rows"][0]
            rows.append({"game": game, "players": count, "raw_env": result["raw_env_steps"], "load": f"{before} → {load()}",
                         **row})
    return rows


def program_shape(devices: int) -> str:
    return "one program" if devices == 1 else f"the batch split over {devices} CPU devices"


def engine_table(rows: list[dict], command: str) -> list[str]:
    # rows recorded before the device split existed ran as one program
    shapes = sorted({program_shape(r.get("devices", 1)) for r in rows})
    lines = [f"`{command}` on {os.cpu_count()} CPU cores ({describe_cpu()}), {time.strftime('%Y-%m-%d %H:%M')} "
             f"(batch 1024, {' or '.join(shapes)}; each line one run, load average before → after):", "",
             "| game | players | JAX steps/s | compile s | raw_env steps/s | × raw_env | connect four steps/s "
             "| × connect four | load |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {title(r['game'])} | {r['players']} | {r['steps']:,.0f} | {r['compile_s']:.1f} | "
                     f"{r['raw_env']:,.0f} | **{r['x_raw_env']:.1f}** | {r['connect_four_steps']:,.0f} | "
                     f"**{r['x_connect_four']:.2f}** | {r['load']} |")
    return lines


def trainer_rows(games, jax_updates: int, sb3_steps: int) -> list[dict]:
    from benchmarks import train_breakdown, train_speed

    rows = []
    for game in games:
        before = load()
        result = train_speed.main(["--game", game, "--players", "2", "--cores", "2",
                                   "--jax-updates", str(jax_updates), "--sb3-steps", str(sb3_steps)])
        # the same trainer's network bound (benchmarks.train_breakdown), on the same devices, in this run
        devices = result["jax"]["devices"].count("CpuDevice") or 1
        result["breakdown"] = train_breakdown.breakdown(game, 2, 3, {"devices": devices})
        print(train_breakdown.report(result["breakdown"]), flush=True)
        rows.append({"game": game, "load": f"{before} → {load()}", **result})
    return rows


def trainer_table(rows: list[dict], command: str) -> list[str]:
    lines = [f"`{command}` pinned to 2 cores ({describe_cpu()}), {time.strftime('%Y-%m-%d %H:%M')} (2 players; each line one "
             "run; load average before → after):", "",
             "| game | compiled trainer learner steps/s | devices | passes per step | products, loss gradient "
             "| SB3 learner steps/s "
             "| ratio | network bound | bound ÷ SB3 | load |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        devices = r["jax"]["devices"].count("CpuDevice") or r["jax"]["devices"]
        passes = r["jax"].get("passes_per_step", 0) or "no cap"
        if passes != "no cap" and not r["jax"].get("opponents_in_first_pass", True):  # rows before the setting: True
            passes = f"{passes}, learners first"
        # the share of the rollout's rows the epochs ran over (rows before the setting: every row)
        share = r["jax"].get("epoch_share", r.get("breakdown", {}).get("epoch_share", 1.0))
        if passes != "no cap" and share < 1:
            passes = f"{passes}; epochs{epoch_share_phrase(share)}"
        sb3 = r["sb3"]["steps_per_second"]
        if "breakdown" in r:  # rows recorded before the breakdown existed have none
            bound = r["breakdown"]["network_bound_steps_per_second"]
            bound_cells = f"{bound:,.0f} | {bound / sb3:.1f}×"
        else:
            bound_cells = "– | –"
        # rows recorded before a setting computed as its legacy value: float32, autodiff
        products = f'{r["jax"].get("matmul_dtype", "float32")}, {r["jax"].get("loss_gradient", "autodiff")}'
        lines.append(f"| {title(r['game'])} | **{r['jax']['steps_per_second']:,.0f}** | {devices} | {passes} | "
                     f"{products} | {sb3:,.0f} | **{r['ratio']:.1f}×** | {bound_cells} | {r['load']} |")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--engines", action="store_true", help="only the engines' table")
    parser.add_argument("--trainer", action="store_true", help="only the trainer's table")
    parser.add_argument("--games", nargs="+", default=jax_games(), choices=jax_games())
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per engine round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--devices", type=int, default=1,
                        help="CPU devices each engine batch is split over (benchmarks.jax_speed; default 1: one program)")
    parser.add_argument("--jax-updates", type=int, default=6)
    parser.add_argument("--sb3-steps", type=int, default=8192)
    parser.add_argument("--json", help="also write the rows to this file")
    parser.add_argument("--no-write", action="store_true", help="print the tables, leave the docs as they are")
    argv = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(argv)
    both = not args.engines and not args.trainer
    command = "python -m benchmarks.jax_tables" + (" " + " ".join(argv) if argv else "")
    out: dict = {}
    if args.engines or both:
        out["engines"] = rows = engine_rows(args.games, args.players, args.seconds, args.rounds, args.devices)
        table = engine_table(rows, command)
        print("\n".join(table))
        if not args.no_write:
            replace_between(DOC, "jax-speed", table)
            replace_between(README, "jax-speed", table)
    if both:
        # the trainer's row needs two CPU devices, which JAX can only be given before it first runs:
        # the engines have run here, so the trainer's table is made in a fresh process
        trainer = [sys.executable, "-m", "benchmarks.jax_tables", "--trainer", "--games", *args.games,
                   "--jax-updates", str(args.jax_updates), "--sb3-steps", str(args.sb3_steps)]
        if args.no_write:
            trainer.append("--no-write")
        with tempfile.TemporaryDirectory() as scratch:
            # the child writes its rows to a scratch file; they join the engines' in ``--json``
            trainer_json = Path(scratch) / "trainer.json"
            if args.json:
                trainer += ["--json", str(trainer_json)]
            subprocess.run(trainer, check=True, cwd=ROOT)
            if args.json:
                out["trainer"] = json.loads(trainer_json.read_text())["trainer"]
    elif args.trainer:
        out["trainer"] = rows = trainer_rows(args.games, args.jax_updates, args.sb3_steps)
        table = trainer_table(rows, command)
        print("\n".join(table))
        if not args.no_write:
            replace_between(DOC, "train-speed", table)
            replace_between(README, "train-speed", table)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
