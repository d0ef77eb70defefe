"""Ship a trained run as a committed agent: the weights-only policy plus a record of how it was made.

    python -m meadowzoo.training.ship runs/vw2_bc agents/trained/volle_wolle_2p

writes ``<dest>.pt`` (the run's ``policy.pt``; a compiled JAX run's ``policy.npz`` as ``<dest>.npz``) and ``<dest>.json``: the exact training command,
seed, timesteps, wall time and cores, the imitation warm start if any, and the run's final ladder
scores, and the ``sha256`` of the ``.pt`` file, which every load checks.
``meadowzoo.training.results`` shows that record next to every tournament table the policy plays in.

A run of :mod:`meadowzoo.training.fit_afterstate_value` (a directory holding ``value.pt`` and the record
``value.json`` it wrote) ships the same way: ``<dest>.pt`` is the value file of a
``lookahead:<dest>.pt`` player, ``<dest>.json`` its record (command, seed, games, wall time).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
from pathlib import Path

from meadowzoo.agents.shipped import file_sha256


def command_line(args: dict) -> list[str]:
    """The command-line flags equivalent to parsed training arguments."""
    flags = []
    for key, value in args.items():
        if value is None or value is False or value == []:
            continue
        if key == "option":  # repeatable --option KEY=VALUE, stored as [key, value] pairs
            for name, setting in value:
                flags += ["--option", f"{name}={setting}"]
            continue
        flags.append("--" + key.replace("_", "-"))
        if value is not True:
            flags.append(str(value))
    return flags


def training_record(run: Path) -> dict:
    command = json.loads((run / "command.json").read_text())
    state = json.loads((run / "state.json").read_text())
    final = json.loads((run / "final.json").read_text())
    args = command["args"]
    return {
        "command": "python -m meadowzoo.training.train " + " ".join(command["argv"] or command_line(args)),
        "args": args,
        "seed": args["seed"],
        "timesteps": final["timesteps"],
        "wall_seconds": final["wall_seconds"],
        "cores": os.cpu_count(),
        "imitation": {k: v for k, v in state.get("imitation", {}).items() if k != "losses"} or None,
        # every command that worked on the run, in order (a resumed run has more than one)
        "invocations": [{"command": "python -m meadowzoo.training.train " + " ".join(i["argv"]),
                         "from_timesteps": i["from_timesteps"]} for i in state.get("invocations", [])],
        "final_ladder": final["ladder"],
    }


def jax_training_record(run: Path) -> dict:
    """The record of a :mod:`meadowzoo.training.train_jax` run (its ``final.json``): every
    command that worked on it, the settings, steps, wall time and the ladder evaluations."""
    final = json.loads((run / "final.json").read_text())
    commands = ["python -m meadowzoo.training.train_jax " + " ".join(argv) for argv in final["argv"]]
    return {
        "command": commands[-1],
        "invocations": commands,
        "kind": "from-scratch",  # compiled self-play: no imitation, no advice, no heuristic in the input
        "game": final["game"],
        "players": final["players"],
        "seed": final["seed"],
        "config": final["config"],
        "timesteps": final["timesteps"],
        "wall_seconds": final["wall_seconds"],
        "cores": os.cpu_count(),
        "evaluations": final["evaluations"],
    }


def main(argv: list[str] | None = None) -> None:
    from meadowzoo.training.arguments import command_parser

    parser = command_parser("ship", "Copy a run's policy and its training record into the repo.")
    parser.add_argument("run", type=Path, help="the run directory (train, train_jax or fit_afterstate_value --out)")
    parser.add_argument("dest", type=Path, help="destination without suffix, e.g. agents/trained/volle_wolle_2p")
    args = parser.parse_args(argv)
    # the kind of run, its weights and its record are all read before anything is written: a run that
    # lacks a file (stopped before its end) never leaves a new weights file beside an old record
    if (args.run / "value.pt").exists():  # an afterstate value for the lookahead player
        source, suffix, make_record, needs = args.run / "value.pt", ".pt", None, ["value.json"]
    elif any((args.run / name).exists() for name in ("policy.npz", "current.npz")):  # a run of train_jax
        source, suffix, make_record, needs = args.run / "policy.npz", ".npz", jax_training_record, \
            ["policy.npz", "final.json"]
    else:  # Stable-Baselines3's train
        source, suffix, make_record, needs = args.run / "policy.pt", ".pt", training_record, \
            ["policy.pt", "command.json", "state.json", "final.json"]
    missing = [name for name in needs if not (args.run / name).is_file()]
    if not args.run.is_dir() or missing:
        parser.error(f"argument run: {args.run} is no finished run: {', '.join(missing) or 'no such directory'} missing")
    try:
        record = _json(args.run / "value.json", parser) if make_record is None else make_record(args.run)
    except (KeyError, TypeError, ValueError) as error:
        parser.error(f"argument run: {args.run}'s records are incomplete ({type(error).__name__}: {error})")
    # checked whenever the shipped file is loaded (meadowzoo.agents.shipped.verify_recorded_sha256)
    record["sha256"] = file_sha256(source)
    args.dest.parent.mkdir(parents=True, exist_ok=True)
    weights, record_file = args.dest.with_suffix(suffix), args.dest.with_suffix(".json")
    staged = [(Path(f"{weights}.partial"), weights), (Path(f"{record_file}.partial"), record_file)]
    shutil.copyfile(source, staged[0][0])
    staged[1][0].write_text(json.dumps(record, indent=2) + "\n")
    for partial, final in staged:
        partial.replace(final)
    print(f"shipped {weights} and {record_file}")


def _json(path: Path, parser: argparse.ArgumentParser) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as error:
        parser.error(f"argument run: cannot read {path}: {error}")


if __name__ == "__main__":
    main()
