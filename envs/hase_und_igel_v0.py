"""Hase und Igel, version 0: ``env(**kwargs)`` (wrapped) and ``raw_env(**kwargs)``.

See :mod:`meadowzoo.envs.hase_und_igel.env` for the full specification (options, observation, action mask,
every action index, rewards).
"""

from meadowzoo.envs.core.aec import wrap
from meadowzoo.envs.hase_und_igel.env import HaseUndIgelEnv
from meadowzoo.envs.hase_und_igel.env import __doc__ as _spec

__doc__ = (__doc__ or "") + "\n" + (_spec or "")
__all__ = ["env", "raw_env", "HaseUndIgelEnv"]


def raw_env(**kwargs) -> HaseUndIgelEnv:
    """The unwrapped env: illegal actions raise ValueError."""
    return HaseUndIgelEnv(**kwargs)


def env(**kwargs):
    """The env with PettingZoo's standard wrappers (illegal move ends the game, order enforced)."""
    return wrap(raw_env(**kwargs))
