"""The Agent protocol every player implements.

An agent is asked for a move with the *raw* env at its decision (``env.agent_selection == agent``).
It may read the agent's observation and mask (``env.observe(agent)``), the legal action list
(``env.legal_actions()``), action names (``env.action_to_string``) and the public state of the
game; a search agent may ``env.clone()`` and must call ``resample_hidden`` on its copies before
looking ahead, so that it never uses what the player cannot know (unseen deck order, pile order,
unrevealed bids, future dice).

Agents are seeded: the same seed and the same sequence of states give the same actions.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np


class Agent(ABC):
    """A player. Subclasses implement :meth:`act`; ``name`` is what tables show."""

    name = "agent"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int | None) -> None:
        """Reseed the agent's own randomness."""
        self.rng = np.random.default_rng(seed)

    def reset(self) -> None:
        """Called at the start of every game (agents with memory forget it here)."""

    @abstractmethod
    def act(self, env: Any, agent: str) -> int:
        """The action of ``agent`` in the raw ``env`` (it is that agent's decision)."""

    def choose(self, options: list[int]) -> int:
        """Uniform choice among ``options`` from the agent's own generator."""
        return int(options[int(self.rng.integers(len(options)))])
