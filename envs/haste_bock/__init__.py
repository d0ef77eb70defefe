"""Haste Bock? (Zoch 2006): rules, data, PettingZoo env and rendering."""

from meadowzoo.envs.haste_bock.rules import NUM_ACTIONS, HasteBockGame

__all__ = ["HasteBockGame", "NUM_ACTIONS"]
