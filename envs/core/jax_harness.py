"""The differential harness: proves a JAX engine identical to its reference engine, game-agnostic.

:func:`run_differential` plays seeded games of uniform random legal play (or of a given driver
``policy``) on both engines in lockstep, with the same chance outcomes (drawn by the JAX engine and fed to the reference, see
:mod:`meadowzoo.envs.core.jax_core`), one game at a time through the jitted ``init`` and ``step``
(unbatched: a program compiles in a third of the time of its ``vmap``-ed twin, and ``vmap`` of a
pure function computes the same; :func:`check_batched` proves that separately). The state stays
on the device between decisions; what the host compares comes back packed, one array per dtype
(:class:`Packer`), and the reference's chance is computed in numpy (``host_stream``): Python
overhead per transfer and per dispatch, not the engines, set the pace of a run. At every
decision it compares

* whose turn it is, whether the game is over and whether ``max_turns`` truncated it,
* the legal-action mask (``state.legal_action_mask`` vs ``raw_env.observe(agent)["action_mask"]``),
* every player's observation (``observe_all`` vs ``raw_env.observe(player)["observation"]``),
* the whole game state (the JAX state converted by ``to_game_dict`` vs the reference game's
  ``to_dict()``, both without the generator),
* while the game runs, the standing (``standing_rewards``, what a cut game scores with
  ``truncation_scoring="standing"`` and what the JAX trainer gives a cut game) vs
  :func:`meadowzoo.envs.core.standing.standing_rewards` of the reference game,

and at the end the scores (the reference game's ``scores()`` unless it is None), places (the
engine's ``final_places``) and rewards; after a truncation, the rewards of the engine's
``truncation_scoring`` (zero for a draw).
The first difference raises :class:`Mismatch` naming the game, the decision and the field.

:func:`check_hidden_information` takes states along such games and, for each observer, lets the
reference game's ``resample_hidden`` change what that player cannot see: the observer's JAX
observation must stay the same, while the resampled state must differ somewhere in the run.
:func:`check_resample_hidden` checks the JAX engine's own ``resample_hidden`` (for search players)
against the reference's along such games: what the observer sees stays, the result is a game of the
rules, and it depends only on what the observer knows.

All take a :class:`~meadowzoo.envs.core.jax_core.MeadowJaxEnv`; compiled functions are cached
per engine object (:func:`compiled`), so tests sharing an engine compile once.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np

from meadowzoo.envs.core.jax_core import MeadowJaxEnv, unbatch
from meadowzoo.envs.core.standing import standing_rewards


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
    """An engine's jitted functions (unbatched): ``init(key)`` and ``step(state, action, key)``
    each return the state and every player's observation;
    ``batched_init(keys)`` and ``batched_step(states, actions, keys)`` are ``jit(vmap(...))`` of
    the engine's own ``init`` and ``step`` (:func:`check_batched`; tests share them).
    ``play_init(key)`` and ``play_step(state, action, key)`` are what :func:`run_differential`
    calls: the state stays on the device, the step key is split inside, and what the host
    compares comes back packed (:class:`Packer`)."""

    init: object
    step: object
    batched_init: object
    batched_step: object
    play_init: object
    play_step: object
    packer: "Packer"


class Packer:
    """Ships a pytree from the device as one flat array per dtype, and rebuilds it on the host
    (numpy leaves, as ``jax.device_get`` gives): a transfer costs Python overhead per array, and
    a state has dozens of small leaves, fetched at every decision."""

    def __init__(self, shapes) -> None:
        leaves, self.treedef = jax.tree_util.tree_flatten(shapes)
        self.dtypes = sorted({np.dtype(leaf.dtype).str for leaf in leaves})
        fill = dict.fromkeys(self.dtypes, 0)
        self.slots = []  # per leaf: (dtype group, start, end, shape)
        for leaf in leaves:
            group, size = np.dtype(leaf.dtype).str, int(np.prod(leaf.shape, dtype=np.int64))
            self.slots.append((self.dtypes.index(group), fill[group], fill[group] + size, tuple(leaf.shape)))
            fill[group] += size

    def pack(self, tree) -> tuple:
        """(traced) one 1-D array per dtype."""
        groups = [[] for _ in self.dtypes]
        for leaf, (group, *_) in zip(jax.tree_util.tree_leaves(tree), self.slots, strict=True):
            groups[group].append(jnp.reshape(leaf, (-1,)))
        return tuple(jnp.concatenate(group) for group in groups)

    def unpack(self, buffers):
        buffers = [np.asarray(buffer) for buffer in buffers]
        return jax.tree_util.tree_unflatten(
            self.treedef, [buffers[group][start:end].reshape(shape) for group, start, end, shape in self.slots])


_COMPILED: dict[int, tuple[MeadowJaxEnv, Compiled]] = {}


def compiled(env: MeadowJaxEnv) -> Compiled:
    """The engine's jitted ``init`` and ``step``, each with ``observe_all`` (cached per engine)."""
    entry = _COMPILED.get(id(env))
    if entry is None or entry[0] is not env:

        def init(key):
            state = env.init(key)
            return state, env.observe_all(state)

        def step(state, action, key):
            state = env.step(state, action, key)
            return state, env.observe_all(state)

        def seen(state, step_key):  # what the host compares after a decision
            return state, env.observe_all(state), env.standing_rewards(state), jax.random.key_data(step_key)

        packer = Packer(jax.eval_shape(seen, jax.eval_shape(env.init, jax.random.PRNGKey(0)), jax.random.PRNGKey(0)))

        def play_init(key):
            key, init_key = jax.random.split(key)
            state = env.init(init_key)
            return state, key, packer.pack(seen(state, init_key))

        def play_step(state, action, key):
            key, step_key = jax.random.split(key)
            state = env.step(state, action, step_key)
            return state, key, packer.pack(seen(state, step_key))

        entry = _COMPILED[id(env)] = (env, Compiled(init=jax.jit(init), step=jax.jit(step),
                                                    batched_init=jax.jit(jax.vmap(env.init)),
                                                    batched_step=jax.jit(jax.vmap(env.step)),
                                                    play_init=jax.jit(play_init), play_step=jax.jit(play_step),
                                                    packer=packer))
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


def _compare_decision(env: MeadowJaxEnv, state, observations: np.ndarray, ref, where: str,
                      standing: np.ndarray | None = None) -> int:
    """Compare one unbatched (host) state, its observations and (while the game runs) its
    standing rewards with the reference env."""
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
    if not over and standing is not None:
        expected_standing = standing_rewards(game)
        if not np.allclose(standing, expected_standing, atol=1e-6):
            raise Mismatch(f"{where}: standing rewards {np.asarray(standing).tolist()} (jax) vs "
                           f"{list(expected_standing)} (reference)")
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
    if bool(state.truncated):  # a max_turns truncation: no places; 0 for a draw, else the standing's rewards
        if not np.allclose(np.asarray(state.rewards), rewards, atol=1e-6):
            raise Mismatch(f"{where}: truncation rewards {np.asarray(state.rewards).tolist()} (jax) vs {rewards} (reference)")
        return
    scores = np.asarray(env.scores(state)).tolist()
    expected = game.scores()  # None for a game without points (the contract's scores())
    if expected is not None and scores != list(expected):
        raise Mismatch(f"{where}: final scores {scores} (jax) vs {expected} (reference)")
    jax_places = np.asarray(env.final_places(state)).tolist()
    if jax_places != list(game.places()):
        raise Mismatch(f"{where}: final places {jax_places} (jax) vs {game.places()} (reference)")
    if not np.allclose(np.asarray(state.rewards), rewards, atol=1e-6):
        raise Mismatch(f"{where}: final rewards {np.asarray(state.rewards).tolist()} (jax) vs {rewards} (reference)")


def equal_states(a, b) -> bool:
    """Whether two pytrees of arrays (states, batched or not, on the device or the host) are equal
    leaf for leaf, dtypes included."""
    leaves_a, leaves_b = jax.tree_util.tree_leaves(jax.device_get(a)), jax.tree_util.tree_leaves(jax.device_get(b))
    return len(leaves_a) == len(leaves_b) and all(
        np.asarray(x).dtype == np.asarray(y).dtype and np.array_equal(x, y) for x, y in zip(leaves_a, leaves_b))


def uniform_random(ref, rng: np.random.Generator) -> int:
    """The default driver: a uniform choice among the reference env's legal actions."""
    legal = np.flatnonzero(ref.observe(ref.agent_selection)["action_mask"])
    return int(legal[rng.integers(len(legal))])


def run_differential(env: MeadowJaxEnv, games: int, seed: int = 0, on_state=None, policy=None) -> Figures:
    """Play ``games`` seeded random games on both engines and compare every decision (see the
    module docstring). ``on_state(host_state, ref)``, if given, is called at every decision (the
    hidden-information check hooks in here). ``policy(ref, rng)`` chooses each action from the
    reference env (default :func:`uniform_random`; games whose random play rarely ends pass a
    driver that reaches the endgame). A game ends at termination or at the env's ``max_turns``
    truncation. Raises :class:`Mismatch`; returns the figures."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive integer, got {games!r}")
    functions = compiled(env)
    figures = Figures()
    start = time.perf_counter()
    choose = np.random.default_rng(seed)
    policy = uniform_random if policy is None else policy
    for game_index in range(games):
        key = jax.random.fold_in(jax.random.PRNGKey(seed), game_index)
        device_state, key, packed = functions.play_init(key)
        state, observations, standing, _ = functions.packer.unpack(packed)
        ref = env.reference_env()
        ref.reset(seed=0)
        ref.restore(env.to_snapshot(state))
        for decision in range(_MAX_DECISIONS):
            where = f"game {game_index} (seed {seed}), decision {decision}"
            figures.observations += _compare_decision(env, state, observations, ref, where, standing)
            figures.decisions += 1
            if on_state is not None:
                on_state(state, ref)
            if bool(state.terminated) or bool(state.truncated):
                _compare_end(env, state, ref, where)
                figures.truncated += bool(state.truncated)
                break
            action = int(policy(ref, choose))
            # the step key is split from the game's key inside the program and comes back with the state
            device_state, key, packed = functions.play_step(device_state, np.int32(action), key)
            state, observations, standing, step_key = functions.packer.unpack(packed)
            env.feed_chance(ref.game, step_key)
            ref.step(action)
        else:
            raise Mismatch(f"game {game_index} (seed {seed}) did not end within {_MAX_DECISIONS} decisions")
        figures.games += 1
    figures.seconds = time.perf_counter() - start
    return figures


_MAX_DECISIONS = 100_000


def check_batched(env: MeadowJaxEnv, batch: int = 8, steps: int = 200, seed: int = 0, min_ended: int = 0) -> int:
    """Run ``batch`` games under ``jit(vmap(init))`` / ``jit(vmap(step))`` for ``steps`` random
    legal steps and require every game's state, observation, mask and rewards to equal the same
    game run alone through the unbatched jitted functions. Returns the number of game steps
    compared. With ``min_ended``, fewer games than that ending within the steps is a
    :class:`Mismatch` too (a run that never reached what ends a game proves nothing of it)."""
    functions = compiled(env)
    init, step = functions.batched_init, functions.batched_step
    key = jax.random.PRNGKey(seed)
    key, init_key = jax.random.split(key)
    init_keys = jax.random.split(init_key, batch)
    states = init(init_keys)
    singles = [functions.init(k)[0] for k in init_keys]
    compared = 0
    for t in range(steps):
        host = jax.device_get(states)
        for i, single in enumerate(singles):
            if not equal_states(unbatch(host, i), single):
                raise Mismatch(f"batched game {i} differs from the same game alone after {t} steps")
            compared += 1
        key, act_key, step_key = jax.random.split(key, 3)
        logits = jnp.where(states.legal_action_mask, 0.0, -jnp.inf)
        actions = jax.random.categorical(act_key, logits, axis=-1).astype(jnp.int32)
        keys = jax.random.split(step_key, batch)
        states = step(states, actions, keys)
        singles = [functions.step(single, actions[i], keys[i])[0] for i, single in enumerate(singles)]
    ended = int(np.sum(host.terminated)) if steps else 0  # in the last states compared
    if ended < min_ended:
        raise Mismatch(f"only {ended} of {batch} games ended in {steps} steps, fewer than the {min_ended} asked for")
    return compared


def check_hidden_information(env: MeadowJaxEnv, games: int, seed: int = 0, every: int = 3, policy=None) -> int:
    """Play ``games`` as :func:`run_differential` does; at every ``every``-th decision and for
    each observer, resample what the observer cannot see (the reference game's
    ``resample_hidden``) and require the observer's JAX observation to stay the same. Raises
    :class:`Mismatch` on a leak, and when no resample changed the state at all (a vacuous run).
    Returns the number of (state, observer) pairs whose hidden part did change."""
    observe = jax.jit(env.observe_player)
    rng = np.random.default_rng(seed + 1)
    counter = {"seen": 0, "changed": 0}

    def check(state, ref) -> None:
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

    run_differential(env, games, seed=seed, on_state=check, policy=policy)
    if not counter["changed"]:
        raise Mismatch("resample_hidden never changed a state: the hidden-information check saw nothing")
    return counter["changed"]


def check_resample_hidden(env: MeadowJaxEnv, games: int, seed: int = 0, every: int = 3, policy=None) -> int:
    """Play ``games`` as :func:`run_differential` does; at every ``every``-th decision of a running
    game and for each observer, check the JAX engine's ``resample_hidden`` (one key per check)
    against the reference game's:

    * the observer's observation, the player to move and the legal mask stay the same, and the
      state's ``observation`` is the mover's observation of the resampled state;
    * the resampled state is a game of the rules: its snapshot restores in the reference env, whose
      observation of the observer equals the JAX engine's;
    * it depends only on what the observer knows: the reference game and a twin whose hidden part
      the reference's ``resample_hidden`` redrew (both through ``from_game``) resample, with the
      same key, to the same state leaf for leaf. A hidden part the JAX resample kept would differ.

    Raises :class:`Mismatch`, also when no resample changed a game (a vacuous run). Returns the
    number of (state, observer) pairs whose resample changed the game."""
    resample = jax.jit(env.resample_hidden)
    observe = jax.jit(env.observe_player)
    rng = np.random.default_rng(seed + 2)
    counter = {"seen": 0, "checked": 0, "changed": 0}

    def check(state, ref) -> None:
        counter["seen"] += 1
        if counter["seen"] % every or bool(state.terminated) or bool(state.truncated):
            return
        truth = _game_dict(ref.game)
        for observer in range(env.num_players):
            where = f"resample_hidden for player {observer} at check {counter['checked']}"
            key = jax.random.fold_in(jax.random.PRNGKey(seed), counter["checked"])
            counter["checked"] += 1
            mine = jax.device_get(resample(state, observer, key))
            before, after = np.asarray(observe(state, observer)), np.asarray(observe(mine, observer))
            if not np.array_equal(before, after):
                raise Mismatch(f"{where}: the observer's observation changed at {np.flatnonzero(before != after)[:8].tolist()}")
            if int(mine.current_player) != int(state.current_player) or not np.array_equal(
                    mine.legal_action_mask, state.legal_action_mask):
                raise Mismatch(f"{where}: the player to move or the legal mask changed")
            if not np.array_equal(mine.observation, observe(mine, mine.current_player)):
                raise Mismatch(f"{where}: the state's observation is not the mover's")
            reference = env.reference_env()
            try:
                reference.restore(env.to_snapshot(mine))
            except ValueError as error:
                raise Mismatch(f"{where}: the resampled state is no game of the rules: {error}") from error
            expected = reference.observe(reference.possible_agents[observer])["observation"]
            if not np.array_equal(after, expected):
                raise Mismatch(f"{where}: the reference observes the resampled state differently")
            counter["changed"] += env.to_game_dict(mine) != truth
            twin = ref.game.clone()
            twin.resample_hidden(observer, rng)
            if not equal_states(resample(env.from_game(ref.game), observer, key),
                                 resample(env.from_game(twin), observer, key)):
                raise Mismatch(f"{where}: the result depends on what the observer cannot see (the reference's "
                               "resample_hidden changed it)")

    run_differential(env, games, seed=seed, on_state=check, policy=policy)
    if not counter["changed"]:
        raise Mismatch("resample_hidden never changed a game: the check saw nothing")
    return counter["changed"]
