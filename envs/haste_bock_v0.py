"""Haste Bock? as a PettingZoo AEC environment (see :mod:`meadowzoo.envs.haste_bock.env` for the full spec).

>>> from meadowzoo.envs import haste_bock_v0
>>> env = haste_bock_v0.env(num_players=3, render_mode="ansi")
"""

from __future__ import annotations

from typing import Any

from meadowzoo.envs.core.aec import wrap
from meadowzoo.envs.haste_bock.env import HasteBockEnv
from meadowzoo.envs.haste_bock.env import __doc__ as __doc__  # noqa: F401  (the spec table)


def raw_env(**kwargs: Any) -> HasteBockEnv:
    """The unwrapped env: illegal actions raise ``ValueError`` naming the legal ones."""
    return HasteBockEnv(**kwargs)


def env(**kwargs: Any):
    """The env with PettingZoo's standard wrappers."""
    return wrap(raw_env(**kwargs))


__all__ = ["env", "raw_env", "HasteBockEnv"]
