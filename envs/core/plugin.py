"""What one game declares to the rest of the house: its :class:`GamePlugin`.

Each game folder ``envs/<game>/`` has a ``plugin.py`` with ``PLUGIN = GamePlugin(...)``, and
:data:`meadowzoo.envs.registry.GAMES` lists the games by name. Everything outside the game folder
(players, search guides, training, benchmarks, notebooks, the JAX engines) looks a game up there
instead of keeping its own table of game names.

References to code outside ``envs/`` (heuristics, guides, advice …) are ``"module:attribute"``
strings, imported only when used: the data flow stays rules ← env ← agents ← training, and
importing the envs never imports a player or a network.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any


def load(reference: str) -> Any:
    """Import ``"package.module:attribute"`` (or a bare module path)."""
    module, _, attribute = reference.partition(":")
    loaded = importlib.import_module(module)
    for part in filter(None, attribute.split(".")):
        loaded = getattr(loaded, part)
    return loaded


@dataclass(frozen=True)
class GamePlugin:
    """Everything the house needs to know about one game (see the module docstring)."""

    #: registry name, e.g. ``"volle_wolle"``
    name: str
    #: display title, e.g. ``"Volle Wolle"``
    title: str
    #: module with ``env()`` and ``raw_env()`` (PettingZoo style)
    env_module: str
    #: supported player counts
    player_counts: tuple[int, ...]
    #: ``"module:attribute"`` of the batched JAX engine class (``pgx.Env``), or ``None`` if the game
    #: has none yet; built through :func:`meadowzoo.jax.make`
    jax_engine: str | None = None
    #: module of the browser view (``seat_view``, ``anchor``, ``draw`` …, see
    #: :mod:`meadowzoo.training.web.views`), or ``None`` if the game has none
    view: str | None = None
    #: further declarations (heuristics, guides, advice, training and benchmark configurations …)
    extras: dict[str, Any] = field(default_factory=dict)
