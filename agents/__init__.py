"""Players for meadowzoo games: one small :class:`~meadowzoo.agents.base.Agent` protocol, a registry of
agent names for the command line, and the players themselves."""

from meadowzoo.agents.base import Agent
from meadowzoo.agents.random_agent import RandomAgent
from meadowzoo.agents.registry import make_agent, agent_names

__all__ = ["Agent", "RandomAgent", "agent_names", "make_agent"]
