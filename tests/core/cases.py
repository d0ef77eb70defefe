"""The configurations the conformance suites run: every registered game at every player count of
its plug-in, plus the variants its ``tests/<game>/conformance.py`` lists."""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest

import meadowzoo  # noqa: F401  (registers the games)
from meadowzoo.envs import GAMES, game_module, plugin


def hooks(game: str) -> ModuleType:
    """The game's conformance hooks (variants, policy, invariant, corrupted snapshots …)."""
    return importlib.import_module(f"tests.{game}.conformance")


def cases() -> list:
    out = []
    for game in GAMES:
        for n in plugin(game).player_counts:
            out.append(pytest.param(game, {"num_players": n}, id=f"{game}-{n}p"))
        for label, options in hooks(game).VARIANTS.items():
            out.append(pytest.param(game, options, id=f"{game}-{label}"))
    return out


CASES = cases()
GAME_IDS = list(GAMES)


def raw(game: str, options: dict, **overrides):
    """A factory of fresh raw envs of the configuration (``**kw`` passes e.g. ``render_mode``)."""
    return lambda **kw: game_module(game).raw_env(**options, **overrides, **kw)


def wrapped(game: str, options: dict):
    return lambda **kw: game_module(game).env(**options, **kw)


def max_turns(value: int | None) -> dict:
    return {} if value is None else {"max_turns": value}
