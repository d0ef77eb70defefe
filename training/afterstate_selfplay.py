"""Learn a game from the rules alone: an afterstate value fitted in rounds of self-play.

For Haste Bock? (the default ``--game``) and Hase und Igel (``--game hase_und_igel``, two players
with two runners each), the games whose plug-in declares an afterstate encoding. No heuristic
takes part. The player is the game's lookahead player with ``prior=none``: in Haste Bock?
(:mod:`meadowzoo.agents.heuristics.haste_bock_lookahead`) it plays every card × legal move × time
tile on a copy of the game, in Hase und Igel
(:mod:`meadowzoo.agents.heuristics.hase_und_igel_lookahead`) every legal action to the end of the
turn, hare cards weighed by the unseen deck; it takes the option whose afterstate (the position
once the turn is over, :mod:`meadowzoo.envs.haste_bock.afterstate`,
:mod:`meadowzoo.envs.hase_und_igel.afterstate`) its learned value rates best. The value is an MLP
fitted to how games went on from such afterstates, as in TD-Gammon:

* round 0 records ``--first-games`` games of two uniformly random players and fits a new net to
  their outcomes (then ``--td-rounds`` refits on TD(λ) targets,
  :func:`meadowzoo.training.fit_afterstate_value.td_lambda_targets`);
* round r ≥ 1 records ``--games`` self-play games of the player of round r−1, which plays a
  uniformly drawn plan at rate ``--explore`` (so the data also shows where the other plans lead),
  and goes on fitting the same net on the samples of the last ``--buffer`` rounds (the newest
  round's last games held out), outcomes first, then TD(λ) refits; with ``--keep-best`` every fit
  keeps its epoch of lowest held-out loss (a round's few thousand games are over-fitted after
  one epoch; the shipped Haste Bock? agents were made with it).

``--no-rule-terms`` leaves the inputs that the rules compute from the position at zero (Haste
Bock?'s scoring terms "if scored now", Hase und Igel's Goal terms): an ablation of how much the
value leans on them; the value files store it, so their players read their input the same way.

Every round writes ``round_<r>.pt`` (a value file that ``lookahead:<file>:prior=none`` plays);
``value.pt`` is the last round's. The run stops after ``--rounds`` rounds or when the next round
would end past ``--budget-minutes`` of wall time (judged by the last round's length), and writes
the record ``value.json`` (as :mod:`meadowzoo.training.fit_afterstate_value` does, so that
``python -m meadowzoo.training.ship <out> agents/trained/<name>`` ships the run): the command, the
games and samples in all, the wall time, and every round's games, samples, seconds and held-out
losses. An ``--out`` that holds an earlier run's files is refused unless ``--fresh`` removes them
first (its round files would otherwise sit beside a record that does not describe them).
Everything is seeded (games by ``--seed`` and the round, the fits by ``--seed``): the same command
gives the same files on the same machine.

    python -m meadowzoo.training.afterstate_selfplay --players 2 --out runs/hb2_selfplay
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path

import numpy as np

from meadowzoo.agents.afterstate_value import input_options, with_options
from meadowzoo.envs.haste_bock import afterstate as first_encoding
from meadowzoo.training.afterstate_data import checked_encoding, generate
from meadowzoo.training.arguments import check_writable, command_parser, layer_widths, seed_value
from meadowzoo.training.fit_afterstate_value import baseline_bce, fit_with_td, save_value

#: episode ids of one round stay below this (afterstate_data: game index * 8 + seat), so that the
#: rounds in a buffer never share an id
ROUND_STRIDE = 10**9


def player_spec(value_file: Path, explore: float) -> str:
    """The heuristic-free lookahead player of a value file (exploring at rate ``explore``)."""
    spec = f"lookahead:{value_file}:prior=none"
    return spec + (f":explore={explore}" if explore else "")


def record_round(r: int, args, previous: Path | None) -> tuple[tuple[np.ndarray, ...], str, int]:
    """The samples of round ``r`` (random play for round 0, else the previous round's player), the
    spec of the recorded player and the number of games."""
    seed = args.seed * 1000 + r
    if previous is None:
        pool, viewer, games = [("random",) * args.players], "random", args.first_games
    else:
        viewer = player_spec(previous, args.explore)
        pool, games = [(viewer,) * args.players], args.games
    records, beats, gains, episodes = generate(games, seed, pool, viewer, workers=args.workers,
                                               encoding=args.encoding)
    return (records, beats, gains, episodes + r * ROUND_STRIDE), viewer, games


def fit_round(net, buffer: list[tuple[np.ndarray, ...]], args, r: int, log=print):
    """Go on fitting ``net`` (a new one when None) on the buffer's samples; returns the net and the
    held-out losses of every epoch."""
    records, beats, gains, episodes = (np.concatenate([part[j] for part in buffer]) for j in range(4))
    split = int(len(records) * (1 - args.holdout))
    log(f"round {r}: {len(records)} samples; constant-guess held-out BCE "
        f"{baseline_bce(beats, args.players, split):.4f}")
    fit_seed = args.seed * 1000 + r
    return fit_with_td(records, beats, gains, episodes, args, seed=fit_seed, td_seed=fit_seed + 100, net=net, log=log,
                       encoding=args.encoding)


def earlier_run_files(out: Path) -> list[Path]:
    """The files a run writes that ``out`` already holds (round files by round number)."""
    if not out.is_dir():
        return []
    rounds = sorted(out.glob("round_*.pt"), key=lambda p: (len(p.name), p.name))
    return rounds + [p for p in (out / "value.pt", out / "value.json") if p.exists()]


def parse_args(argv: list[str] | None = None):
    ap = command_parser("afterstate_selfplay", __doc__.split("\n\n")[0])
    ap.add_argument("--game", default=first_encoding.GAME,
                    help="a game whose plug-in declares an afterstate encoding")
    ap.add_argument("--players", type=int, default=2, help="players per game")
    ap.add_argument("--no-rule-terms", action="store_true",
                    help="leave the inputs the rules compute from the position (Haste Bock?'s scoring terms, "
                         "Hase und Igel's Goal terms) at zero: an ablation; stored in the value files")
    ap.add_argument("--rounds", type=int, default=20, help="rounds at most (round 0 included)")
    ap.add_argument("--first-games", type=int, default=20000, help="random-play games of round 0")
    ap.add_argument("--games", type=int, default=1000, help="self-play games of every later round")
    ap.add_argument("--explore", type=float, default=0.1, help="rate of uniformly drawn plans in self-play")
    ap.add_argument("--buffer", type=int, default=2, help="rounds whose samples every fit uses (newest first)")
    ap.add_argument("--hidden", type=layer_widths, default="128,128", help="hidden layer widths of the value network")
    ap.add_argument("--epochs", type=int, default=4, help="epochs of every round's first fit")
    ap.add_argument("--td-rounds", type=int, default=2, help="refits on TD(λ) targets after every round's first fit")
    ap.add_argument("--td-lambda", type=float, default=0.7, help="λ of the TD(λ) targets")
    ap.add_argument("--td-epochs", type=int, default=2, help="epochs of every TD refit")
    ap.add_argument("--keep-best", action="store_true",
                    help="keep the epoch of the lowest held-out loss in every fit, the net the round started "
                         "from included (early stopping: a round's few thousand games are over-fitted fast)")
    ap.add_argument("--batch-size", type=int, default=512, help="samples per gradient step")
    ap.add_argument("--lr", type=float, default=1e-3, help="Adam learning rate")
    ap.add_argument("--holdout", type=float, default=0.05, help="share of games held out to measure the fit")
    ap.add_argument("--budget-minutes", type=float, default=60.0, help="wall-clock budget of the whole run")
    ap.add_argument("--seed", type=seed_value, default=0, help="seed of the whole run (games and fits)")
    ap.add_argument("--workers", type=int, default=2, help="processes that play the games")
    ap.add_argument("--out", required=True, help="directory of the round files, value.pt and its record value.json")
    ap.add_argument("--fresh", action="store_true",
                    help="remove an earlier run's round files, value.pt and value.json from --out first "
                         "(without it such an --out is refused: its round files would outlive the new record)")
    args = ap.parse_args(argv)
    args.encoding = with_options(checked_encoding(ap, args.game, args.players),
                                 {"rule_terms": False} if args.no_rule_terms else {})
    for name in ("rounds", "first_games", "games", "buffer", "epochs", "td_epochs", "batch_size", "workers"):
        if getattr(args, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    if args.td_rounds < 0:
        ap.error(f"--td-rounds must be at least 0, got {args.td_rounds}")
    for name, value in (("--explore", args.explore), ("--td-lambda", args.td_lambda)):
        if not 0.0 <= value <= 1.0:
            ap.error(f"{name} must lie in [0, 1], got {value}")
    if not 0.0 < args.holdout < 1.0:
        ap.error(f"--holdout must lie in (0, 1), got {args.holdout}")
    if not 0.0 < args.lr < float("inf"):  # NaN fails this too: before any game is played, not after
        ap.error(f"--lr must be a finite number > 0, got {args.lr}")
    check_writable(ap, "--out", args.out)
    earlier = earlier_run_files(Path(args.out))
    if earlier and not args.fresh:
        ap.error(f"--out {args.out} holds an earlier run's files ({', '.join(p.name for p in earlier[:4])}"
                 f"{', …' if len(earlier) > 4 else ''}); use --fresh to replace them, or another --out")
    if not args.budget_minutes > 0:
        ap.error(f"--budget-minutes must be positive, got {args.budget_minutes}")
    args.hidden = list(args.hidden)
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    out = Path(args.out)
    for stale in earlier_run_files(out):  # --fresh (parse_args refused them otherwise)
        stale.unlink()
    out.mkdir(parents=True, exist_ok=True)
    command = "python -m meadowzoo.training.afterstate_selfplay " + " ".join(sys.argv[1:] if argv is None else argv)
    started = time.time()
    budget = args.budget_minutes * 60
    net, previous, buffer, rounds = None, None, [], []
    for r in range(args.rounds):
        round_start = time.time()
        if rounds and (round_start - started) + rounds[-1]["seconds"] > budget:
            print(f"stopping before round {r}: it would end past the {args.budget_minutes:g}-minute budget")
            break
        samples, player, games = record_round(r, args, previous)
        recorded = time.time() - round_start
        buffer = (buffer + [samples])[-args.buffer:]
        net, history = fit_round(net, buffer, args, r)
        previous = out / f"round_{r}.pt"
        note = {"kind": "afterstate-selfplay-round", "command": command, "round": r}
        save_value(net, previous, args.players, args.hidden, note, args.encoding)
        rounds.append({"round": r, "games": games, "player": player,
                       "samples": int(len(samples[0])), "record_seconds": round(recorded, 1),
                       "seconds": round(time.time() - round_start, 1), "history": history})
        print(f"round {r} done in {rounds[-1]['seconds']:.0f} s (recording {recorded:.0f} s); "
              f"{time.time() - started:.0f} s in all", flush=True)
    shutil.copyfile(previous, out / "value.pt")
    record = {"kind": "afterstate-value", "method": "self-play rounds from random play, no heuristic",
              "command": command, "game": args.game, "players": args.players, "seed": args.seed,
              **({"input_options": input_options(args.encoding)} if args.no_rule_terms else {}),
              "games": sum(r["games"] for r in rounds), "samples": sum(r["samples"] for r in rounds),
              "wall_seconds": round(time.time() - started), "cores": os.cpu_count(), "rounds": rounds,
              "player": "lookahead:<value file>:prior=none"}
    (out / "value.json").write_text(json.dumps(record, indent=2) + "\n")
    print(f"value written to {out / 'value.pt'} ({record['wall_seconds']} s); record {out / 'value.json'}")


if __name__ == "__main__":
    main()
