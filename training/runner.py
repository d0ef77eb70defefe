"""The one game runner: set up a seeded game between agents, and let the agents play it.

Every loop that plays games goes through here: tournaments (:mod:`meadowzoo.training.tournament`),
``play`` (:mod:`meadowzoo.training.play`), imitation data (:mod:`meadowzoo.training.imitation`),
Haste Bock? afterstate data (:mod:`meadowzoo.training.afterstate_data`), and the self-play view
(:mod:`meadowzoo.training.selfplay`), which lets its opponents play inside ``step()`` with
:func:`advance` and ``until`` = the learner.

* :func:`start` builds the raw env of a game, resets it with the game's seed, and builds one
  agent per seat from its spec (:func:`meadowzoo.agents.make_agent`), each seeded, each reset.
* :func:`advance` asks the agent to move for its action and steps the env until the game has
  ended (terminated or truncated) or it is ``until``'s decision. Hooks see every decision:
  ``before(agent)`` ahead of the agent's choice (what it sees: observation, advice) and
  ``after(agent, action)`` once the env has stepped (the position it led to: afterstates, a
  rendered board). ``thinking`` accumulates each agent's decision time.

Seeding. One game is seeded by one integer: the env by ``reset(seed=seed)`` and the seat agents by
:func:`seat_seeds` (``SeedSequence(seed)``, one independent stream per seat). A series of games
(a tournament, a data set) draws game ``index``'s seed from its master seed with :func:`game_seed`
(``SeedSequence([master, index])``), so games are independent and a series is the same in any
number of worker processes. Two callers keep the seeds they had before this runner existed,
because their outputs are on record and must stay reproducible from their recorded commands
(same seeds, same numbers):

* imitation data (:func:`imitation_seeds`): the warm start of the shipped policies, whose
  training commands are stored with them; game ``index`` of master seed ``s`` seeds the env with
  ``s + index`` and seat ``i`` with ``(s + index) * 16 + i``;
* ``play`` (:func:`play_seeds`): ``--seed s`` seeds the env with ``s`` and seat ``i`` with
  ``s * 1000 + i``, so a game someone watched stays the game they watched.

The self-play view draws all its seeds (env, opponents from the pool, their seeds) from its own
Gymnasium generator, in the order of its training record; only its inner loop is this runner's.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

import numpy as np

from meadowzoo.agents.base import Agent

#: ``f(seed, seats) -> seed of every seat's agent``
SeatSeeds = Callable[[int, int], Sequence[int]]


#: game seeds lie in 0..GAME_SEED_LIMIT-1 (:func:`game_seed` draws 63 bits); records and the web
#: app take seeds in that range
GAME_SEED_LIMIT = 2**63


def checked_game_seed(seed: object, what: str = "seed") -> int:
    """``seed`` as a game seed (an integer in 0..2**63-1, never a bool), else ``ValueError``."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < GAME_SEED_LIMIT:
        raise ValueError(f"{what} must be an integer in 0..2**63-1, got {seed!r}")
    return seed


def game_seed(master: int, index: int) -> int:
    """The seed of game ``index`` of a series with master seed ``master``."""
    # shifted as a Python int: NumPy 1.x has no right shift of a uint64 by a Python int
    return int(np.random.SeedSequence([master, index]).generate_state(1, np.uint64)[0]) >> 1


def seat_seeds(seed: int, seats: int) -> list[int]:
    """The seed of every seat's agent in the game seeded ``seed`` (the scheme)."""
    return [int(s) >> 1 for s in np.random.SeedSequence(seed).generate_state(seats, np.uint64)]


def play_seeds(seed: int, seats: int) -> list[int]:
    """``play``'s seat seeds (kept from before the runner, see the module docstring)."""
    return [seed * 1000 + i for i in range(seats)]


def imitation_seeds(seed: int, seats: int) -> list[int]:
    """Imitation data's seat seeds for a game whose env seed is ``seed`` (kept, see the module
    docstring)."""
    return [seed * 16 + i for i in range(seats)]


def start(game: str, specs: Sequence[str], seed: int, options: Mapping[str, Any] | None = None, *,
          render_mode: str | None = None, seeds: SeatSeeds = seat_seeds) -> tuple[Any, dict[str, Agent]]:
    """The raw env of ``game`` (``options``), reset with ``seed``, and its agents by seat name:
    ``specs`` lists one agent spec per seat, or one spec for every seat; ``seeds`` seeds them."""
    from meadowzoo.agents import make_agent
    from meadowzoo.envs import game_module

    options = dict(options or {})
    if render_mode is not None:
        options["render_mode"] = render_mode
    env = game_module(game).raw_env(**options)
    env.reset(seed=seed)
    agents = env.possible_agents
    specs = list(specs) * len(agents) if len(specs) == 1 else list(specs)
    if len(specs) != len(agents):
        raise ValueError(f"{game} with {options} has {len(agents)} seats, got {len(specs)} agents")
    players = {agent: make_agent(spec, game, seed=int(s)) for agent, spec, s in zip(agents, specs, seeds(seed, len(agents)))}
    for seat, player in players.items():
        player.reset()
        check_fit(player, env, seat)
    return env, players


def check_fit(player: Agent, env: Any, seat: str) -> None:
    """A player made for another configuration (a network or value file of another player count or
    rules, ``check_fits``) raises its ``ValueError`` here, before the first move."""
    if hasattr(player, "check_fits"):
        player.check_fits(env, env.observe(seat)["observation"])


def advance(env: Any, players: Mapping[str, Agent], *, until: str | Collection[str] | None = None,
            before: Callable[[str], None] | None = None, after: Callable[[str, int], None] | None = None,
            thinking: dict[str, float] | None = None) -> int:
    """Let ``players`` (by seat name) move until the game has ended or it is ``until``'s decision;
    returns the number of decisions taken (see the module docstring for the hooks). ``until`` may
    name several seats (the RLlib adapter stops at any seat that RLlib plays)."""
    stops = (until,) if until is None or isinstance(until, str) else frozenset(until)
    decisions = 0
    clock = time.perf_counter
    while True:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent] or agent in stops:
            return decisions
        if before is not None:
            before(agent)
        if thinking is None:
            action = players[agent].act(env, agent)
        else:
            started = clock()
            action = players[agent].act(env, agent)
            thinking[agent] += clock() - started
        env.step(action)
        decisions += 1
        if after is not None:
            after(agent, action)


def final_scores(game: Any) -> list[float] | None:
    """The game's points per player (``None`` for a game without points)."""
    scores = game.scores()
    return None if scores is None else [float(x) for x in scores]
