"""The shared core of meadowzoo's batched JAX engines (``pgx.Env``), game-agnostic.

Every game's JAX engine is a subclass of :class:`MeadowJaxEnv`, itself a ``pgx.Env`` (pgx 2.x):
``init(key)``, ``step(state, action, key)``, ``observe(state)``, ``state.legal_action_mask``,
``state.rewards`` … run under ``jax.jit`` and ``jax.vmap`` on CPU and GPU, so Pgx's baselines and
mctx search use them unchanged (mctx: :mod:`meadowzoo.agents.gumbel_search`, ``examples/mctx_search.py``,
the "Tree search with mctx" section of ``docs/jax.md``). This module holds what the engines share:

* :class:`MeadowJaxEnv`: option handling, the mandatory step ``key``, every player's observation
  (:meth:`MeadowJaxEnv.observe_player`, :meth:`MeadowJaxEnv.observe_all`, without Pgx's
  deprecation warning), conversion both ways between a JAX state and the PettingZoo env's
  ``snapshot()`` (:meth:`MeadowJaxEnv.to_snapshot`, :meth:`MeadowJaxEnv.from_snapshot`);
* :func:`rank_rewards`: the reward by final rank of :mod:`meadowzoo.envs.core.rewards` (first +1,
  last −1, linear between, tied players share the mean of their places), from scores;
* **the chance scheme** shared with the reference engines (:func:`chance_stream`,
  :func:`stream_int`, :func:`stream_permutation`, :class:`StreamRandom`): see below;
* :class:`SparseObservation`: an observation vector written as a constant base plus one scatter
  of its nonzero entries (the engines' observations are mostly one-hot blocks);
* small helpers for branch-free code (:func:`when`, :func:`unbatch`).

Importing this module imports JAX and Pgx; ``import meadowzoo`` and ``meadowzoo.envs`` never do
(only :mod:`meadowzoo.jax`, the engines and the harness import it).

Chance
------
Chance is drawn by the JAX engine and fed to the reference engine, never drawn twice:

* **The set-up** (shuffles, seat draws of ``init(key)``) is drawn from the init key (e.g.
  :func:`permutation`); the reference engine receives it through the state: :meth:`MeadowJaxEnv.to_snapshot`
  and ``raw_env.restore``.
* **In-game chance** of ``step(state, action, key)`` (dice, reshuffles) comes from ``key`` as a
  *stream* of 24-bit uniforms, ``u[i] = mix(seed + (i+1)·φ) >> 8`` for ``i < stream size``
  (:func:`chance_stream`): ``seed`` hashes the key's two 32-bit words, ``mix`` is MurmurHash3's
  32-bit finaliser and ``φ = 0x9E3779B9`` (a Weyl sequence through an avalanche mix, as SplitMix
  does). Not ``jax.random.bits``: threefry costs about 100 integer operations per two words, which
  dominated a step on the CPU; the keys themselves still come from ``jax.random`` (split, fold_in),
  and dice need no cryptographic strength. The engine consumes them in the order
  in which the reference engine calls its generator, one uniform per call: an integer below ``m``
  (a die of ``m`` faces minus one, a random seat …) is ``(u·m) >> 24`` (:func:`stream_int`), a
  shuffle of ``k`` items is Fisher–Yates on ``k - 1`` consecutive uniforms
  (:func:`stream_permutation`).
* **The reference engine** gets the same outcomes from :class:`StreamRandom`, a stand-in for its
  ``numpy.random.Generator`` holding that step's stream: ``random()`` returns ``u/2**24`` (so the
  reference's own ``int(random()·m)`` gives the same integer: exact in float64), ``integers(m)``
  and ``shuffle`` / ``permutation`` follow the same two rules. Each engine's ``feed_chance(game,
  key)`` installs it before the reference plays that step's action; a reference call past the end
  of the stream raises (the engine's stream size is a proven bound: a mismatch, never a silent
  wrap).

Because the chance of a step depends only on its key, a JAX state converted to a snapshot carries
no generator; :meth:`MeadowJaxEnv.to_snapshot` gives the reference a seeded PCG64 generator of its
own (``seed``), whose future dice differ from the JAX engine's unless fed through ``feed_chance``.

How to add a game's JAX engine
------------------------------
1. Write ``envs/<game>/jax_engine.py`` with a state class (``@pgx._src.struct.dataclass``
   subclassing ``pgx.core.State``: the six Pgx fields, ``_step_count`` and the game's own arrays)
   and ``class <Game>Jax(MeadowJaxEnv)``. Shapes may depend on the options (player count), never
   on traced values; no Python control flow on traced values (``jax.lax.cond`` / :func:`when`,
   ``jax.lax.while_loop``, ``jnp.where``).
2. Implement ``_check_options`` (support each option of the PettingZoo env that changes the rules,
   or refuse it with a ``ValueError`` naming it), ``_init(key)``, ``_step(state, action, key)``
   (after a legal action; the base class handles terminated states and illegal actions the Pgx
   way), ``_observe(state, player)`` (identical to ``raw_env.observe(agent)["observation"]``),
   ``scores(state)``, ``id``, ``num_players``, and the conversion hooks ``to_game_dict(state)`` (equal
   to the reference game's ``to_dict()`` except ``rng``), ``from_game(game)`` and
   ``feed_chance(game, key)`` (chance as above). Action indices are the PettingZoo env's. A game
   whose state holds what a player cannot see (a shuffled deck, a secret bid) also implements
   ``resample_hidden(state, observer, key)`` as its reference game's (see the method).
3. Set ``jax_engine="meadowzoo.envs.<game>.jax_engine:<Game>Jax"`` in the game's ``plugin.py``:
   :func:`meadowzoo.jax.make` finds it there.
4. Prove identity with :mod:`meadowzoo.envs.core.jax_harness` (``run_differential`` and
   ``check_hidden_information``, and ``check_resample_hidden`` where the game hides something) in
   ``tests/jax/test_<game>.py``: a few games per player count
   in the default suite, ≥ 300 per count in a ``@pytest.mark.slow`` test.
5. Add the game to ``benchmarks/jax_speed.py``'s configurations.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pgx.core

from meadowzoo.envs.core.aec import SNAPSHOT_VERSION
from meadowzoo.envs.core.standing import check_truncation_scoring


#: bits of one chance uniform: small enough that ``u·m`` stays exact in int32 (m < 128) and in
#: float64 on the reference side
CHANCE_BITS = 24
_CHANCE_SCALE = float(1 << CHANCE_BITS)
_MAX_STREAM_INT = 1 << (31 - CHANCE_BITS)  # largest m for which u·m fits in int32


# ---- chance -----------------------------------------------------------------------------------------
_GOLDEN = 0x9E3779B9


def _mix32(x: jax.Array) -> jax.Array:
    """MurmurHash3's 32-bit finaliser (uint32 in, uint32 out; a bijection with full avalanche)."""
    x = x ^ (x >> 16)
    x = x * jnp.uint32(0x85EBCA6B)
    x = x ^ (x >> 13)
    x = x * jnp.uint32(0xC2B2AE35)
    return x ^ (x >> 16)


def stream_seed(key: jax.Array) -> jax.Array:
    """The 32-bit seed of ``key``'s chance stream (uint32): both key words, hashed."""
    words = jax.random.key_data(key).reshape(-1).astype(jnp.uint32)
    return _mix32(words[0] ^ _mix32(words[-1] ^ jnp.uint32(0x5BD1E995)))


def stream_at(seed: jax.Array, index: jax.Array) -> jax.Array:
    """Uniform number ``index`` (any int array) of the stream of ``seed``: ``0 .. 2**24 - 1`` (int32).
    Counter-based, so an engine may draw the ``i``-th uniform of a stream lazily, when needed."""
    z = seed + (jnp.asarray(index).astype(jnp.uint32) + jnp.uint32(1)) * jnp.uint32(_GOLDEN)
    return (_mix32(z) >> (32 - CHANCE_BITS)).astype(jnp.int32)


def chance_stream(key: jax.Array, size: int) -> jax.Array:
    """The step's chance: ``size`` uniforms in ``0 .. 2**24 - 1`` (int32) drawn from ``key``
    (``stream_at(stream_seed(key), i)`` for ``i < size``; see the module docstring)."""
    return stream_at(stream_seed(key), jnp.arange(size, dtype=jnp.uint32))


def stream_int(u: jax.Array, m: int) -> jax.Array:
    """An integer in ``0 .. m-1`` from one uniform of :func:`chance_stream` (exact, ``m < 128``)."""
    if not 1 <= m < _MAX_STREAM_INT:
        raise ValueError(f"stream_int needs 1 <= m < {_MAX_STREAM_INT}, got {m}")
    return (u * m) >> CHANCE_BITS


def stream_permutation(uniforms: jax.Array) -> jax.Array:
    """A permutation of ``0 .. k`` from ``k`` uniforms (``k+1`` items; int32) by Fisher–Yates:
    for ``i = 0 .. k-1`` position ``i`` swaps with ``i + stream_int(u[i], k+1-i)``. A shuffled
    list is ``[x[p[0]], x[p[1]], …]``. A loop of swaps, not a sort: XLA's sort is ten times
    slower on the CPU under ``vmap``."""
    size = uniforms.shape[0] + 1
    if size > _MAX_STREAM_INT:
        raise ValueError(f"stream_permutation supports up to {_MAX_STREAM_INT} items, got {size}")

    def swap(i, items):
        j = i + ((uniforms[i] * (size - i)) >> CHANCE_BITS)
        a, b = items[i], items[j]
        return items.at[i].set(b).at[j].set(a)

    return jax.lax.fori_loop(0, size - 1, swap, jnp.arange(size, dtype=jnp.int32))


def permutation(key: jax.Array, size: int) -> jax.Array:
    """A uniform random permutation of ``0 .. size-1`` drawn from ``key`` (set-up shuffles):
    :func:`stream_permutation` of ``size - 1`` uniforms of :func:`chance_stream`."""
    return stream_permutation(chance_stream(key, max(size - 1, 0)))


class StreamRandom:
    """A stand-in for the reference engine's ``numpy.random.Generator`` that replays one step's
    chance stream (see the module docstring). Only the calls the reference engines make are
    offered; each consumes uniforms in order and raises ``RuntimeError`` past the stream's end."""

    def __init__(self, uniforms: np.ndarray) -> None:
        self.uniforms = [int(u) for u in np.asarray(uniforms).reshape(-1)]
        self.used = 0

    def _next(self) -> int:
        if self.used >= len(self.uniforms):
            raise RuntimeError(f"the reference engine drew more than the step's {len(self.uniforms)} chance uniforms")
        u = self.uniforms[self.used]
        self.used += 1
        return u

    def random(self) -> float:
        return self._next() / _CHANCE_SCALE

    @property
    def bit_generator(self) -> np.random.PCG64:
        """A PCG64 seeded from the unused rest of the stream, so that the reference game's
        ``to_dict`` / ``clone`` work while it is fed (they record or copy a generator state)."""
        return np.random.PCG64(self.uniforms[self.used:] or [0])

    def integers(self, low: int, high: int | None = None) -> int:
        if high is None:
            low, high = 0, low
        m = int(high) - int(low)
        if not 1 <= m < _MAX_STREAM_INT:
            raise ValueError(f"StreamRandom.integers needs 1 <= high - low < {_MAX_STREAM_INT}, got {m}")
        return int(low) + (self._next() * m >> CHANCE_BITS)

    def permutation(self, x: int | list) -> np.ndarray:
        """As :func:`stream_permutation`: Fisher–Yates on ``len - 1`` uniforms."""
        items = np.arange(x) if isinstance(x, (int, np.integer)) else np.asarray(x)
        size = len(items)
        order = list(range(size))
        for i in range(size - 1):
            j = i + (self._next() * (size - i) >> CHANCE_BITS)
            order[i], order[j] = order[j], order[i]
        return items[np.asarray(order, dtype=np.int64)]

    def shuffle(self, x: list) -> None:
        order = self.permutation(len(x))
        x[:] = [x[i] for i in order]


def host_stream(key, size: int) -> np.ndarray:
    """:func:`chance_stream` computed on the host in numpy (int64), for :class:`StreamRandom`:
    the same uint32 arithmetic, no JAX dispatch (the differential harness feeds the reference
    engine at every decision). ``key``: a raw key (``uint32[2]``, JAX or numpy) or a typed one."""
    if jnp.issubdtype(getattr(key, "dtype", np.uint32), jax.dtypes.prng_key):
        key = jax.random.key_data(key)
    words = np.asarray(key, dtype=np.uint32).reshape(-1)
    seed = _np_mix32(words[0] ^ _np_mix32(words[-1] ^ np.uint32(0x5BD1E995)))
    return host_stream_at(seed, np.arange(size))


def host_stream_at(seed, index) -> np.ndarray:
    """:func:`stream_at` on the host (numpy, int64): uniforms ``index`` of the stream of ``seed``."""
    with np.errstate(over="ignore"):  # uint32 arithmetic wraps, as on the device
        z = np.uint32(seed) + (np.asarray(index).astype(np.uint32) + np.uint32(1)) * np.uint32(_GOLDEN)
    return (_np_mix32(z) >> np.uint32(32 - CHANCE_BITS)).astype(np.int64)


def _np_mix32(x: np.ndarray) -> np.ndarray:
    """:func:`_mix32` in numpy (uint32, wrapping multiplication)."""
    x = np.asarray(x, dtype=np.uint32)
    with np.errstate(over="ignore"):  # uint32 multiplication wraps, as on the device
        x = x ^ (x >> np.uint32(16))
        x = x * np.uint32(0x85EBCA6B)
        x = x ^ (x >> np.uint32(13))
        x = x * np.uint32(0xC2B2AE35)
        return x ^ (x >> np.uint32(16))


# ---- rewards ----------------------------------------------------------------------------------------
def rank_rewards(scores: jax.Array) -> jax.Array:
    """Reward by final rank from per-player scores (most first): as
    :func:`meadowzoo.envs.core.rewards.rank_rewards` without teams. A player behind ``k`` others
    and tied with ``m - 1`` shares the slots ``k .. k+m-1`` of ``1 - 2s/(n-1)``: ``1 - (2k+m-1)/(n-1)``."""
    n = scores.shape[-1]
    ahead = (scores[..., None, :] > scores[..., :, None]).sum(-1)
    tied = (scores[..., None, :] == scores[..., :, None]).sum(-1)
    return (1.0 - (2 * ahead + tied - 1) / (n - 1)).astype(jnp.float32)


def places(scores: jax.Array) -> jax.Array:
    """Per-player place (0 = best; equal scores share a place): players with strictly more points."""
    return (scores[..., None, :] > scores[..., :, None]).sum(-1).astype(jnp.int32)


# ---- branch-free helpers ---------------------------------------------------------------------------
def when(pred: jax.Array, fn, state):
    """``fn(state)`` where ``pred`` holds, else ``state`` (a ``lax.cond``: under ``vmap`` both run
    and are selected, unbatched only the taken branch runs). Under ``vmap`` the cond first
    broadcasts every array ``fn`` closes over to the batch: where ``fn`` reads large constant
    tables, ``select_tree(pred, fn(state), state)`` does the same work without those copies."""
    return jax.lax.cond(pred, fn, lambda s: s, state)


def select_tree(pred: jax.Array, on_true: Any, on_false: Any) -> Any:
    """``on_true`` where ``pred`` else ``on_false``, leaf by leaf (two pytrees of one structure):
    what a ``lax.cond`` becomes under ``vmap``, without broadcasting its operands (see
    :meth:`MeadowJaxEnv._pgx_step`). Leaves that are the same object are passed through."""
    return jax.tree_util.tree_map(lambda a, b: a if a is b else jnp.where(pred, a, b), on_true, on_false)


def unbatch(tree: Any, index: int) -> Any:
    """Element ``index`` of a batched pytree (a state of a ``vmap``-ed batch)."""
    return jax.tree_util.tree_map(lambda leaf: leaf[index], tree)


class SparseObservation:
    """A float32 observation vector written as a constant base plus the few entries a state sets.

    The engines' observations are mostly one-hot blocks (squares, phases, pending decisions …),
    so nearly all of their hundreds of entries are zero. Computed block by block and concatenated
    they cost a kernel per block and a copy of the whole vector under ``vmap`` on the CPU; here
    the blocks are appended in order, each one-hot block as one index (dropped when ``value`` is
    outside ``0 .. width-1``, which leaves the block all zero), each dense block as its indices and
    values, and :meth:`build` scatters them, in one operation, into the constant base (zeros, and
    the constant blocks of :meth:`constant`). Haste Bock?'s step ran ×1.14 faster this way than
    with comparisons and a concatenate (session 32). The result equals the concatenation of the
    same blocks exactly: every entry is written at most once, with the same float32 value."""

    #: entries not written go to indices from here on, one each (the scatter's indices stay
    #: unique, as it is told), out of range, so the scatter drops them
    _NOWHERE = 1 << 30

    def __init__(self) -> None:
        self.size = 0
        self._base: list[np.ndarray] = []
        self._indices: list[jax.Array] = []
        self._values: list[jax.Array] = []

    def _block(self, base: np.ndarray) -> int:
        start = self.size
        self.size += base.shape[0]
        self._base.append(base)
        return start

    def one_hot(self, value: jax.Array, width: int) -> None:
        """``width`` entries, 1 at ``value`` (none where ``value`` is out of range, e.g. −1)."""
        self.one_hots(jnp.reshape(value, (1,)), width)

    def one_hots(self, values: jax.Array, width: int) -> None:
        """One one-hot block of ``width`` entries for each of ``values`` (1-D), in order."""
        values = jnp.asarray(values, jnp.int32)
        start = self._block(np.zeros(width * values.shape[0], np.float32))
        at = start + width * jnp.arange(values.shape[0], dtype=jnp.int32) + values
        nowhere = self._NOWHERE + sum(i.shape[0] for i in self._indices) + np.arange(values.shape[0], dtype=np.int32)
        self._indices.append(jnp.where((values >= 0) & (values < width), at, nowhere))
        self._values.append(jnp.ones(values.shape, jnp.float32))

    def flag(self, on: jax.Array) -> None:
        """One entry, 1.0 where ``on``."""
        self.one_hot(jnp.where(on, 0, -1), 1)

    def dense(self, values: jax.Array, width: int | None = None) -> None:
        """The entries ``values`` (flattened, converted to float32), then zeros up to ``width``."""
        values = jnp.asarray(values).reshape(-1)
        start = self._block(np.zeros(values.shape[0] if width is None else width, np.float32))
        self._indices.append(start + jnp.arange(values.shape[0], dtype=jnp.int32))
        self._values.append(values.astype(jnp.float32))

    def entries_at(self, offsets: jax.Array, values: jax.Array, width: int) -> None:
        """A block of ``width`` zeros with ``values`` written at ``offsets`` within it (1-D both,
        offsets distinct and in range; the caller's layout, e.g. rows placed by seat)."""
        start = self._block(np.zeros(width, np.float32))
        self._indices.append(start + jnp.asarray(offsets, jnp.int32).reshape(-1))
        self._values.append(jnp.asarray(values).reshape(-1).astype(jnp.float32))

    def rows_at(self, rows: jax.Array, slots: jax.Array, num_slots: int) -> None:
        """A block of ``num_slots`` rows of ``rows.shape[1]`` entries, zeros but for row ``i`` of
        ``rows`` written as block row ``slots[i]`` (``slots`` distinct, in range). For blocks
        ordered from the observer's seat: each seat's row goes to its place in the order, so the
        rows need no reordering (one-hot sums that cost Haste Bock?'s 4-player step 5%, session 35)."""
        rows = jnp.asarray(rows)
        width = rows.shape[1]
        at = width * jnp.asarray(slots, jnp.int32)[:, None] + jnp.arange(width, dtype=jnp.int32)[None, :]
        self.entries_at(at, rows, num_slots * width)

    def constant(self, values: np.ndarray) -> None:
        """Entries that are the same in every state (part of the base: no write)."""
        self._block(np.asarray(values, np.float32).reshape(-1))

    def build(self) -> jax.Array:
        """float32 (size,): the base with every appended entry written."""
        base = jnp.asarray(np.concatenate(self._base) if self._base else np.zeros(0, np.float32))
        if not self._indices:
            return base
        return base.at[jnp.concatenate(self._indices)].set(jnp.concatenate(self._values), mode="drop",
                                                           unique_indices=True)


# ---- the engine base --------------------------------------------------------------------------------
class MeadowJaxEnv(pgx.core.Env):
    """Base class of the meadowzoo JAX engines (see the module docstring for what to implement)."""

    #: registry name of the game (``meadowzoo.envs.registry.GAMES``)
    game: str = ""
    #: (planes, rows, cols) when the observation begins with board planes (row-major, plane by
    #: plane), which a network may read with convolutions (the trainer's ``conv`` setting); None
    #: for games without such a board
    board_shape: tuple[int, int, int] | None = None

    def __init__(self, **options: Any) -> None:
        super().__init__()
        options = dict(options)
        #: how a ``max_turns`` cut is scored, as the PettingZoo env's option: "draw" (0 for
        #: everybody) or "standing" (:meth:`standing_rewards` in the cutting step); see :meth:`step`
        self.truncation_scoring = check_truncation_scoring(options.pop("truncation_scoring", "draw"))
        self.options = self._check_options(options)
        if self.truncation_scoring != "draw":  # the reference env gets it too; the default stays implicit
            self.options["truncation_scoring"] = self.truncation_scoring

    # ---- hooks ------------------------------------------------------------------------------------
    def _check_options(self, options: dict[str, Any]) -> dict[str, Any]:  # pragma: no cover - abstract
        """Validate the options; ``ValueError`` for an unknown or unsupported one."""
        raise NotImplementedError

    def reference_env(self):  # pragma: no cover - abstract
        """A fresh PettingZoo ``raw_env`` with the same rules (the reference engine)."""
        raise NotImplementedError

    def to_game_dict(self, state) -> dict:  # pragma: no cover - abstract
        """The reference game's ``to_dict()`` of an unbatched state, without ``rng``."""
        raise NotImplementedError

    def from_game(self, game):  # pragma: no cover - abstract
        """The JAX state (unbatched) of a reference game object."""
        raise NotImplementedError

    def scores(self, state) -> jax.Array:  # pragma: no cover - abstract
        """Every player's points as if the game ended now (int32, ``(num_players,)``); places
        and rewards follow from them (:func:`places`, :func:`rank_rewards`)."""
        raise NotImplementedError

    def final_places(self, state) -> jax.Array:
        """Per-player final places (0 = best), as the reference game's ``places()``; by default
        from :meth:`scores` (:func:`places`). Games whose places are not a ranking of players'
        scores (teams sharing a place) override it."""
        return places(self.scores(state))

    def standing_rewards(self, state) -> jax.Array:
        """Rank rewards (float32, ``(num_players,)``) of the standing now, as the PettingZoo env's
        ``truncation_scoring="standing"`` gives at a cut (:func:`meadowzoo.envs.core.standing.standing_rewards`):
        by default the rank rewards of :meth:`final_places` as if the game ended now. Games whose
        standing is not their final ranking (a race) or that have teams override it."""
        return rank_rewards(-self.final_places(state))

    def feed_chance(self, game, key: jax.Array) -> None:  # pragma: no cover - abstract
        """Make the reference ``game`` draw the chance outcomes ``step(..., key)`` draws."""
        raise NotImplementedError

    def resample_hidden(self, state, observer, key: jax.Array):
        """A state that ``observer`` cannot tell from ``state``: everything it cannot see redrawn
        from ``key``, consistently with what it has seen, as the reference game's
        ``resample_hidden`` redraws it (the same distribution, not the same draws). The result
        depends only on what ``observer`` knows and on ``key``, never on the true hidden values
        (hidden cards are put in a canonical order before they are shuffled), so a search that
        plays on it (determinization, :mod:`meadowzoo.agents.gumbel_search`) decides the same whatever the
        hidden truth. Future chance needs no redraw: a step draws it from its own key. One game's
        state (``jax.vmap`` it for a batch; ``observer`` may be traced); the observation field is
        recomputed for the player to move. This default, for games that keep nothing hidden in
        the state (Haste Bock?: only its future dice are unknown), returns ``state`` unchanged."""
        del observer, key
        return state

    # ---- Pgx interface ----------------------------------------------------------------------------
    def step(self, state, action, key=None):
        """As ``pgx.Env.step``; ``key`` is required (it carries the step's chance, as in Pgx's
        stochastic games). An illegal action ends the game with −1 for the mover (Pgx's rule).
        With ``truncation_scoring="standing"`` the step that reaches ``max_turns`` gives every
        player :meth:`standing_rewards`, as the PettingZoo env does; with "draw", zero."""
        if key is None:
            raise ValueError(f"{type(self).__name__}.step needs a key: step(state, action, key) (the dice come from it)")
        stepped = self._pgx_step(state, action, key)
        if self.truncation_scoring == "standing":  # the step that cuts the game pays the standing
            cut = stepped.truncated & ~stepped.terminated & ~(state.terminated | state.truncated)
            stepped = stepped.replace(rewards=jnp.where(cut, self.standing_rewards(stepped), stepped.rewards))
        return stepped

    def _pgx_step(self, state, action, key):
        """``pgx.Env.step`` with its three ``lax.cond`` written as selects (:func:`select_tree`).
        Same results; the reason is speed under ``vmap``: a ``cond`` whose predicate is batched
        becomes a select of both branches, but first every operand of the branches is broadcast
        to the batch, the constant tables the engine's ``_step`` closes over included (Hase und
        Igel's 2,081-entry reach table became an 8 MB copy per step at batch 1024), and the
        branches then gather from those copies. The step of a finished game is computed and
        dropped, as under a batched ``cond``."""
        # an index outside 0..num_actions-1 is illegal too: a traced lookup would wrap (-1) or clamp it
        # to a legal action, and the engine's step would apply what no mask allows
        # (the engine steps with the clipped index, an action of its domain, and the result is dropped)
        action = jnp.asarray(action)
        size = state.legal_action_mask.shape[-1]
        in_range = (action >= 0) & (action < size)
        action = jnp.clip(action, 0, size - 1)
        current_player = state.current_player
        finished = state.terminated | state.truncated
        # a finished game's mask is all true (Pgx), so only an index out of range is illegal there;
        # Pgx's step would leave that game as it is, and so does this
        is_illegal = ~(in_range & state.legal_action_mask[action]) & ~finished
        stepped = self._step(state.replace(_step_count=state._step_count + 1), action, key)
        state = select_tree(finished, state.replace(rewards=jnp.zeros_like(state.rewards)), stepped)
        state = select_tree(is_illegal, self._step_with_illegal_action(state, current_player), state)
        # Pgx: every action is "legal" once the game is over (no division by zero in a policy)
        state = state.replace(legal_action_mask=state.legal_action_mask | state.terminated)
        return state.replace(observation=jax.lax.stop_gradient(self._observe(state, state.current_player)))

    def observe_player(self, state, player) -> jax.Array:
        """Observation of ``player`` (any seat, not only the one to move); as the PettingZoo
        env's ``observe(f"player_{player}")["observation"]``."""
        return jax.lax.stop_gradient(self._observe(state, jnp.asarray(player, jnp.int32)))

    def observe_all(self, state) -> jax.Array:
        """Every player's observation, ``(num_players, observation size)``."""
        return jax.vmap(lambda p: self.observe_player(state, p))(jnp.arange(self.num_players, dtype=jnp.int32))

    # ---- conversion -------------------------------------------------------------------------------
    def to_snapshot(self, state, seed: int = 0) -> dict:
        """The PettingZoo env's ``snapshot()`` of an unbatched state (``raw_env.restore`` takes
        it). The reference's generator is PCG64 seeded with ``seed`` (chance does not transfer,
        see the module docstring); ``last_action`` is ``None``; once the game has ended or been cut
        the cumulative rewards are the rules' final rewards (or the standing's), as the env's right
        after the last move, whatever later no-op steps left in ``state.rewards``. A game ended by
        an illegal action (Pgx's rule, not the game's) has no snapshot: ``ValueError``."""
        state = jax.device_get(state)
        if np.ndim(state.terminated) != 0:
            raise ValueError(f"to_snapshot takes one game's state, got a batch of shape {np.shape(state.terminated)} "
                             "(index it first, e.g. jax.tree.map(lambda x: x[i], states))")
        game = self.to_game_dict(state)
        game["rng"] = np.random.default_rng(seed).bit_generator.state
        reference = self._reference_template()
        agents = list(reference.possible_agents)
        illegal_end = ValueError("to_snapshot: this game was ended by an illegal action (Pgx's rule: −1 for the "
                                 "mover), not by the rules, so no PettingZoo env state matches it")
        try:  # Pgx's step applies an illegal action before it ends the game: the state may be no game at all
            rules_game = reference._restored_game(game, SNAPSHOT_VERSION)
        except ValueError as error:
            if bool(state.terminated):
                raise illegal_end from error
            raise
        if bool(state.terminated) and not rules_game.is_over and rules_game.turn < reference.max_turns:
            raise illegal_end
        rewards = reference.expected_rewards(rules_game, agents, reference.max_turns, reference.truncation_scoring)
        return reference.snapshot_of(game, agents, rewards)

    def from_snapshot(self, snapshot: dict):
        """The JAX state of a PettingZoo env ``snapshot()`` (validated by the env's ``restore``:
        a malformed snapshot or one of other options raises ``ValueError``)."""
        reference = self.reference_env()
        reference.restore(snapshot)
        return self.from_game(reference.game)

    def _reference_template(self):
        if getattr(self, "_template", None) is None:
            self._template = self.reference_env()
        return self._template

    # ---- Pgx properties ---------------------------------------------------------------------------
    @property
    def version(self) -> str:
        return "v0"
