"""The opponent pool of self-play training.

Two kinds of members: *fixed* agents named like on the command line (``random``, ``greedy``,
``strong``, ``mcts:50`` …) and *snapshots*, frozen copies of the learner's policy added during
training (weights-only files, see :mod:`meadowzoo.agents.policy`). Sampling keeps the fixed agents in the mix
— a share ``fixed_share`` of the draws, or all of them while there is no snapshot — so the learner
never forgets how to beat the heuristic ladder while it improves against itself. Newer snapshots
are drawn more often (weight ∝ 1 + index) and the pool keeps the ``max_snapshots`` newest.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from meadowzoo.agents import make_agent
from meadowzoo.agents.base import Agent


class OpponentPool:
    def __init__(self, game: str, fixed: str | list[str] = "random", fixed_share: float = 0.5,
                 max_snapshots: int = 8) -> None:
        self.game = game
        self.fixed = [s for s in (fixed.split(",") if isinstance(fixed, str) else fixed) if s]
        if not self.fixed:
            raise ValueError("the opponent pool needs at least one fixed agent (e.g. 'random')")
        for spec in self.fixed:
            make_agent(spec, game)  # fail early on unknown names
        if not 0.0 <= fixed_share <= 1.0:
            raise ValueError(f"fixed_share must be in [0, 1], got {fixed_share}")
        self.fixed_share = fixed_share
        self.max_snapshots = max_snapshots
        self.snapshots: list[tuple[str, Callable[[], Agent]]] = []

    def add_snapshot(self, path: str) -> None:
        """Add a frozen learner policy from a weights-only file (called in every env process)."""
        from meadowzoo.agents.policy import load_policy, PolicyAgent

        policy = load_policy(path)
        self.snapshots.append((path, lambda: PolicyAgent(policy, name=f"snapshot:{path}")))
        del self.snapshots[: -self.max_snapshots]

    def snapshot_paths(self) -> list[str]:
        """The snapshots' files, oldest first (what a resumed run's episode replay needs)."""
        return [path for path, _ in self.snapshots]

    def set_snapshots(self, paths: list[str]) -> None:
        """Make the snapshots exactly ``paths`` (oldest first), loading those not held already."""
        if list(paths) == self.snapshot_paths():
            return
        held = dict(self.snapshots)
        self.snapshots = []
        for path in paths:
            if path in held:
                self.snapshots.append((path, held[path]))
            else:
                self.add_snapshot(path)
        del self.snapshots[: -self.max_snapshots]

    def sample(self, rng: np.random.Generator) -> Agent:
        if self.snapshots and rng.random() >= self.fixed_share:
            weights = np.arange(1, len(self.snapshots) + 1, dtype=float)
            index = int(rng.choice(len(self.snapshots), p=weights / weights.sum()))
            return self.snapshots[index][1]()
        return make_agent(self.fixed[int(rng.integers(len(self.fixed)))], self.game)

    def describe(self) -> str:
        return f"fixed={self.fixed} snapshots={len(self.snapshots)} fixed_share={self.fixed_share}"
