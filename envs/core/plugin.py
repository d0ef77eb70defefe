"""What one game declares to the rest of the house: its :class:`GamePlugin`.

Each game folder ``envs/<game>/`` has a ``plugin.py`` with ``PLUGIN = GamePlugin(...)``, and
:data:`meadowzoo.envs.registry.GAMES` lists the games by name. Everything outside the game folder
(players, search guides, advice, training, benchmarks, notebooks, tournaments, the JAX engines)
looks a game up there instead of keeping its own table of game names.

References to code outside ``envs/`` (heuristics, guides, game-specific players …) are
``"module:attribute"`` strings, imported only when used (:func:`load`): the data flow stays
rules ← env ← agents ← training, and importing the envs never imports a player or a network.
Every field but the first four has a default, so a new game can start with only its env and add
heuristics, search guidance and the rest when they exist; what a game leaves out is reported as a
clear error where it is needed (``make_agent("greedy", ...)``), or falls back to a documented
neutral default (no search prior, zero leaf values, the default training configuration).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@functools.lru_cache(maxsize=None)
def load(reference: str) -> Any:
    """Import ``"package.module:attribute"`` (or a bare module path); cached, so hot callers
    (search leaves, advice) pay one dict lookup per use."""
    module, _, attribute = reference.partition(":")
    loaded = importlib.import_module(module)
    for part in filter(None, attribute.split(".")):
        loaded = getattr(loaded, part)
    return loaded


@dataclass(frozen=True)
class Heuristics:
    """The game's two heuristic players: ``"module:attribute"`` of :class:`~meadowzoo.agents.base.Agent`
    classes built as ``cls(seed)``; the agent names ``greedy`` and ``strong`` resolve to them."""

    #: one-step player with a cheap score
    greedy: str
    #: the player that plans a little (the bar trained agents are measured against)
    strong: str


@dataclass(frozen=True)
class Measure:
    """A per-player number of a game position, turned into values in [-1, 1] by
    :func:`meadowzoo.agents.values.measured_values` (``tanh((mine - mean of the others) / scale)``)."""

    #: ``"module:attribute"`` of ``f(game) -> list[float]``, one number per player, higher is better
    function: str
    #: a clear lead in the measure's units (turns, points, squares)
    scale: float


@dataclass(frozen=True)
class Search:
    """What the one search (:mod:`meadowzoo.agents.mcts`) and the advice features
    (:mod:`meadowzoo.agents.advice`) know about the game (see :mod:`meadowzoo.agents.guides`)."""

    #: rollout length cap after a leaf, in decisions, when a spec gives no ``depth``
    rollout_depth: int = 200
    #: leaf value from public state only (``leaf=public``); None: no opinion (zeros)
    public_value: Measure | None = None
    #: the strong heuristic's evaluation (``leaf=strong``); None: falls back to ``public_value``
    strong_value: Measure | None = None
    #: ``"module:attribute"`` of ``f(game, legal, rng) -> {action: score} | None``, the strong
    #: heuristic's ranking of the legal actions (``prior=strong``, advice); None: no prior
    strong_prior: str | None = None
    #: a score difference of the prior worth one unit of the advice features' gap block
    advice_scale: float = 1.0


@dataclass(frozen=True)
class Benchmark:
    """One configuration measured by :mod:`benchmarks.speed`: a label and the env options."""

    label: str
    options: Mapping[str, Any]


@dataclass(frozen=True)
class Notebook:
    """Facts the game's walk-through notebook (``notebooks/build.py``) is written from."""

    #: players of the notebook's seeded example game
    players: int
    #: one line: publisher, year and what the game is about
    blurb: str


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
    #: the forward model: the rules module (state, legal actions, apply, scoring)
    rules_module: str = ""
    #: ``"module:attribute"`` of the batched JAX engine class (``pgx.Env``), or ``None`` if the game
    #: has none yet; built through :func:`meadowzoo.jax.make`
    jax_engine: str | None = None
    #: Gymnasium id of the single-agent self-play view (:class:`meadowzoo.training.selfplay.SelfPlayEnv`)
    gym_id: str = ""
    #: the ``greedy`` and ``strong`` players; None: the game has none (yet)
    heuristics: Heuristics | None = None
    #: players only this game has: agent name -> ``"module:attribute"`` of
    #: ``parse_spec(parameter, game, seed) -> Agent`` (the part of ``name:parameter`` after the colon)
    agents: Mapping[str, str] = field(default_factory=dict)
    #: search guidance and advice (leaf values, move priors, rollout length)
    search: Search = Search()
    #: training hyperparameters that differ from :class:`meadowzoo.training.config.TrainConfig`'s
    #: defaults (field name -> value); checked against its fields when a configuration is built
    training: Mapping[str, Any] = field(default_factory=dict)
    #: settings of the compiled JAX trainer that differ from
    #: :class:`meadowzoo.training.jax_config.JaxTrainConfig`'s defaults (field name -> value)
    jax_training: Mapping[str, Any] = field(default_factory=dict)
    #: settings of the compiled trainer for one player count, over ``jax_training`` (players ->
    #: field name -> value): what depends on how many opponents move between the learner's turns
    jax_training_by_players: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    #: configurations the speed benchmark measures
    benchmarks: tuple[Benchmark, ...] = (Benchmark("default", {}),)
    #: facts for the walk-through notebook; None: the game has no notebook
    notebook: Notebook | None = None
    #: ``"module:attribute"`` of ``f(game) -> places`` (0 = best, ties share) of a game cut short
    #: before its end (tournaments' ``--truncated standing``); None: the game's own ``places()``
    standing: str | None = None
    #: module of the afterstate encoding a learned afterstate value reads (records, network input,
    #: outcome targets; see :mod:`meadowzoo.agents.afterstate_value`), or ``None`` if the game has none
    afterstate: str | None = None
    #: module of the browser view (``seat_view``, ``anchor``, ``draw`` …, see
    #: :mod:`meadowzoo.training.web.views`), or ``None`` if the game has none
    view: str | None = None
    #: module with ``explain(game, decision, legal)`` (and optionally ``context(game)``): what a
    #: person at the terminal is told about a special decision (:mod:`meadowzoo.training.narration`)
    narration: str | None = None

    def __post_init__(self) -> None:
        if not self.name.isidentifier():
            raise ValueError(f"a game name must be a Python identifier, got {self.name!r}")
        if not self.player_counts or min(self.player_counts) < 1:
            raise ValueError(f"{self.name}: player_counts must list at least one positive count")
        if self.notebook is not None and self.notebook.players not in self.player_counts:
            raise ValueError(f"{self.name}: notebook players {self.notebook.players} not in {self.player_counts}")
