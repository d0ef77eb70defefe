"""meadowzoo's JAX engines next to Pgx's own games, all measured in one run (needs the ``jax`` extra).

    python -m benchmarks.pgx_reference                   # our three games (2 players) and seven Pgx games
    python -m benchmarks.pgx_reference --batch 4096 --json out.json
    python -m benchmarks.pgx_reference --pgx backgammon 2048 --ours volle_wolle:4

Issue #17's targets compare an engine with Pgx's connect four, the simplest game Pgx ships (seven
columns, no chance, no hidden information). This benchmark asks the other question a user choosing
an engine asks: how fast are Pgx's engines for games of a complexity like ours (dice in backgammon
and 2048, a shuffled deck and hidden hands in sparrow mahjong and leduc hold'em, piece rules in
animal shogi), run by the same program on the same cores in the same minutes?

Every engine runs :mod:`benchmarks.jax_speed`'s program (:class:`~benchmarks.jax_speed.JaxRunner`:
``jit`` of a ``fori_loop`` of ``--unroll`` steps, each a ``vmap``-ed ``step`` under Pgx's
``auto_reset`` with a uniform random legal action per game), on one device. Rounds are interleaved
and each figure is the best round, so that load from other processes hurts every engine alike;
each figure is also printed as a multiple of connect four's.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import jax

import meadowzoo.jax as mjax
from benchmarks.jax_speed import JaxRunner

#: Pgx games of several kinds: connect four (issue #17's yardstick), othello (a board game with
#: flips), 2048 and backgammon (chance), animal shogi (piece rules), sparrow mahjong and leduc
#: hold'em (a shuffled deck, hidden hands).
PGX_GAMES = ("connect_four", "othello", "2048", "backgammon", "animal_shogi", "sparrow_mahjong", "leduc_holdem")
#: ours, as ``game:players``: each game's 2-player configuration, the one issue #19's targets name
OUR_ENGINES = tuple(f"{game}:2" for game in ("volle_wolle", "hase_und_igel", "haste_bock"))


def parse_ours(spec: str) -> tuple[str, int]:
    """``"volle_wolle:4"`` → ``("volle_wolle", 4)``, with a clear error for anything else."""
    game, _, players = spec.partition(":")
    if game not in mjax.available() or not players.isdigit():
        raise ValueError(f"expected GAME:PLAYERS with GAME one of {mjax.available()}, got {spec!r}")
    return game, int(players)


def make_engines(ours: list[str], pgx_games: list[str]) -> dict:
    """Label → engine: ours first (``volle_wolle 2p``), then Pgx's (by their Pgx names)."""
    import pgx

    engines = {}
    for spec in ours:
        game, players = parse_ours(spec)
        engines[f"{game} {players}p"] = mjax.make(game, num_players=players)
    for name in pgx_games:
        if name not in pgx.available_envs():
            raise ValueError(f"{name!r} is not a Pgx game; Pgx {pgx.__version__} has {sorted(pgx.available_envs())}")
        engines[f"pgx {name}"] = pgx.make(name)
    return engines


def measure(engines: dict, batch: int, unroll: int, seconds: float, rounds: int) -> list[dict]:
    """Compile every engine's program, then time them in interleaved rounds; one row per engine."""
    runners = {}
    for label, env in engines.items():
        runners[label] = JaxRunner(env, batch, unroll)
        print(f"compiled {label}: {runners[label].compile_seconds:.1f} s", flush=True)
    best = dict.fromkeys(runners, 0.0)
    for _ in range(rounds):
        for label, runner in runners.items():
            best[label] = max(best[label], runner.measure(seconds))
    return [{"engine": label, "ours": not label.startswith("pgx "), "steps": best[label],
             "compile_s": runners[label].compile_seconds, "actions": int(engines[label].num_actions)}
            for label in runners]


def markdown_table(rows: list[dict], yardstick: str = "pgx connect_four") -> str:
    """The rows as a Markdown table, fastest first, with each engine's multiple of ``yardstick``
    (left out where that engine was not measured)."""
    base = next((row["steps"] for row in rows if row["engine"] == yardstick), None)
    lines = ["| engine | actions | steps/s | compile s |" + (" × connect four |" if base else ""),
             "|---|---|---|---|" + ("---|" if base else "")]
    for row in sorted(rows, key=lambda r: -r["steps"]):
        name = f"**{row['engine']}**" if row["ours"] else row["engine"]
        line = f"| {name} | {row['actions']} | {row['steps']:,.0f} | {row['compile_s']:.1f} |"
        lines.append(line + (f" {row['steps'] / base:.2f} |" if base else ""))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--ours", nargs="*", default=list(OUR_ENGINES), metavar="GAME:PLAYERS")
    parser.add_argument("--pgx", nargs="*", default=list(PGX_GAMES), metavar="GAME", help="Pgx game names")
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per round and engine")
    parser.add_argument("--rounds", type=int, default=2, help="interleaved rounds; the best counts")
    parser.add_argument("--unroll", type=int, default=32, help="steps per jitted call")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    if args.batch < 1 or args.unroll < 1 or args.rounds < 1 or args.seconds <= 0:
        parser.error("--batch, --unroll and --rounds must be positive, --seconds above 0")
    try:
        engines = make_engines(args.ours, args.pgx)
    except ValueError as error:
        parser.error(str(error))
    if not engines:
        parser.error("nothing to measure: name at least one engine")
    device = jax.devices()[0]
    load_before = os.getloadavg()
    print(f"JAX {jax.__version__} on {device.platform} ({device.device_kind}); batch {args.batch}, "
          f"{args.rounds} rounds of {args.seconds:g} s, load average {load_before[0]:.1f}")
    rows = measure(engines, args.batch, args.unroll, args.seconds, args.rounds)
    load_after = os.getloadavg()
    print()
    print(markdown_table(rows))
    result = {"device": f"{device.platform} {device.device_kind}", "jax": jax.__version__, "batch": args.batch,
              "unroll": args.unroll, "when": time.strftime("%Y-%m-%d %H:%M"),
              "load_average": [round(x, 1) for x in load_before + load_after], "rows": rows}
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(result, handle, indent=2)
    return result


if __name__ == "__main__":
    main()
