"""Tournament statistics: per agent and per seat results with 95% confidence intervals.

Input is a list of game records (see :mod:`meadowzoo.training.tournament`): per seat the agent label, the
env's final reward and, where the game keeps points, the score. Definitions:

* **win / draw / loss** — sole first place / first place shared (or a truncated game scored as a
  draw, where every reward is 0; ``--truncated standing`` scores it by the standing at the cut
  instead) / anything else. With 2 players this is the usual win, draw, loss.
* **win share** — (wins + draws / 2) / games; its interval is Wilson's score interval.
* **rank** — 1 = first, n = last, recovered from the rank reward (tied places share the mean
  rank), so a truncated game gives every seat the middle rank.
* **margin** — own score minus the best opponent's score where the game keeps points (Haste
  Bock?, Volle Wolle), else own reward minus the best opponent's reward (Hase und Igel).
* **seconds per decision** — an agent's thinking time over the decisions it took, every seat it
  held counted (:func:`thinking_seconds`).
* Means get a Student-t interval (normal quantile corrected for small samples), cut to the range
  the quantity can take: a mean rank lies in [1, players]; a reward margin in [-2, 2] (rank
  rewards lie in [-1, 1]); a score margin within the spread of the scores the tournament saw
  (largest minus smallest), since no game's rules bound points in advance here.
* **No interval below two games**: with 0 or 1 games every interval is ``None`` (tables print
  ``n<2``), and a mean of no games is ``None`` too — never NaN or an unbounded t interval.
* **head-to-head** — for every pair of agents that met: the share of meetings in which A placed
  better than B (ties count half), with Wilson's interval. "A beats B" is significant when the
  lower end is above 50%.
* **Intervals count games, not seats.** An agent holding several seats of a game (three ``strong``
  seats beside one learner), or meeting another agent several times in one game, gives rows that
  are not independent: if the learner wins, it beats all three ``strong`` seats at once. Every
  interval is therefore clustered by game: Kish's design effect (:func:`design_effect`), the
  between-game variance of the mean (cluster-robust, with the G/(G−1) small-sample factor) over the
  variance the rows would give if independent, widens the interval — Wilson's on ``n / deff``
  effective rows, the t interval's variance times ``deff`` on G − 1 degrees of freedom. Where every
  game gives one row (two players; a seat's rows; agents that hold one seat each) the design effect
  is exactly 1 and these are the plain Wilson and t intervals. It is never taken below 1: rows that
  are negatively correlated (only one of three ``strong`` seats can win) would narrow the interval
  on a variance estimate that is itself noisy with few games, so the independent-rows interval is
  kept as the narrower bound.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from statistics import NormalDist

Z95 = NormalDist().inv_cdf(0.975)


#: fewer samples than this get no interval at all
MIN_SAMPLES = 2


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float] | None:
    """Wilson score interval of a proportion (``successes`` may be fractional: draws count half;
    ``n`` may be an effective sample size, :func:`share_ci`); ``None`` below :data:`MIN_SAMPLES`
    samples."""
    if n < MIN_SAMPLES:
        return None
    return _wilson_bounds(successes / n, n, z)


def _wilson_bounds(p: float, n: float, z: float) -> tuple[float, float]:
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


def _by_game(values: list[float], games: list | None) -> list[list[float]]:
    """``values`` grouped by the game each came from (``games[i]`` for ``values[i]``; ``None``:
    every value its own game)."""
    if games is None:
        return [[v] for v in values]
    if len(games) != len(values):
        raise ValueError(f"{len(values)} values but {len(games)} game ids")
    grouped: dict = defaultdict(list)
    for value, game in zip(values, games):
        grouped[game].append(value)
    return list(grouped.values())


def design_effect(clusters: list[list[float]]) -> float:
    """Kish's design effect of the mean of the values, grouped by game: the cluster-robust
    variance of the mean (between games, times G/(G−1)) over the variance of the mean of that many
    independent values (the sample variance over n); at least 1 (see the module docstring), and 1
    where it is undefined (fewer than two games or values, or all values equal). With one value per
    game both variances are the same sum and the design effect is exactly 1."""
    values = [v for cluster in clusters for v in cluster]
    n, g = len(values), len(clusters)
    if g < 2 or n < 2 or g == n:  # g == n: one value per game, exactly 1 (not 1 ± rounding)
        return 1.0
    if max(values) == min(values):  # no spread: both variances are 0 (up to rounding)
        return 1.0
    mean = sum(values) / n
    independent = sum((v - mean) ** 2 for v in values) / (n * (n - 1))
    between = g / (g - 1) * sum((sum(c) - mean * len(c)) ** 2 for c in clusters) / (n * n)
    return max(1.0, between / independent)


def share_ci(values: list[float], games: list | None = None, z: float = Z95) -> tuple[float, float] | None:
    """Wilson interval of the mean of ``values`` in [0, 1] (1 success, 1/2 a tie, 0 a failure),
    clustered by game (``games[i]``: the game of ``values[i]``; ``None``: one value per game):
    Wilson's on the effective sample size n / :func:`design_effect`. ``None`` below
    :data:`MIN_SAMPLES` games."""
    clusters = _by_game(values, games)
    if len(clusters) < MIN_SAMPLES:
        return None
    n = len(values)
    return _wilson_bounds(sum(values) / n, n / design_effect(clusters), z)


def mean_ci(values: list[float], low: float = -math.inf, high: float = math.inf, games: list | None = None
            ) -> tuple[float | None, float | None, float | None]:
    """Mean and its 95% t interval cut to ``[low, high]`` (the range the values can take),
    clustered by game as :func:`share_ci` (variance times the design effect, G − 1 degrees of
    freedom); the interval is ``(None, None)`` below :data:`MIN_SAMPLES` games, the mean ``None``
    for no values."""
    n = len(values)
    if n == 0:
        return (None, None, None)
    mean = sum(values) / n
    clusters = _by_game(values, games)
    if len(clusters) < MIN_SAMPLES:
        return (mean, None, None)
    var = sum((v - mean) ** 2 for v in values) / (n - 1) * design_effect(clusters)
    half = t_quantile(len(clusters) - 1) * math.sqrt(var / n)
    return (mean, max(low, mean - half), min(high, mean + half))


def _interval(low: float | None, high: float | None) -> list[float] | None:
    return None if low is None else [low, high]


def seat_outcomes(record: dict) -> list[dict]:
    """Per seat of one game: label, seat, outcome, rank, margin. In a team game (the record's
    ``teams``: each seat's team) first place is a team's: its members win unless another team
    shares it, and a seat's margin is taken against the best opponent, never a team-mate."""
    rewards = record["rewards"]
    scores = record.get("scores")
    n = len(rewards)
    teams = record.get("teams") or list(range(n))
    points = scores if scores is not None else rewards
    best = max(rewards)
    winners = len({teams[j] for j in range(n) if rewards[j] == best})
    out = []
    for seat, (label, reward) in enumerate(zip(record["agents"], rewards)):
        others = [points[j] for j in range(n) if teams[j] != teams[seat]]
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
            "players": n,
        })
    return out


def margin_bounds(records: list[dict]) -> tuple[float, float]:
    """The range a margin can take (see the module docstring): [-2, 2] for reward margins, ± the
    spread of the scores seen for score margins."""
    scored = [record["scores"] for record in records if record.get("scores") is not None]
    if not scored:
        return (-2.0, 2.0)
    spread = max(max(s) for s in scored) - min(min(s) for s in scored)
    return (-spread, spread)


def _game_ids(rows: list[dict]) -> list | None:
    """Each row's game (``"game"``, added by :func:`tournament_stats`), or ``None`` when no row has
    one (every row its own game); rows that only partly say their game are an error, since the
    intervals would silently stop being clustered."""
    marked = sum("game" in row for row in rows)
    if marked == 0:
        return None
    if marked < len(rows):
        raise ValueError(f"{len(rows) - marked} of {len(rows)} rows do not say their game")
    return [row["game"] for row in rows]


def summarise(rows: Iterable[dict], margins: tuple[float, float] = (-math.inf, math.inf)) -> dict:
    """Counts, win share and means with intervals over seat outcomes (``margins``: the range a
    margin can take, :func:`margin_bounds`)."""
    rows = list(rows)
    n = len(rows)
    games = _game_ids(rows)
    counts = {k: sum(1 for r in rows if r["outcome"] == k) for k in ("win", "draw", "loss")}
    share = (counts["win"] + counts["draw"] / 2) / n if n else None
    players = max((r["players"] for r in rows), default=1)
    rank, rank_lo, rank_hi = mean_ci([r["rank"] for r in rows], 1.0, float(players), games)
    margin, margin_lo, margin_hi = mean_ci([r["margin"] for r in rows], *margins, games)

    def rate_ci(points: dict[str, float]) -> list[float] | None:
        return _list(share_ci([points.get(r["outcome"], 0.0) for r in rows], games))

    return {
        # rows, not games: an agent holding k seats of every game has k rows a game
        "games": n,
        "wins": counts["win"], "draws": counts["draw"], "losses": counts["loss"],
        "win_rate": counts["win"] / n if n else None,
        "win_rate_ci": rate_ci({"win": 1.0}),
        "win_share": share,
        "win_share_ci": rate_ci({"win": 1.0, "draw": 0.5}),
        "draw_rate_ci": rate_ci({"draw": 1.0}),
        "loss_rate_ci": rate_ci({"loss": 1.0}),
        "mean_rank": rank, "mean_rank_ci": _interval(rank_lo, rank_hi),
        "mean_margin": margin, "mean_margin_ci": _interval(margin_lo, margin_hi),
    }


def _list(interval: tuple[float, float] | None) -> list[float] | None:
    return None if interval is None else list(interval)


def head_to_head(records: list[dict]) -> dict[str, dict]:
    """``"A|B"`` -> A's share of meetings with B (better place = 1, same = 1/2) and its interval,
    clustered by game (the meetings of one game are not independent: see the module docstring).
    Team-mates do not meet: they share their team's place."""
    points: dict[tuple[str, str], list[float]] = defaultdict(list)
    games: dict[tuple[str, str], list[int]] = defaultdict(list)
    for index, record in enumerate(records):
        agents, rewards = record["agents"], record["rewards"]
        teams = record.get("teams") or list(range(len(agents)))
        for i, a in enumerate(agents):
            for j, b in enumerate(agents):
                if a == b or teams[i] == teams[j]:
                    continue
                points[(a, b)].append(1.0 if rewards[i] > rewards[j] else 0.5 if rewards[i] == rewards[j] else 0.0)
                games[(a, b)].append(index)
    out = {}
    for (a, b), scored in sorted(points.items()):
        interval = share_ci(scored, games[(a, b)])
        out[f"{a}|{b}"] = {"a": a, "b": b, "meetings": len(scored), "share": sum(scored) / len(scored),
                           "share_ci": _list(interval), "significant": interval is not None and interval[0] > 0.5}
    return out


def thinking_seconds(records: list[dict], labels: list[str]) -> dict[str, float]:
    """Each label's thinking seconds per decision it took, over every seat it held."""
    seconds, decisions = dict.fromkeys(labels, 0.0), dict.fromkeys(labels, 0.0)
    for record in records:
        # records before "seat_decisions" were kept: each seat is credited an equal share of the
        # game's decisions (exact in games whose seats decide equally often)
        per_seat = record.get("seat_decisions") or [record["decisions"] / len(record["agents"])] * len(record["agents"])
        for label, spent, taken in zip(record["agents"], record["seconds"], per_seat):
            seconds[label] += spent
            decisions[label] += taken
    return {label: seconds[label] / decisions[label] if decisions[label] else 0.0 for label in labels}


def tournament_stats(records: list[dict], labels: list[str]) -> dict:
    """Everything the tables show: per agent, per agent and seat, head-to-head."""
    # each row knows its game: the intervals are clustered by game
    rows = [{**row, "game": index} for index, record in enumerate(records) for row in seat_outcomes(record)]
    margins = margin_bounds(records)
    per_agent = {label: summarise((r for r in rows if r["agent"] == label), margins) for label in labels}
    seats = sorted({r["seat"] for r in rows})
    per_seat = {
        label: {str(seat): summarise((r for r in rows if r["agent"] == label and r["seat"] == seat), margins)
                for seat in seats}
        for label in labels
    }
    return {"per_agent": per_agent, "per_seat": per_seat, "head_to_head": head_to_head(records)}


# ---- text -----------------------------------------------------------------------------------------
#: what a table shows where there is no interval (fewer than two games)
NO_INTERVAL = "n<2"


def interval_text(interval: list[float] | None, percent: bool = False, digits: int = 2) -> str:
    """``[lo, hi]`` (shares as percentages with ``percent``), or ``n<2`` for no interval."""
    if interval is None:
        return NO_INTERVAL
    if percent:
        return f"[{100 * interval[0]:.1f}, {100 * interval[1]:.1f}]"
    return f"[{interval[0]:.{digits}f}, {interval[1]:.{digits}f}]"


def number_text(value: float | None, spec: str) -> str:
    """``value`` formatted by ``spec``, or ``-`` for a mean of no games."""
    return "-" if value is None else format(value, spec)
