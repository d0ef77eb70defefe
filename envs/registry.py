"""The list of meadowzoo games and their registration with PettingZoo.

``import envs`` registers every game, after which
``pettingzoo.make("aec", "meadowzoo/<game>-v0", **kwargs)`` builds the wrapped env.
"""

from __future__ import annotations

import importlib
import warnings
from types import ModuleType

import pettingzoo

NAMESPACE = "meadowzoo"

#: game name -> module with ``env()`` and ``raw_env()``
GAMES: dict[str, str] = {
    "hase_und_igel": "envs.hase_und_igel_v0",
    "haste_bock": "envs.haste_bock_v0",
    "volle_wolle": "envs.volle_wolle_v0",
}


def env_id(game: str) -> str:
    return f"{NAMESPACE}/{game}-v0"


def game_module(game: str) -> ModuleType:
    """The ``<game>_v0`` module of a game name; a clear error for unknown names."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; choose from {sorted(GAMES)}")
    return importlib.import_module(GAMES[game])


def register_all() -> None:
    for game, module in GAMES.items():
        if env_id(game) in pettingzoo.aec_registry:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pettingzoo.register("aec", env_id(game), entry_point=f"{module}:env")
