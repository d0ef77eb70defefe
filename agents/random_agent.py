"""Uniform random play over the legal actions (the floor of every ladder)."""

from __future__ import annotations

from typing import Any

import numpy as np

from meadowzoo.agents.base import Agent


class RandomAgent(Agent):
    """Picks uniformly among the actions its observation's mask allows."""

    name = "random"

    def act(self, env: Any, agent: str) -> int:
        mask = env.observe(agent)["action_mask"]
        return self.choose(list(np.flatnonzero(mask)))
