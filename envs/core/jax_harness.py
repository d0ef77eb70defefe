"""The differential harness: proves a JAX engine identical to its reference engine, game-agnostic.

:func:`run_differential` plays seeded games of uniform random legal play (or of a given driver
``policy``) on both engines in lockstep, with the same chance outcomes (drawn by the JAX engine and fed to the reference, see
:mod:`meadowzoo.envs.core.jax_core`). The JAX side runs a batch of games under ``jit(vmap(...))``;
each game has its own reference ``raw_env``. At every decision it compares

* whose turn it is, whether the game is over and whether ``max_turns`` truncated it,
* the legal-action mask (``state.legal_action_mask`` vs ``raw_env.observe(agent)["action_mask"]``)
  while the game runs,
* every player's observation (``observe_all`` vs ``raw_env.observe(player)["observation"]``),
* the whole game state (the JAX state converted by ``to_game_dict`` vs the reference game's
  ``to_dict()``, both without the generator),

and at the end the scores (the reference game's ``scores()`` where it has them), places (the
engine's ``final_places``) and rewards; after a truncation, the zero rewards.
The first difference raises :class:`Mismatch` naming the game, the decision and the field.

:func:`check_hidden_information` takes states along such games and, for each observer, lets the
reference game's ``resample_hidden`` change what that player cannot see: the observer's JAX
observation must stay the same, while the resampled state must differ somewhere in the run.

Both take a :class:`~meadowzoo.envs.core.jax_core.MeadowJaxEnv`; compiled functions are cached
per engine object and batch size (:func:`compiled`), so tests sharing an engine compile once.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np

from meadowzoo.envs.core.jax_core import MeadowJaxEnv, unbatch


class Mismatch(AssertionError):
    """The JAX engine and the reference engine disagree."""


@dataclass
class Figures:
    """What a differential run compared."""

    games: int = 0
    decisions: int = 0  # decisions compared (each: mask, every player's observation, the state)
    observations: int = 0  # player observations compared
    truncated: int = 0  # games that ended by the env's max_turns truncation (the rest terminated)
    seconds: float = 0.0


@dataclass(frozen=True)
class Compiled:
    """``jit(vmap(...))`` of an engine's functions for one batch size."""

    init: object
    step: object
    observe_all: object


_COMPILED: dict[tuple[int, int], tuple[MeadowJaxEnv, Compiled]] = {}


def compiled(env: MeadowJaxEnv, batch: int) -> Compiled:
    """The engine's batched, jitted ``init``, ``step`` and ``observe_all`` (cached per engine)."""
    entry = _COMPILED.get((id(env), batch))
    if entry is None or entry[0] is not env:
        functions = Compiled(
            init=jax.jit(jax.vmap(env.init)),
            step=jax.jit(jax.vmap(env.step)),
            observe_all=jax.jit(jax.vmap(env.observe_all)),
        )
        entry = _COMPILED[(id(env), batch)] = (env, functions)
    return entry[1]


def _game_dict(game) -> dict:
    d = game.to_dict()
    d.pop("rng", None)
    return d


def _first_difference(a, b, path: str = "") -> str | None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}: present on one side only"
            found = _first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if len(a) != len(b):
            return f"{path}: length {len(a)} (jax) vs {len(b)} (reference): {a!r} vs {b!r}"
        for i, (x, y) in enumerate(zip(a, b)):
            found = _first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if a == b and type(a) is type(b) else f"{path}: {a!r} (jax) vs {b!r} (reference)"


def _compare_decision(env: MeadowJaxEnv, state, observations: np.ndarray, ref, where: str) -> int:
    """Compare one unbatched (host) state and its observations with the reference env."""
    game = ref.game
    over = bool(state.terminated)
    if over != bool(game.is_over):
        raise Mismatch(f"{where}: game over {over} (jax) vs {game.is_over} (reference)")
    truncated = bool(state.truncated)
    if truncated != any(ref.truncations.values()):
        raise Mismatch(f"{where}: truncated {truncated} (jax) vs {any(ref.truncations.values())} (reference)")
    difference = _first_difference(env.to_game_dict(state), _game_dict(game), "game")
    if difference:
        raise Mismatch(f"{where}: state differs at {difference}")
    agents = ref.possible_agents
    if not over and not truncated:
        if int(state.current_player) != game.current_agent:
            raise Mismatch(f"{where}: player to move {int(state.current_player)} (jax) vs {game.current_agent} (reference)")
        mask = ref.observe(agents[game.current_agent])["action_mask"]
        if not np.array_equal(np.asarray(state.legal_action_mask, dtype=np.int8), mask):
            raise Mismatch(f"{where}: legal mask {np.flatnonzero(state.legal_action_mask).tolist()} (jax) vs "
                           f"{np.flatnonzero(mask).tolist()} (reference)")
    for seat, agent in enumerate(agents):
        expected = ref.observe(agent)["observation"]
        got = observations[seat]
        if got.shape != expected.shape or got.dtype != expected.dtype or not np.array_equal(got, expected):
            index = np.flatnonzero(got != expected)[:8] if got.shape == expected.shape else "shape"
            raise Mismatch(f"{where}: observation of {agent} differs at {index}: "
                           f"jax {got[index] if got.shape == expected.shape else got.shape} vs "
                           f"reference {expected[index] if got.shape == expected.shape else expected.shape}")
    return len(agents)


def _compare_end(env: MeadowJaxEnv, state, ref, where: str) -> None:
    game = ref.game
    rewards = [ref.rewards[a] for a in ref.possible_agents]
    if bool(state.truncated):  # a max_turns truncation: no places, reward 0 for everybody
        if np.any(np.asarray(state.rewards)) or any(rewards):
            raise Mismatch(f"{where}: truncation rewards {np.asarray(state.rewards).tolist()} (jax) vs {rewards} (reference)")
        return
    scores = np.asarray(env.scores(state)).tolist()
    if hasattr(game, "scores") and scores != list(game.scores()):
        raise Mismatch(f"{where}: final scores {scores} (jax) vs {game.scores()} (reference)")
    jax_places = np.asarray(env.final_places(state)).tolist()
    if jax_places != list(game.places()):
        raise Mismatch(f"{where}: final places {jax_places} (jax) vs {game.places()} (reference)")
    if not np.allclose(np.asarray(state.rewards), rewards, atol=1e-6):
        raise Mismatch(f"{where}: final rewards {np.asarray(state.rewards).tolist()} (jax) vs {rewards} (reference)")


def uniform_random(ref, rng: np.random.Generator) -> int:
    """The default driver: a uniform choice among the reference env's legal actions."""
    legal = np.flatnonzero(ref.observe(ref.agent_selection)["action_mask"])
    return int(legal[rng.integers(len(legal))])


def run_differential(env: MeadowJaxEnv, games: int, seed: int = 0, batch: int = 16,
                     on_state=None, policy=None) -> Figures:
    """Play ``games`` seeded random games on both engines and compare every decision (see the
    module docstring). ``on_state(env, host_state, ref)``, if given, is called at every decision
    (the hidden-information check hooks in here). ``policy(ref, rng)`` chooses each action from
    the reference env (default :func:`uniform_random`; games whose random play rarely ends pass
    a driver that reaches the endgame). A game ends at termination or at the env's ``max_turns``
    truncation. Raises :class:`Mismatch`; returns the figures."""
    if games < 1 or batch < 1:
        raise ValueError(f"games and batch must be positive, got {games} and {batch}")
    functions = compiled(env, batch)
    figures = Figures()
    start = time.perf_counter()
    key = jax.random.PRNGKey(seed)
    choose = np.random.default_rng(seed)
    policy = uniform_random if policy is None else policy
    done_games = 0
    while done_games < games:
        key, init_key = jax.random.split(key)
        states = functions.init(jax.random.split(init_key, batch))
        live = min(batch, games - done_games)
        refs = []
        for i in range(live):
            ref = env.reference_env()
            ref.reset(seed=0)
            ref.restore(env.to_snapshot(unbatch(jax.device_get(states), i)))
            refs.append(ref)
        running = [True] * live
        decision = 0
        while any(running):
            host = jax.device_get(states)
            observations = np.asarray(functions.observe_all(states))
            actions = np.zeros(batch, dtype=np.int32)
            for i in range(live):
                if not running[i]:
                    continue
                where = f"game {done_games + i} (seed {seed}), decision {decision}"
                state = unbatch(host, i)
                figures.observations += _compare_decision(env, state, observations[i], refs[i], where)
                figures.decisions += 1
                if on_state is not None:
                    on_state(env, state, refs[i])
                if bool(state.terminated) or bool(state.truncated):
                    _compare_end(env, state, refs[i], where)
                    figures.truncated += bool(state.truncated)
                    running[i] = False
                    continue
                actions[i] = policy(refs[i], choose)
            if not any(running):
                break
            key, step_key = jax.random.split(key)
            keys = jax.random.split(step_key, batch)
            states = functions.step(states, jnp.asarray(actions), keys)
            for i in range(live):
                if running[i]:
                    env.feed_chance(refs[i].game, keys[i])
                    refs[i].step(int(actions[i]))
            decision += 1
        done_games += live
        figures.games += live
    figures.seconds = time.perf_counter() - start
    return figures


def check_hidden_information(env: MeadowJaxEnv, games: int, seed: int = 0, batch: int = 8,
                             every: int = 3, policy=None) -> int:
    """Play ``games`` as :func:`run_differential` does; at every ``every``-th decision and for
    each observer, resample what the observer cannot see (the reference game's
    ``resample_hidden``) and require the observer's JAX observation to stay the same. Raises
    :class:`Mismatch` on a leak, and when no resample changed the state at all (a vacuous run).
    Returns the number of (state, observer) pairs whose hidden part did change."""
    observe = jax.jit(env.observe_player)
    rng = np.random.default_rng(seed + 1)
    counter = {"seen": 0, "changed": 0}

    def check(env_, state, ref) -> None:
        counter["seen"] += 1
        if counter["seen"] % every or bool(state.terminated):
            return
        truth = _game_dict(ref.game)
        for observer in range(env.num_players):
            twin = ref.game.clone()
            twin.resample_hidden(observer, rng)
            if _game_dict(twin) == truth:
                continue
            counter["changed"] += 1
            before = np.asarray(observe(state, observer))
            after = np.asarray(observe(env.from_game(twin), observer))
            if not np.array_equal(before, after):
                raise Mismatch(f"player {observer}'s observation changed with hidden information at "
                               f"{np.flatnonzero(before != after)[:8].tolist()}")

    run_differential(env, games, seed=seed, batch=batch, on_state=check, policy=policy)
    if not counter["changed"]:
        raise Mismatch("resample_hidden never changed a state: the hidden-information check saw nothing")
    return counter["changed"]
