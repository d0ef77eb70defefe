"""Random test drivers that still finish games (pure random runners hoard carrots and never meet
the finishing limit, so random games would only ever truncate)."""

from __future__ import annotations

import weakref

import numpy as np

from meadowzoo.envs.hase_und_igel.drivers import racing_random  # noqa: F401  (the tests import it from here)


class EndgameDriver:
    """A seeded test driver that reaches endgames in every player count: per game (per env) a
    share of moves from the strong heuristic, drawn once from ``shares``, the rest
    :func:`racing_random`. Strong-heavy games end by finishing (6 players in ~130 decisions);
    games with share 0 hoard carrots, cycle in the final stretch and truncate at ``max_turns``;
    hare cards and stuck runners happen in both. Call as ``driver(env, rng)`` (the signature of
    the JAX harness's ``policy``)."""

    def __init__(self, shares: tuple[float, ...] = (0.0, 0.5, 0.7, 0.9), seed: int = 0) -> None:
        from meadowzoo.agents.heuristics.hase_und_igel import StrongHaseUndIgel

        self.strong = StrongHaseUndIgel(seed=seed, samples=1)  # one sample a card draw: ~1 ms a move
        self.shares = shares
        self._share: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def __call__(self, env, rng: np.random.Generator) -> int:
        share = self._share.get(env)
        if share is None:
            share = self._share[env] = self.shares[int(rng.integers(len(self.shares)))]
        if share and rng.random() < share:
            return self.strong.act(env, env.agent_selection)
        return racing_random(env, rng)
