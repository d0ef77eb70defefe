"""The list of meadowzoo games and their registration with PettingZoo.

``import meadowzoo`` registers every game, after which
``pettingzoo.make("aec", "meadowzoo/<game>-v0", **kwargs)`` builds the wrapped env.
"""

from __future__ import annotations

import importlib
import warnings
from types import ModuleType

import pettingzoo

from meadowzoo.envs.core.plugin import GamePlugin

NAMESPACE = "meadowzoo"

#: game name -> the module declaring its :class:`~meadowzoo.envs.core.plugin.GamePlugin`. The one
#: place where game names are dispatched: adding a game is its folder plus one line here.
GAMES: dict[str, str] = {
    "hase_und_igel": "meadowzoo.envs.hase_und_igel.plugin",
    "haste_bock": "meadowzoo.envs.haste_bock.plugin",
    "volle_wolle": "meadowzoo.envs.volle_wolle.plugin",
}


def env_id(game: str) -> str:
    return f"{NAMESPACE}/{game}-v0"


def plugin(game: str) -> GamePlugin:
    """The plug-in of a game name; a clear error for unknown names."""
    try:
        return _PLUGINS[game]
    except (KeyError, TypeError):
        pass
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; choose from {sorted(GAMES)}")
    declared = importlib.import_module(GAMES[game]).PLUGIN
    if declared.name != game:
        raise ValueError(f"{GAMES[game]} declares the game {declared.name!r}, registered as {game!r}")
    _PLUGINS[game] = declared
    return declared


#: plug-ins already looked up (search leaves and advice ask on every call)
_PLUGINS: dict[str, GamePlugin] = {}


def game_module(game: str) -> ModuleType:
    """The ``<game>_v0`` module of a game name (``env()``, ``raw_env()``)."""
    return importlib.import_module(plugin(game).env_module)


def register_all() -> None:
    for game in GAMES:
        if env_id(game) in pettingzoo.aec_registry:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pettingzoo.register("aec", env_id(game), entry_point=f"{plugin(game).env_module}:env")
