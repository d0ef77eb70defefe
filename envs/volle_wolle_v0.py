"""Volle Wolle v0 entry points, PettingZoo style: ``env(**kwargs)`` (wrapped) and ``raw_env(**kwargs)``.

See :mod:`meadowzoo.envs.volle_wolle.env` for the documentation (observation, actions, rewards, options).
"""

from __future__ import annotations

from typing import Any

from meadowzoo.envs.core.aec import wrap
from meadowzoo.envs.volle_wolle.env import VolleWolleEnv

__all__ = ["env", "raw_env", "VolleWolleEnv"]


def raw_env(**kwargs: Any) -> VolleWolleEnv:
    """The unwrapped env (raises ``ValueError`` on illegal actions)."""
    return VolleWolleEnv(**kwargs)


def env(**kwargs: Any):
    """The env inside PettingZoo's standard wrappers (illegal move → termination, −1)."""
    return wrap(raw_env(**kwargs))
