"""Tournament statistics: per agent and per seat results with 95% confidence intervals.

Input is a list of game records (see :mod:`meadowzoo.training.tournament`): per seat the agent label, the
env's final reward and, where the game keeps points, the score. Definitions:

* **win / draw / loss** — sole first place / first place shared (or a truncated game, where every
  reward is 0) / anything else. With 2 players this is the usual win, draw, loss.
* **win share** — (wins + draws / 2) / games; its interval is Wilson's score interval.
* **rank** — 1 = first, n = last, recovered from the rank reward (tied places share the mean
  rank), so a truncated game gives every seat the middle rank.
* **margin** — own score minus the best opponent's score where the game keeps points (Haste
  Bock?, Volle Wolle), else own reward minus the best opponent's reward (Hase und Igel).
* Means get a Student-t interval (normal quantile corrected for small samples).
* **head-to-head** — for every pair of agents that met: the share of games in which A placed
  better than B (ties count half), with Wilson's interval. "A beats B" is significant when the
  lower end is above 50%.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from statistics import NormalDist

Z95 = NormalDist().inv_cdf(0.975)


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (``successes`` may be fractional: draws count half)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # the interval holds p exactly; in floating point its ends can miss it by a hair (at 0 wins
    # centre − half is ~2e-19), so they are clamped to contain p
    return (min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


_T_SMALL = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571}


def t_quantile(df: int, z: float = Z95) -> float:
    """Two-sided 95% Student-t quantile: a table up to 5 degrees of freedom, beyond that the
    Cornish–Fisher expansion around the normal quantile (error below 0.002)."""
    if df <= 0:
        return math.inf
    if df in _T_SMALL:
        return _T_SMALL[df]
    return (z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3))


def mean_ci(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% t interval; a single value has an infinite interval."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return (mean, -math.inf, math.inf)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(n - 1) * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def seat_outcomes(record: dict) -> list[dict]:
    """Per seat of one game: label, seat, outcome, rank, margin."""
    rewards = record["rewards"]
    scores = record.get("scores")
    n = len(rewards)
    points = scores if scores is not None else rewards
    best = max(rewards)
    winners = sum(1 for r in rewards if r == best)
    out = []
    for seat, (label, reward) in enumerate(zip(record["agents"], rewards)):
        others = [points[j] for j in range(n) if j != seat]
        if reward == best:
            outcome = "win" if winners == 1 else "draw"
        else:
            outcome = "loss"
        out.append({
            "agent": label,
            "seat": seat,
            "outcome": outcome,
            "rank": 1 + (1 - reward) * (n - 1) / 2,
            "margin": points[seat] - max(others),
            "reward": reward,
        })
    return out


def summarise(rows: Iterable[dict]) -> dict:
    """Counts, win share and means with intervals over seat outcomes."""
    rows = list(rows)
    n = len(rows)
    counts = {k: sum(1 for r in rows if r["outcome"] == k) for k in ("win", "draw", "loss")}
    share = (counts["win"] + counts["draw"] / 2) / n if n else math.nan
    rank, rank_lo, rank_hi = mean_ci([r["rank"] for r in rows])
    margin, margin_lo, margin_hi = mean_ci([r["margin"] for r in rows])
    return {
        "games": n,
        "wins": counts["win"], "draws": counts["draw"], "losses": counts["loss"],
        "win_rate": counts["win"] / n if n else math.nan,
        "win_rate_ci": list(wilson(counts["win"], n)),
        "win_share": share,
        "win_share_ci": list(wilson(counts["win"] + counts["draw"] / 2, n)),
        "draw_rate_ci": list(wilson(counts["draw"], n)),
        "loss_rate_ci": list(wilson(counts["loss"], n)),
        "mean_rank": rank, "mean_rank_ci": [rank_lo, rank_hi],
        "mean_margin": margin, "mean_margin_ci": [margin_lo, margin_hi],
    }


def head_to_head(records: list[dict]) -> dict[str, dict]:
    """``"A|B"`` -> A's share of meetings with B (better place = 1, same = 1/2) and its interval."""
    tally: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0])
    for record in records:
        agents, rewards = record["agents"], record["rewards"]
        for i, a in enumerate(agents):
            for j, b in enumerate(agents):
                if a == b:
                    continue
                entry = tally[(a, b)]
                entry[0] += 1.0 if rewards[i] > rewards[j] else 0.5 if rewards[i] == rewards[j] else 0.0
                entry[1] += 1
    return {
        f"{a}|{b}": {"a": a, "b": b, "meetings": n, "share": s / n, "share_ci": list(wilson(s, n)),
                     "significant": wilson(s, n)[0] > 0.5}
        for (a, b), (s, n) in sorted(tally.items())
    }


def tournament_stats(records: list[dict], labels: list[str]) -> dict:
    """Everything the tables show: per agent, per agent and seat, head-to-head."""
    rows = [row for record in records for row in seat_outcomes(record)]
    per_agent = {label: summarise(r for r in rows if r["agent"] == label) for label in labels}
    seats = sorted({r["seat"] for r in rows})
    per_seat = {
        label: {str(seat): summarise(r for r in rows if r["agent"] == label and r["seat"] == seat) for seat in seats}
        for label in labels
    }
    return {"per_agent": per_agent, "per_seat": per_seat, "head_to_head": head_to_head(records)}
