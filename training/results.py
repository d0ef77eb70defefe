"""Regenerate the result tables of ``results/README.md`` from stored tournament output.

    python -m meadowzoo.training.results            # rewrite results/README.md between the markers
    python -m meadowzoo.training.results --check    # exit 1 if results/README.md is not what the results give

Every ``results/<name>/results.json`` written by ``python -m meadowzoo.training.evaluate --out`` becomes one
table: the exact command that produced it, then per agent wins–draws–losses, win share, mean rank
and mean margin with 95% intervals, and the ratings; for every pair of agents the head-to-head
share with its interval and whether it is significant. The statistics are computed from the
stored game records by :mod:`meadowzoo.training.stats` as it is now (intervals clustered by game),
so a change of definition reaches every table. Nothing in the section is typed by hand:
it is replaced whole between ``<!-- results:start -->`` and ``<!-- results:end -->``. Links to the
``results.json`` files are relative to the folder of the file written (``--readme``).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from meadowzoo.training.arguments import command_parser
from meadowzoo.training.stats import interval_text, number_text, thinking_seconds, tournament_stats

START, END = "<!-- results:start -->", "<!-- results:end -->"


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _ci_pct(ci: list[float] | None) -> str:
    return interval_text(ci, percent=True)


def _ci(ci: list[float] | None) -> str:
    return interval_text(ci)


def agent_file(label: str) -> str | None:
    """The weights file an agent label names: ``policy:``, ``sampled:`` and ``lookahead:`` take it
    as their parameter, a network-guided search as ``mctx:…:net=<file>``; ``None`` for the rest."""
    name, _, parameter = label.partition(":")
    if name in ("policy", "sampled", "lookahead"):
        return parameter.split(":")[0] or None
    if name == "mctx":
        nets = [token[4:] for token in parameter.split(":") if token.startswith("net=")]
        return nets[0] if nets else None
    return None


def _training_lines(labels, root: Path = Path(".")) -> list[str]:
    """For every agent whose weights file (:func:`agent_file`) has a ``<file>.json`` training record
    (written by ``meadowzoo.training.ship``): how it was trained — command, seed, timesteps
    (or recorded games), wall time, cores. A relative ``<file>`` is read from ``root``, the folder
    the tournaments were run from (the results folder's parent), whatever the current folder."""
    lines = []
    for label in labels:
        weights = agent_file(label)
        if weights is None:
            continue
        record_path = root / Path(weights).with_suffix(".json")
        if not record_path.exists():
            continue
        record = json.loads(record_path.read_text())
        subject = f"The network of `{label}`" if label.startswith("mctx:") else f"`{label}`"
        if record.get("kind") == "afterstate-value":
            games = f"{record['games']:,} recorded games, " if record.get("games") else ""
            lines += ["", f"The value of `{label}` was fitted with `{record['command']}` (seed {record['seed']}, "
                          f"{games}{record['samples']:,} afterstates, {record['wall_seconds'] / 60:.0f} min "
                          f"wall time on {record['cores']} CPU cores)."]
            continue
        # SB3 records list invocations as {command, from_timesteps}; the JAX trainer's as commands
        invocations = [entry if isinstance(entry, dict) else {"command": entry}
                       for entry in record.get("invocations") or [record["command"]]]
        how = f"`{invocations[0]['command']}`"
        for later in invocations[1:]:  # a run continued by later commands
            since = f" from {later['from_timesteps']:,} timesteps" if "from_timesteps" in later else ""
            how += f", continued{since} with `{later['command']}`"
        lines += ["", f"{subject} was trained with {how} (seed {record['seed']}, "
                      f"{record['timesteps']:,} timesteps, {record['wall_seconds'] / 60:.0f} min wall time on "
                      f"{record['cores']} CPU cores)."]
    return lines


def result_section(result: dict, path: str, root: Path = Path(".")) -> str:
    """Markdown for one stored tournament."""
    if result.get("records"):
        # the statistics from the games themselves, by today's definitions (stats.py): results
        # made before the intervals were clustered by game, or before the thinking-time column
        # counted each agent's own decisions, hold older figures
        result = {**result, **tournament_stats(result["records"], list(result["per_agent"])),
                  "seconds_per_decision": thinking_seconds(result["records"], list(result["per_agent"]))}
    per = result["per_agent"]
    thinking = result["seconds_per_decision"]
    heading = f"#### {result['game']}, {result['players']} players, {result['games']} games"
    if result.get("partial"):  # an evaluate run stopped by Ctrl-C
        heading += f" (PARTIAL: interrupted, {result['games_planned']} planned)"
    lines = [
        heading,
        "",
        f"`{result.get('command', '(command not recorded)')}` → [`{path}`]({path})",
        "",
        f"| agent | W–D–L | win share [95% CI] | mean rank [95% CI] | margin ({result['margin_unit']}) [95% CI] "
        "| OpenSkill μ ± σ | BT Elo | s/decision |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for label, s in per.items():
        skill = result["openskill"][label]
        lines.append(
            f"| `{label}` | {s['wins']}–{s['draws']}–{s['losses']} | {_pct(s['win_share'])} {_ci_pct(s['win_share_ci'])} "
            f"| {number_text(s['mean_rank'], '.2f')} {_ci(s['mean_rank_ci'])} "
            f"| {number_text(s['mean_margin'], '+.2f')} {_ci(s['mean_margin_ci'])} "
            f"| {skill['mu']:.1f} ± {skill['sigma']:.1f} | {result['bradley_terry_elo'][label]:+.0f} "
            f"| {thinking[label]:.4f} |")
    lines += _training_lines(per, root)
    pairs = [h for h in result["head_to_head"].values() if list(per).index(h["a"]) < list(per).index(h["b"])]
    if pairs:
        lines += ["", "| A | B | meetings | A placed better [95% CI] | significant |", "|---|---|---|---|---|"]
        for h in pairs:
            verdict = "A better" if h["significant"] else "B better" if h["share_ci"] and h["share_ci"][1] < 0.5 else "no"
            lines.append(f"| `{h['a']}` | `{h['b']}` | {h['meetings']} | {_pct(h['share'])} {_ci_pct(h['share_ci'])} | {verdict} |")
    if result.get("truncated_games"):
        scored = ("scored by the standing at the cut" if result.get("truncated_scoring") == "standing"
                  else "reward 0 for all: a draw")
        lines += ["", f"{result['truncated_games']} games were truncated at `max_turns` ({scored})."]
    return "\n".join(lines)


def render(results_dir: Path, root: Path) -> str:
    files = sorted(results_dir.glob("*/results.json"))
    if not files:
        return "No stored results yet."
    results = [(json.loads(f.read_text()), f) for f in files]
    results.sort(key=lambda item: (item[0]["game"], item[0]["players"], str(item[1])))
    # agents' files are named relative to the folder the tournaments ran from: the results folder's parent
    runs_from = results_dir.resolve().parent
    return "\n\n".join(result_section(r, Path(os.path.relpath(f, root)).as_posix(), runs_from) for r, f in results)


def update(readme: Path, results_dir: Path, check: bool = False) -> bool:
    """Rewrite the marked section; returns whether the file was already up to date."""
    text = readme.read_text()
    if START not in text or END not in text:
        raise ValueError(f"{readme} lacks the markers {START} … {END}")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    new = f"{head}{START}\n{render(results_dir, readme.parent)}\n{END}{tail}"
    if new == text:
        return True
    if not check:
        readme.write_text(new)
    return False


def main(argv: list[str] | None = None) -> None:
    parser = command_parser("results", "Regenerate the result tables of results/README.md from results/*/results.json.")
    parser.add_argument("--readme", type=Path, default=Path("results/README.md"),
                        help="the file whose marked results section is rewritten")
    parser.add_argument("--results", type=Path, default=Path("results"),
                        help="folder of tournament results (<name>/results.json)")
    parser.add_argument("--check", action="store_true", help="only check; exit 1 when out of date")
    args = parser.parse_args(argv)
    if not args.readme.is_file():
        parser.error(f"argument --readme: no file {args.readme}")
    if not args.results.is_dir():
        parser.error(f"argument --results: no folder {args.results}")
    try:
        fresh = update(args.readme, args.results, check=args.check)
    except ValueError as error:
        parser.error(f"argument --readme: {error}")
    if args.check and not fresh:
        print(f"{args.readme} is out of date: run python -m meadowzoo.training.results", file=sys.stderr)
        sys.exit(1)
    print(f"{args.readme}: {'up to date' if fresh else 'updated'}")


if __name__ == "__main__":
    main()
