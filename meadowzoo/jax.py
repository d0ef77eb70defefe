"""Batched JAX engines of the meadowzoo games, by name (needs the ``jax`` extra).

    import jax, meadowzoo.jax
    env = meadowzoo.jax.make("volle_wolle", num_players=4)      # a pgx.Env
    keys = jax.random.split(jax.random.PRNGKey(0), 1024)
    state = jax.jit(jax.vmap(env.init))(keys)                   # 1024 games at once
    state = jax.jit(jax.vmap(env.step))(state, actions, keys)   # the key carries the dice

Each engine implements ``pgx.Env`` (pgx 2.x) and encodes observations and actions exactly as the
game's PettingZoo env; see :mod:`meadowzoo.envs.core.jax_core` and the game's ``jax_engine``
module. ``import meadowzoo`` never imports JAX; this module does, when imported.

On the CPU, :func:`use_cpu_devices` splits the machine into one JAX device per core, so that a
batch split over them (``jax.pmap``) keeps every core busy: the benchmark and the compiled trainer
(``devices``) do this.
"""

from __future__ import annotations

from typing import Any

from meadowzoo.envs import plugin as _plugin
from meadowzoo.envs.core.plugin import load as _load
from meadowzoo.envs.registry import GAMES


def use_cpu_devices(count: int) -> int:
    """Ask JAX for ``count`` CPU devices; returns how many it has. Only possible before JAX runs
    its first operation (importing pgx runs one): later the count stays as it is, and the caller
    sees it in the result."""
    import jax

    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"the CPU device count must be a positive integer, got {count!r}")
    try:
        jax.config.update("jax_num_cpu_devices", count)
    except RuntimeError:  # the backend already runs
        pass
    return len(jax.devices("cpu"))


def available() -> list[str]:
    """Names of the games that have a JAX engine."""
    return [name for name in GAMES if _plugin(name).jax_engine]


def make(game: str, **options: Any):
    """The JAX engine (a ``pgx.Env``) of ``game`` with the given rule options (as the PettingZoo
    env's, e.g. ``num_players``). ``ValueError`` for an unknown game, a game without a JAX engine
    or an option the engine does not support."""
    if not isinstance(game, str) or game not in GAMES:
        raise ValueError(f"unknown game {game!r}; the games are {sorted(GAMES)}")
    reference = _plugin(game).jax_engine
    if not reference:
        raise ValueError(f"{game} has no JAX engine yet; games with one: {available()}")
    engine = _load(reference)
    return engine(**options)
