"""Fit the afterstate value that a lookahead player (Haste Bock?, Hase und Igel 2p) reads, from recorded games.

The players: :mod:`meadowzoo.agents.heuristics.haste_bock_lookahead`, :mod:`meadowzoo.agents.heuristics.hase_und_igel_lookahead`.

The functions take any game's afterstate encoding (``encoding=``, see
:mod:`meadowzoo.agents.afterstate_value`; Haste Bock?'s by default), as the self-play trainer
(:mod:`meadowzoo.training.afterstate_selfplay`) passes it; this command line fits Haste Bock?'s, or
with ``--game hase_und_igel`` Hase und Igel's (two players, two runners each).

One *round* of approximate policy iteration:

1. play ``--games`` seeded games with the lineups of ``--pool`` (each lineup rotated through the
   seats) and record every afterstate from the seats of ``--viewer`` (:mod:`meadowzoo.training.afterstate_data`);
2. fit an MLP to the outcomes: per other slot, the chance that the viewer finishes ahead of it
   (binary cross-entropy on 1 / 0.5 / 0), plus the points every slot still scores (mean squared
   error, a helper target that shapes the hidden layers); the last ``--holdout`` share of games is
   held out and its losses are printed every epoch;
3. optionally (``--td-rounds R``) refit R times on bootstrapped TD(λ) targets: the target of a
   sample mixes the current net's prediction at the viewer's next sample with that sample's own
   target (``G_t = (1-λ) V(x_{t+1}) + λ G_{t+1}``, the final outcome at the end). Whole-game
   outcomes carry the noise of every later die roll and move; bootstrapping trades most of it for
   the net's own (smoother) judgement, so sibling plans are told apart with less data;
4. write the weights-only value file (``--out``) the ``lookahead:<file>`` player loads.

A second round plays ``--viewer lookahead:<round-1 file>`` so the value learns how its own player
continues. Everything is seeded (``--seed`` for the games, ``--fit-seed`` for the net), torch runs
on one thread per process for reproducibility, and the command line is stored in the file.

Example (the shipped 4-player agent's exact command is in ``results/shipped.sh`` and its record
``agents/trained/haste_bock_4p.json``)::

    python -m meadowzoo.training.fit_afterstate_value --players 4 --games 20000 --epochs 6 \\
        --pool strong,strong,greedy,random --pool strong,strong,strong,strong --out runs/hb4_value.pt
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import time
from pathlib import Path
from types import ModuleType

import numpy as np

from meadowzoo.agents.afterstate_value import FORMAT, InputVariant, input_options
from meadowzoo.envs.haste_bock import afterstate as first_encoding
from meadowzoo.training.afterstate_data import checked_encoding, generate
from meadowzoo.training.arguments import check_agents, check_writable, command_parser, layer_widths, seed_value


def build_net(hidden: list[int], encoding: ModuleType | InputVariant = first_encoding):
    """MLP with ``layers`` = Linear, ReLU, …, Linear (the keys AfterstateValue.from_file reads) on
    the ``encoding``'s input: outputs the beats logits of slots 1.., then the gains of every slot (/ 10)."""
    import torch.nn as nn

    INPUT_SIZE, SLOTS = encoding.INPUT_SIZE, encoding.SLOTS

    class ValueNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            layers: list = []
            width = INPUT_SIZE
            for h in hidden:
                layers += [nn.Linear(width, h), nn.ReLU()]
                width = h
            layers.append(nn.Linear(width, (SLOTS - 1) + SLOTS))
            self.layers = nn.Sequential(*layers)

        def forward(self, x):
            return self.layers(x)

    return ValueNet()


def predict_beats(net, records: np.ndarray, num_players: int, batch: int = 16384,
                  encoding: ModuleType | InputVariant = first_encoding) -> np.ndarray:
    """The net's ``(n, SLOTS)`` chances of finishing ahead of each slot (slot 0: 0.5)."""
    import torch

    SLOTS, dense = encoding.SLOTS, encoding.dense

    out = np.full((len(records), SLOTS), 0.5, dtype=np.float32)
    with torch.no_grad():
        for i in range(0, len(records), batch):
            logits = net(torch.from_numpy(dense(records[i:i + batch], num_players)))[:, : SLOTS - 1]
            out[i:i + batch, 1:] = torch.sigmoid(logits).numpy()
    return out


def td_lambda_targets(predicted: np.ndarray, outcomes: np.ndarray, episodes: np.ndarray, lam: float) -> np.ndarray:
    """λ-returns per sample: ``G_t = (1-λ) V_{t+1} + λ G_{t+1}`` along each episode (samples of
    one episode are in play order), ``G`` = the final outcome at an episode's last sample."""
    order = np.lexsort((np.arange(len(episodes)), episodes))  # grouped by episode, play order kept
    ep = episodes[order]
    last = np.r_[ep[1:] != ep[:-1], True]
    targets = outcomes.copy()
    # steps to the end of its episode, per grouped sample; a sample's successor is the next one
    group_end = np.flatnonzero(last)
    end_of = group_end[np.searchsorted(group_end, np.arange(len(ep)))]
    to_end = end_of - np.arange(len(ep))
    g = outcomes[order].copy()
    v = predicted[order]
    for k in range(1, int(to_end.max(initial=0)) + 1):  # all samples k steps from the end at once
        i = np.flatnonzero(to_end == k)
        g[i] = (1 - lam) * v[i + 1] + lam * g[i + 1]
    targets[order] = g
    return targets


def fit(records: np.ndarray, beats: np.ndarray, gains: np.ndarray, num_players: int, hidden: list[int],
        epochs: int, batch_size: int, lr: float, holdout: float, seed: int, log=print, net=None,
        heldout_beats: np.ndarray | None = None, keep_best: bool = False, encoding: ModuleType | InputVariant = first_encoding):
    """Train the net (a new one, or go on training ``net``); returns it and the per-epoch
    held-out losses (against ``heldout_beats``, default ``beats``: a TD refit trains on
    bootstrapped targets but is still scored against the real outcomes).

    ``keep_best`` stops early in effect: the net returned is the one of the epoch with the lowest
    held-out beats BCE, the net it started from included (epoch 0 in the history, for a net
    given), and the history's last entry says which (``kept``). A few thousand self-play games
    are over-fitted after one epoch; this keeps the fit from making the value worse."""
    import torch
    import torch.nn.functional as F

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    # records are in game order: the tail is the last games (the one game at the cut is split)
    split = int(len(records) * (1 - holdout))
    if split < batch_size:
        raise ValueError(f"{split} training samples are fewer than one batch of {batch_size}: "
                         "record more games or lower --holdout / --batch-size")
    SLOTS, dense = encoding.SLOTS, encoding.dense
    given = net is not None
    net = net if given else build_net(hidden, encoding)
    optimiser = torch.optim.Adam(net.parameters(), lr=lr)
    rng = np.random.default_rng(seed)
    mask = torch.zeros(SLOTS - 1)
    mask[: num_players - 1] = 1.0

    scored = beats if heldout_beats is None else heldout_beats

    def losses(idx: np.ndarray, targets: np.ndarray = beats):
        x = torch.from_numpy(dense(records[idx], num_players))
        out = net(x)
        target = torch.from_numpy(targets[idx][:, 1:])
        bce = F.binary_cross_entropy_with_logits(out[:, : SLOTS - 1], target, weight=mask.expand_as(target))
        if num_players < SLOTS:  # mean over the real slots only, comparable with baseline_bce
            bce = bce * (SLOTS - 1) / (num_players - 1)
        mse = F.mse_loss(out[:, SLOTS - 1:], torch.from_numpy(gains[idx] / 10.0))
        return bce, mse

    def heldout() -> tuple[float, float]:
        net.eval()
        with torch.no_grad():
            held = np.arange(split, len(records))
            parts = [losses(held[i:i + 8192], scored) for i in range(0, len(held), 8192)]
            sizes = [min(8192, len(held) - i) for i in range(0, len(held), 8192)]
            bce = sum(float(b) * s for (b, _), s in zip(parts, sizes)) / max(1, sum(sizes))
            mse = sum(float(m) * s for (_, m), s in zip(parts, sizes)) / max(1, sum(sizes))
        return bce, mse

    history: list[dict] = []
    best = None  # (held-out BCE, epoch, weights) of the best net so far, with keep_best
    if keep_best and given:
        bce, mse = heldout()
        history.append({"epoch": 0, "heldout_bce": bce, "heldout_mse": mse})
        log(f"epoch 0 (the net as given): held-out beats BCE {bce:.4f}, gains MSE {mse:.4f}")
        best = (bce, 0, copy.deepcopy(net.state_dict()))
    steps = max(1, epochs * (split // batch_size))
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, steps)
    for epoch in range(epochs):
        order = rng.permutation(split)
        net.train()
        for start in range(0, split - batch_size + 1, batch_size):
            bce, mse = losses(order[start:start + batch_size])
            optimiser.zero_grad()
            (bce + 0.25 * mse).backward()
            optimiser.step()
            scheduler.step()
        bce, mse = heldout()
        history.append({"epoch": epoch + 1, "heldout_bce": bce, "heldout_mse": mse})
        log(f"epoch {epoch + 1}/{epochs}: held-out beats BCE {bce:.4f}, gains MSE {mse:.4f}")
        if keep_best and (best is None or bce < best[0]):
            best = (bce, epoch + 1, copy.deepcopy(net.state_dict()))
    if keep_best:
        net.load_state_dict(best[2])
        history[-1]["kept"] = best[1]
        log(f"kept the net of epoch {best[1]} (held-out beats BCE {best[0]:.4f})")
    return net, history


def fit_with_td(records: np.ndarray, beats: np.ndarray, gains: np.ndarray, episodes: np.ndarray, settings,
                seed: int, td_seed: int, net=None, log=print, encoding: ModuleType | InputVariant = first_encoding):
    """Fit on the outcomes, then ``settings.td_rounds`` refits on TD(λ) targets (at half the learning
    rate, scored against the outcomes), refit ``t`` seeded ``td_seed + t``. ``settings`` carries
    the command line's fitting fields (players, hidden, epochs, batch_size, lr, holdout, td_rounds,
    td_lambda, td_epochs, keep_best; with keep_best every stage keeps its best epoch, so the net
    returned is the best of the whole chain on the held-out outcomes). Returns the net and the held-out losses of every epoch."""
    players = settings.players
    keep_best = settings.keep_best
    net, history = fit(records, beats, gains, players, settings.hidden, settings.epochs, settings.batch_size,
                       settings.lr, settings.holdout, seed, log=log, net=net, keep_best=keep_best, encoding=encoding)
    for t in range(settings.td_rounds):
        predicted = predict_beats(net, records, players, encoding=encoding)
        targets = td_lambda_targets(predicted, beats, episodes, settings.td_lambda)
        log(f"TD(λ={settings.td_lambda}) round {t + 1}/{settings.td_rounds} (held-out losses against the outcomes):")
        net, more = fit(records, targets, gains, players, settings.hidden, settings.td_epochs, settings.batch_size,
                        settings.lr * 0.5, settings.holdout, td_seed + t, log=log, net=net, heldout_beats=beats,
                        keep_best=keep_best, encoding=encoding)
        history += more
    return net, history


def baseline_bce(beats: np.ndarray, num_players: int, split: int) -> float:
    """Held-out BCE of the best constant guess (the training share per slot): the bar to clear."""
    train, held = beats[:split, 1:num_players], beats[split:, 1:num_players]
    p = np.clip(train.mean(axis=0), 1e-6, 1 - 1e-6)
    return float(-(held * np.log(p) + (1 - held) * np.log(1 - p)).mean())


def save_value(net, path: str | Path, num_players: int, hidden: list[int], note: dict,
               encoding: ModuleType | InputVariant = first_encoding) -> Path:
    import torch

    payload = {
        "format": FORMAT,
        "game": encoding.GAME,
        "num_players": num_players,
        "input_size": encoding.INPUT_SIZE,
        **({"input_options": input_options(encoding)} if input_options(encoding) else {}),
        "hidden": list(hidden),
        "note": json.dumps(note),
        "state_dict": {k: v.detach().clone() for k, v in net.state_dict().items()},
    }
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(payload, path)
    return path


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = command_parser("fit_afterstate_value", __doc__.split("\n\n")[0])
    ap.add_argument("--game", default=first_encoding.GAME,
                    help="a game whose plug-in declares an afterstate encoding")
    ap.add_argument("--players", type=int, default=4, help="players per recorded game")
    ap.add_argument("--games", type=int, default=20000, help="games recorded")
    ap.add_argument("--seed", type=seed_value, default=0, help="master seed of the recorded games")
    ap.add_argument("--pool", action="append", default=None,
                    help="comma-separated lineup (one spec per seat); repeat for several lineups")
    ap.add_argument("--viewer", default="strong", help="the spec whose seats are recorded")
    ap.add_argument("--hidden", type=layer_widths, default="256,256", help="hidden layer widths, e.g. 128,128")
    ap.add_argument("--epochs", type=int, default=6, help="epochs of the first fit")
    ap.add_argument("--batch-size", type=int, default=512, help="samples per gradient step")
    ap.add_argument("--lr", type=float, default=1e-3, help="Adam learning rate")
    ap.add_argument("--holdout", type=float, default=0.05, help="share of games held out to measure the fit")
    ap.add_argument("--fit-seed", type=seed_value, default=0, help="seed of the fit (initial weights, batches)")
    ap.add_argument("--td-rounds", type=int, default=0, help="refits on TD(λ) targets after the first fit")
    ap.add_argument("--td-lambda", type=float, default=0.7, help="λ of the TD(λ) targets")
    ap.add_argument("--td-epochs", type=int, default=2, help="epochs of every TD refit")
    ap.add_argument("--keep-best", action="store_true",
                    help="keep the epoch of the lowest held-out loss in every fit (early stopping)")
    ap.add_argument("--workers", type=int, default=2, help="processes that play the games")
    ap.add_argument("--data", default=None, help="reuse recorded games from this .npz (written if missing)")
    ap.add_argument("--out", required=True, help="the weights-only value file to write (.pt)")
    args = ap.parse_args(argv)
    args.encoding = checked_encoding(ap, args.game, args.players)
    for name, value, low, high in (("--holdout", args.holdout, 0.0, 1.0), ("--td-lambda", args.td_lambda, 0.0, 1.0)):
        if not low <= value <= high or (name == "--holdout" and value in (0.0, 1.0)):
            ap.error(f"{name} must lie in {'(0, 1)' if name == '--holdout' else '[0, 1]'}, got {value}")
    for name in ("games", "epochs", "batch_size", "workers"):
        if getattr(args, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    if args.data is not None and not args.data.endswith(".npz"):
        ap.error(f"--data must name a .npz file, got {args.data!r}")
    if args.td_rounds < 0:
        ap.error(f"--td-rounds must be at least 0, got {args.td_rounds}")
    if not 0.0 < args.lr < float("inf"):  # NaN fails this too: before the games are recorded, not after
        ap.error(f"--lr must be a finite number > 0, got {args.lr}")
    check_writable(ap, "--out", Path(args.out).parent)  # before hours of recording, not after
    args.pool = [tuple(p.split(",")) for p in (args.pool or ["strong,strong,greedy,random"])]
    for lineup in args.pool:
        if len(lineup) != args.players:
            ap.error(f"lineup {','.join(lineup)} has {len(lineup)} seats, --players is {args.players}")
        check_agents(ap, "--pool", lineup, args.game, people=False)
    check_agents(ap, "--viewer", [args.viewer], args.game, people=False)
    args.hidden = list(args.hidden)
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    started = time.time()
    data = Path(args.data) if args.data else None
    recipe = {"game": args.game, "players": args.players, "games": args.games, "seed": args.seed,
              "pool": [list(lineup) for lineup in args.pool], "viewer": args.viewer}
    reused = data is not None and data.exists()
    if reused:
        stored = np.load(data)
        stored_recipe = json.loads(str(stored["recipe"])) if "recipe" in stored else None
        if stored_recipe != recipe:
            raise SystemExit(f"{data} was recorded with {stored_recipe}, not with this command's {recipe}; "
                             "give another --data file")
        records, beats, gains, episodes = (stored[k] for k in ("records", "beats", "gains", "episodes"))
        print(f"{len(records)} afterstates read from {data}")
    else:
        records, beats, gains, episodes = generate(args.games, args.seed, args.pool, args.viewer,
                                                   workers=args.workers, encoding=args.encoding)
        print(f"{len(records)} afterstates of {args.games} games recorded in {time.time() - started:.0f} s")
        if data is not None:
            data.parent.mkdir(parents=True, exist_ok=True)
            np.savez_compressed(data, records=records, beats=beats, gains=gains, episodes=episodes,
                                recipe=json.dumps(recipe))
    split = int(len(records) * (1 - args.holdout))
    print(f"constant-guess held-out BCE {baseline_bce(beats, args.players, split):.4f}")
    net, history = fit_with_td(records, beats, gains, episodes, args, seed=args.fit_seed, td_seed=args.fit_seed + 1,
                               encoding=args.encoding)
    wall = time.time() - started
    command = "python -m meadowzoo.training.fit_afterstate_value " + " ".join(sys.argv[1:] if argv is None else argv)
    record = {
        "kind": "afterstate-value",
        "command": command,
        "game": args.game,
        "seed": args.seed,
        "games": args.games,
        "data_reused": reused,
        "samples": int(len(records)),
        "wall_seconds": round(wall),
        "cores": os.cpu_count(),
        "history": history,
    }
    path = save_value(net, args.out, args.players, args.hidden, record, args.encoding)
    Path(args.out).with_suffix(".json").write_text(json.dumps(record, indent=2) + "\n")
    print(f"value written to {path} and its record to {Path(args.out).with_suffix('.json')} ({wall:.0f} s)")


if __name__ == "__main__":
    main()
