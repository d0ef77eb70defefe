"""CPU instructions per AEC step of random play, next to PettingZoo classic's connect_four_v3.

    python -m benchmarks.instructions --game hase_und_igel --steps 20000
    python -m benchmarks.instructions --game volle_wolle --game hase_und_igel --steps 5000 --c4-steps 2000
    python -m benchmarks.instructions --config "hase_und_igel 4p" --steps 5000

Wall-clock figures (:mod:`benchmarks.speed`) are noisy on a loaded two-core machine; instruction
counts are not. Every configuration of :func:`benchmarks.speed.configurations` and connect four's
``raw_env`` is played under ``valgrind --tool=callgrind`` (which must be installed) by the loop of
:func:`benchmarks.speed.play`, but for a number of steps instead of a time: whole games seeded
``seed, seed + 1, …`` until at least ``--steps`` AEC steps. A further run does everything but the
play (imports, building every env, one reset), and its count is subtracted, so the figure is the
play alone: instructions / steps, reset and the benchmark's own action choice included, as in the
speed benchmark. The ratio column is connect four's instructions per step over the env's (higher
is faster, comparable to the ``x c4 raw`` column of the speed benchmark).

``--keep DIR`` keeps the callgrind output files (``callgrind_annotate DIR/<name>.out`` shows the C
hot spots; for Python-level hot spots use ``--profile``, which plays one configuration under
cProfile instead of valgrind).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile


C4 = "connect_four_v3"


def _factories() -> dict[str, object]:
    """Every measurable raw env by name: connect four and each game's configurations."""
    from pettingzoo.classic import connect_four_v3

    from benchmarks.speed import configurations
    from meadowzoo.envs.registry import GAMES, game_module

    found = {C4: connect_four_v3.raw_env}
    for game in GAMES:
        module = game_module(game)
        for label, kwargs in configurations(game):
            found[f"{game} {label}"] = (lambda m=module, k=kwargs: m.raw_env(**k))
    return found


def play_steps(env, steps: int, seed: int) -> int:
    """The loop of :func:`benchmarks.speed.play`, for whole games until ``steps`` steps; returns the steps."""
    from benchmarks.speed import play_game

    choose = random.Random(seed)
    done = games = 0
    while done < steps:
        done += play_game(env, seed + games, choose)
        games += 1
    return done


def _inner(name: str | None, steps: int, seed: int) -> None:
    """What runs under valgrind: build every env (same setup in every run), then play ``name``."""
    built = {key: factory() for key, factory in _factories().items()}
    for env in built.values():
        env.reset(seed=seed)
    played = play_steps(built[name], steps, seed) if name else 0
    print(f"STEPS {played}", flush=True)


def _count(name: str | None, steps: int, seed: int, keep: str | None) -> tuple[int, int]:
    """(instructions, steps) of one valgrind run."""
    out_dir = keep or tempfile.mkdtemp(prefix="instructions-")
    label = re.sub(r"\W+", "_", name or "setup")
    out_file = os.path.join(out_dir, f"{label}.out")
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}",
               sys.executable, "-m", "benchmarks.instructions", "--inner", name or "", "--steps", str(steps),
               "--seed", str(seed)]
    done = subprocess.run(command, capture_output=True, text=True)
    if not keep:
        shutil.rmtree(out_dir, ignore_errors=True)
    collected = re.search(r"Collected : (\d+)", done.stderr)
    played = re.search(r"STEPS (\d+)", done.stdout)
    if done.returncode or not collected or not played:
        raise SystemExit(f"valgrind run for {name or 'setup'} failed:\n{done.stdout}\n{done.stderr[-3000:]}")
    return int(collected.group(1)), int(played.group(1))


def _profile(name: str, steps: int, seed: int) -> None:
    import cProfile
    import pstats

    env = _factories()[name]()
    profiler = cProfile.Profile()
    profiler.runcall(play_steps, env, steps, seed)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="game(s) to measure (default all)")
    parser.add_argument("--config", action="append", help="only these configurations, e.g. 'hase_und_igel 4p'")
    parser.add_argument("--steps", type=int, default=20000, help="AEC steps per configuration (whole games)")
    parser.add_argument("--c4-steps", type=int, default=5000, help="steps of connect four (its cost per step is steady)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", help="keep the callgrind output files in this folder")
    parser.add_argument("--profile", metavar="NAME", help="cProfile one configuration, e.g. 'hase_und_igel 4p'")
    parser.add_argument("--inner", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.inner is not None:
        _inner(args.inner or None, args.steps, args.seed)
        return {}
    if args.profile:
        _profile(args.profile, args.steps, args.seed)
        return {}
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    from meadowzoo.envs.registry import GAMES

    unknown = set(args.game or ()) - set(GAMES)
    if unknown:
        raise SystemExit(f"unknown game(s) {sorted(unknown)}; choose from {sorted(GAMES)}")
    names = [name for name in _factories() if name == C4 or (name.split(" ")[0] in (args.game or GAMES)
                                                              and name in (args.config or [name]))]
    setup, _ = _count(None, 0, args.seed, args.keep)
    per_step: dict[str, float] = {}
    print(f"{'environment':<32}{'steps':>8}{'instr/step':>12}{'x c4':>8}")
    for name in names:
        total, played = _count(name, args.c4_steps if name == C4 else args.steps, args.seed, args.keep)
        per_step[name] = (total - setup) / played
        ratio = per_step[C4] / per_step[name]
        print(f"{name:<32}{played:>8}{per_step[name]:>12,.0f}{ratio:>8.2f}", flush=True)
    return per_step


if __name__ == "__main__":
    main()
