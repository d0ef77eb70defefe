"""Ratings of every agent in a tournament.

* **OpenSkill (Plackett–Luce)** — the multiplayer Bayesian rating of the ``openskill`` library,
  fed the games in their (seeded, fixed) order with the final places; reported as ``mu``,
  ``sigma`` and the conservative ``ordinal`` (mu − 3 sigma). An agent that holds several seats in
  one game is rated once per seat from the same prior, and its new rating is the mean of those.
* **Bradley–Terry** — the maximum-likelihood strengths behind all head-to-head meetings (every game
  of n players counts as its n(n−1)/2 pairwise results; a tie is half a win each way), fitted with
  the MM algorithm of Hunter (2004) and shown on the Elo scale (400·log10), the mean fixed at 0.
  Unlike sequential Elo it does not depend on the order of the games.
"""

from __future__ import annotations

import math
from collections import defaultdict


def openskill_ratings(records: list[dict], labels: list[str]) -> dict[str, dict]:
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {label: model.rating(name=label) for label in labels}
    for record in records:
        agents, rewards = record["agents"], record["rewards"]
        teams = [[model.rating(mu=ratings[a].mu, sigma=ratings[a].sigma, name=a)] for a in agents]
        ranks = [-r for r in rewards]  # lower rank is better; equal rewards tie
        new = model.rate(teams, ranks=ranks)
        gathered: dict[str, list] = defaultdict(list)
        for a, (rating,) in zip(agents, new):
            gathered[a].append(rating)
        for a, seats in gathered.items():
            mu = sum(r.mu for r in seats) / len(seats)
            sigma = sum(r.sigma for r in seats) / len(seats)
            ratings[a] = model.rating(mu=mu, sigma=sigma, name=a)
    return {a: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.mu - 3 * r.sigma} for a, r in ratings.items()}


def bradley_terry(records: list[dict], labels: list[str], iterations: int = 1000, prior: float = 0.5) -> dict[str, float]:
    """Elo-scale Bradley–Terry strengths (mean 0).

    ``prior`` adds that many virtual draws between every pair of agents that met, which keeps the
    fit finite when one agent won every meeting (it shrinks extreme ratings slightly)."""
    wins: dict[tuple[str, str], float] = defaultdict(float)
    for record in records:
        agents, rewards = record["agents"], record["rewards"]
        for i in range(len(agents)):
            for j in range(i + 1, len(agents)):
                a, b = agents[i], agents[j]
                if a == b:
                    continue
                if rewards[i] > rewards[j]:
                    wins[(a, b)] += 1
                elif rewards[i] < rewards[j]:
                    wins[(b, a)] += 1
                else:
                    wins[(a, b)] += 0.5
                    wins[(b, a)] += 0.5
    met = {frozenset(k) for k in wins}
    for pair in met:
        a, b = tuple(pair)
        wins[(a, b)] += prior / 2
        wins[(b, a)] += prior / 2
    strength = dict.fromkeys(labels, 1.0)
    for _ in range(iterations):
        new = {}
        for a in labels:
            total_wins = sum(w for (x, _), w in wins.items() if x == a)
            denominator = 0.0
            for pair in met:
                if a in pair:
                    (b,) = pair - {a}
                    games = wins[(a, b)] + wins[(b, a)]
                    denominator += games / (strength[a] + strength[b])
            new[a] = total_wins / denominator if denominator else strength[a]
        mean_log = sum(math.log(s) for s in new.values()) / len(new)
        new = {a: s / math.exp(mean_log) for a, s in new.items()}
        done = max(abs(math.log(new[a] / strength[a])) for a in labels) < 1e-10
        strength = new
        if done:
            break
    return {a: 400 * math.log10(s) for a, s in strength.items()}
