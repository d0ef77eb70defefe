"""
# Haste Bock? in JAX

A batched, jit-compiled twin of the PettingZoo env :mod:`meadowzoo.envs.haste_bock.env` (its
module docstring is the specification; rules HB-1 … HB-24 in ``docs/rules/haste_bock.md``). It
implements :class:`pgx.Env`: ``init(key)``, ``step(state, action, key)``, ``observe`` and the
legal-action mask, with no Python control flow on traced values, so ``jax.jit`` and ``jax.vmap``
apply on CPU and GPU.

| Creation           | `meadowzoo.jax.make("haste_bock", num_players=4)`                  |
|--------------------|--------------------------------------------------------------------|
| Players            | 2, 3 or 4; seat *i* plays colour *i*; `current_player` = seat to decide (-1 once over) |
| Actions            | 996 indices, IDENTICAL to the PettingZoo env's (card, discard, moves, panic rams, time tiles) |
| Observation        | float32 (1036,), IDENTICAL to the PettingZoo env's `observation` for every seat |
| Legal mask         | bool (996,), the env's `action_mask` of the player to decide (all True once over, as Pgx does) |
| Rewards            | at the end, by rank (score, then unused card values; ties share): +1 … −1; 0 before; on a `max_turns` cut 0, or with `truncation_scoring="standing"` the rank rewards of that ranking |

### State (`State`, a pgx dataclass; every field an int32 array unless noted)

Besides pgx's `current_player`, `observation`, `rewards` (float32 (n,)), `terminated`,
`truncated`, `legal_action_mask` and `_step_count`, the game lives in the fields of
:meth:`HasteBockGame.to_dict` of the reference engine:

| field | shape | meaning |
|-------|-------|---------|
| `pos` | (9,) | square (row*9+col) of each sheep: `2c`, `2c+1` colour c (blue, yellow, green, red), 8 Thea |
| `facing` | () | common facing 0..3 = N E S W |
| `time` | () | time marker 0..74 |
| `scores` | (n,) | scores so far (the reference game's `points`, its `to_dict()` key `scores`) |
| `hands` | (n, 21) | remaining action cards per kind (kind = type*3 + value-1) |
| `tiles` | (n, 3) | remaining time tiles of value 1, 2, 3 |
| `pending` | () | decision: 0 card, 1 move, 2 time tile, 3 panic ram, 4 over (the index into the rules' `DECISIONS`; `to_game_dict` gives the name) |
| `player` | () | seat to decide, -1 once over |
| `die` | () | die face during a panic ram (blue, yellow, green, red, black, white), else -1 |
| `opening` | () | how many opening rolls (HB-8: seats 0..n-1; 2 players 0 1 0 1) have been taken |
| `card_value`, `card_kind` | () | the card chosen this turn while its move or tile is pending (0 / -1 otherwise) |
| `no_trough`, `no_herd` | () | no-undo restrictions of the player to move (HB-16, HB-17), -1 if none |
| `after_trough`, `after_herd` | () | the restrictions the current turn leaves for the next player |
| `turn` | () | player turns begun (the reference engine's `turn`; `max_turns` truncates) |

`to_game_dict(state)` is the reference engine's ``HasteBockGame.to_dict()`` (without ``rng``) and
`from_game(game)` builds a state from a reference game; with the core these give
`to_snapshot(state)` / `from_snapshot(snapshot)` for the PettingZoo env's ``snapshot()`` and
``restore()`` (:mod:`meadowzoo.envs.core.jax_core`).

### Chance

The only chance is the start layout (one of the 48 valid ones, HB-3, unless `layout="fixed"`) and
the die of panic rams (HB-6, HB-8, HB-9), drawn with the core's chance stream
(:mod:`meadowzoo.envs.core.jax_core`). `init(key)` draws the layout index from the first uniform
and the opening dice from the next ones; the reference receives the set-up through the state
(`to_snapshot`). `step(state, action, key)` draws `MAX_ROLLS` = 4 uniforms; the k-th die roll made
inside the step (the opening goes on over void rolls, HB-8, so one step may roll up to four times;
a panic space, HB-9, rolls once) is `(u[k] * 6) >> 24`, exactly what the reference engine's
``rng.integers(6)`` returns when `feed_chance` hands it the same stream.

### How the mask and the moves are computed

From the precomputed tables of :mod:`meadowzoo.envs.haste_bock.jax_tables` (built from the
reference engine's geometry), by gathers, comparisons and selects only: the occupancy of each
sheep's eight rays as 8-bit masks (from the row and column differences of every pair of sheep),
the legal ram targets, leaps and panic rams by bit operations on those masks (what
``jax_tables.JUMP_TABLE`` tabulates), caravan lines from a square-to-line table, troughs from
9-bit row masks of the flock, steps from the neighbour table. Every
candidate move of an action is computed and the one of its card type selected; a turn's rolls
(the opening over void rolls, a panic space) are unrolled to `MAX_ROLLS`.

### Speed

Random play with pgx's ``auto_reset`` at batch 1024 on the CPU (a session-9 timing script, not kept;
ns per game-step of the full loop: auto_reset step + init + observation + random legal action;
pgx connect_four in the same run as the load reference). Under ``vmap`` every gather with a
traced index is a serial loop per element, and auto_reset runs ``init`` (both ``cond`` branches)
for every game at every step, so session 9 cut both:

* **init is a table lookup.** The set-up's outcome is one of few: the layout (48) and which
  opening roll first allows a ram, with its die (at every start layout every face does, so in
  practice the first roll). :meth:`HasteBockJax._init_table` runs the computed init
  (:meth:`HasteBockJax._init_computed`, the former ``_init``) once per engine on one
  representative set-up of every outcome; ``init`` only hashes the key, finds its row and
  gathers the fields that differ between rows (squares, die, mask, observation) — no second
  observation (``init`` overrides pgx's, which would recompute it). init alone: about 9,000 ->
  3,400 ns/game (4p, loaded machine).
* **Ray occupancy and jumps without gathers.** ``_ray_bits`` summed an 81-row pair table
  (81 row gathers per game) and ``_jumps`` looked up 72 entries of a (length, occupancy) table;
  both are now elementwise arithmetic on rows and columns and a bit-rank loop unrolled over the 8
  ray squares (identical: checked against the tables on 250,000 random flocks).
* **Ray occupancy per pair, not per pair and direction** (session 31). Summed as a (9, 9, 8)
  array over the other sheep, the ray masks compiled into one XLA loop that recomputed each
  pair's rows, columns and distance for every direction: a fifth of the step's kernel time.
  Each pair now sets one bit of one of two 32-bit words (four directions × eight squares
  each), and the words are cut into bytes: the whole random-play step 1.6× (2p) and 1.55× (4p)
  faster over two CPU devices, the same masks (``test_ray_bits_equal_the_pair_table_on_random_flocks_hb13_hb14``).
* **Jumps looked up again** (session 35). Once the ray masks were cheap, the bit-rank loop of
  ``_jumps`` (a population count per ray square, 72 rays a game) cost about 12% of the step; two
  scalar gathers per ray (the ray's length, then ``T.JUMP_TABLE``) made the whole random-play
  step 1.09x faster over two CPU devices, the same games. A gather of one element per ray is
  cheap on the CPU; gathers of several table rows per game (the pair table) are not.
* **The observation written sparsely** (session 32). Its 1,036 entries are nearly all zero (nine
  one-square sheep planes, one-hot blocks, a few dozen counts); :class:`SparseObservation` writes
  a constant base and scatters the nonzero entries in one operation, where a comparison kernel per
  block and a concatenate had cost 28% of the step: ×1.14. No variadic reduces either (``argmax``
  and ``jnp.select`` are slow on XLA's CPU), and the trough sides come from row bit masks.

Figures (ns/game-step, full, batch 1024; one run on the shared, loaded 2-core machine, load
average 5.5; old = commit 5577c2a): 4 players 25,983 -> 21,123 (1.23x), 2 players 24,393 ->
19,535 (1.25x); connect_four 1,999 right after the 4-player pair and 3,311 after the 2-player pair,
so these are rough. Short of the 2x that issue #17/#18's 20x-raw_env target needs.
The moves of ``_moved`` and the mask gather from square-indexed tables (``RAY_POS``,
``CARAVAN_NEXT``, ``LINE_MASK``, the side tables): one lookup per sheep from a constant table,
which is cheap on the CPU (session 35 measured selects and per-game ray reads instead: no gain).
Later sessions' changes and their figures: ``docs/jax.md`` ("Session 31" on).

### Hidden information

None besides future die rolls: the cards lie open. The state holds no generator; a player's
observation is a function of the public fields above.

### Options

`num_players` (2, 3, 4), `layout` (`"random"`, `"fixed"`), `facing` (`"N"`, `"E"`, `"S"`, `"W"`),
`phase2_rows` (`"occupied"`, `"consecutive"`), `rule_data` (the RECONSTRUCTED table of
:mod:`meadowzoo.envs.haste_bock.data`: cards, panic spaces, tiles, tile penalty) and `max_turns`
(default 1000) and `truncation_scoring` are all supported with the reference engine's meaning; anything else raises
`ValueError`. They are static: each option set compiles its own program.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pgx.core as core
from pgx._src.struct import dataclass

from meadowzoo.envs.core.jax_core import (
    MeadowJaxEnv, SparseObservation, StreamRandom, chance_stream, host_stream, rank_rewards, stream_int,
)
from meadowzoo.envs.core.jax_rows import rows_cond
from meadowzoo.envs.haste_bock import data as D
from meadowzoo.envs.haste_bock import env as E
from meadowzoo.envs.haste_bock import jax_tables as T
from meadowzoo.envs.haste_bock.rules import (
    CARD, DECISIONS, MOVE, MOVE_BASE, NUM_ACTIONS, NUM_KINDS, OVER, PANIC, PANIC_BASE, TILE, TILE_BASE,
    HasteBockGame, check_config,
)
from meadowzoo.envs.haste_bock.observation import sheep_plane

MAX_ROLLS = 4  # the most die rolls inside one init or step (the opening, HB-8)
NUM_LAYOUTS = len(D.START_LAYOUTS)
ENV_ID = "haste_bock"
OPTION_DEFAULTS: dict[str, Any] = {**E.OPTION_DEFAULTS, "max_turns": 1000}

i32 = jnp.int32
#: the score feature score / 50 as the numpy env rounds it, looked up: XLA on the CPU divides by
#: multiplying with the reciprocal, which differs in the last bit for a third of the scores
SCORE_BOUND = 1000  # the reference engine's snapshot bound on scores
SCORE_FEATURE = (np.arange(-SCORE_BOUND, SCORE_BOUND + 1) / E.SCORE_SCALE).astype(np.float32)


def step_dice(key: jax.Array) -> jax.Array:
    """The die faces 0..5 of the rolls one ``step`` may make, in roll order (the core's chance
    stream: one uniform per roll, as the reference engine's ``rng.integers(6)`` per roll)."""
    return stream_int(chance_stream(key, MAX_ROLLS), len(D.DIE_FACES))


def init_chance(key: jax.Array) -> tuple[jax.Array, jax.Array]:
    """The set-up: (start layout index 0..47, the dice of the opening rolls made in ``init``)."""
    u = chance_stream(key, 1 + MAX_ROLLS)
    return stream_int(u[0], NUM_LAYOUTS), stream_int(u[1:], len(D.DIE_FACES))


@dataclass
class State(core.State):
    current_player: jax.Array = i32(0)
    observation: jax.Array = jnp.zeros(E.OBS_SIZE, jnp.float32)
    rewards: jax.Array = jnp.zeros(4, jnp.float32)
    terminated: jax.Array = jnp.bool_(False)
    truncated: jax.Array = jnp.bool_(False)
    legal_action_mask: jax.Array = jnp.zeros(NUM_ACTIONS, jnp.bool_)
    _step_count: jax.Array = i32(0)
    pos: jax.Array = jnp.zeros(D.NUM_SHEEP, i32)
    facing: jax.Array = i32(0)
    time: jax.Array = i32(0)
    scores: jax.Array = jnp.zeros(4, i32)
    hands: jax.Array = jnp.zeros((4, NUM_KINDS), i32)
    tiles: jax.Array = jnp.zeros((4, 3), i32)
    pending: jax.Array = i32(CARD)
    player: jax.Array = i32(0)
    die: jax.Array = i32(-1)
    opening: jax.Array = i32(0)
    card_value: jax.Array = i32(0)
    card_kind: jax.Array = i32(-1)
    no_trough: jax.Array = i32(-1)
    no_herd: jax.Array = i32(-1)
    after_trough: jax.Array = i32(-1)
    after_herd: jax.Array = i32(-1)
    turn: jax.Array = i32(0)

    @property
    def env_id(self) -> str:
        return ENV_ID


#: the fields of the reference engine's ``to_dict`` that are plain integers
SCALAR_FIELDS = (
    "facing", "time", "pending", "player", "die", "card_value", "card_kind", "no_trough", "no_herd",
    "after_trough", "after_herd", "turn",
)


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    """Merge ``options`` over the defaults and validate them as the PettingZoo env does."""
    unknown = set(options) - set(OPTION_DEFAULTS)
    if unknown:
        known = sorted([*OPTION_DEFAULTS, "truncation_scoring"])  # the shared core takes truncation_scoring first
        raise ValueError(f"unknown options {sorted(unknown)} for the Haste Bock? JAX engine; known: {known}")
    merged = {**OPTION_DEFAULTS, **options}
    max_turns = merged["max_turns"]
    if isinstance(max_turns, bool) or not isinstance(max_turns, (int, np.integer)) or max_turns < 1:
        raise ValueError(f"max_turns must be a positive integer, got {max_turns!r}")
    merged["max_turns"] = int(max_turns)
    merged["rule_data"] = D.check_rule_data(merged["rule_data"])
    _probe(merged)  # the reference constructor validates the rest, with the same messages
    return merged


def _probe(options: dict[str, Any]) -> HasteBockGame:
    """An unstarted reference game of these options (its tables: hands, tiles, owners …): the
    reference ``check_config`` validates the options with its own messages (the layout included,
    which ``_empty`` does not take), then ``_empty`` deals without placing or rolling."""
    check_config(options["num_players"], options["layout"], options["facing"], options["phase2_rows"])
    return HasteBockGame._empty(
        options["num_players"], np.random.default_rng(0), facing=options["facing"],
        rule_data=options["rule_data"], phase2_rows=options["phase2_rows"],
    )


def _set(values: jax.Array, index: jax.Array, value: jax.Array) -> jax.Array:
    """``values.at[index].set(value)`` as a select: under ``vmap`` a scatter costs far more."""
    return jnp.where(jnp.arange(values.shape[0]) == index, value, values)


def _hot2(shape: tuple[int, int], row: jax.Array, col: jax.Array, on: jax.Array) -> jax.Array:
    """int32 ``shape``: 1 at (row, col) when ``on``, else all 0."""
    return ((jnp.arange(shape[0])[:, None] == row) & (jnp.arange(shape[1])[None, :] == col) & on).astype(i32)


class HasteBockJax(MeadowJaxEnv):
    """The Haste Bock? JAX engine (see the module docstring); options as the PettingZoo env's."""

    game = ENV_ID

    def __init__(self, **options: Any):
        super().__init__(**options)
        o = self.options
        probe = _probe(o)
        n = self.n = o["num_players"]
        self.max_turns = o["max_turns"]
        self.fixed_layout = o["layout"] == "fixed"
        self.consecutive = o["phase2_rows"] == "consecutive"
        self.start_facing = probe.facing
        self.start_hand = np.array(probe.start_hand, np.int32)
        self.start_tiles = np.array(probe.start_tiles, np.int32)
        self.tile_mandatory = probe.tile_mandatory
        self.penalty = o["rule_data"]["unused_tile_penalty"] if n == 3 else 0
        self.panic_space = np.zeros(D.TRACK_END + 1, bool)
        self.panic_space[sorted(probe.panic_spaces)] = True
        self.opening_seq = np.array(probe.opening, np.int32)
        #: owner[p, s]: 1 if sheep s belongs to seat p (HB-2)
        self.owner = np.array([[1 if probe.owner[s] == p else 0 for s in range(D.NUM_SHEEP)] for p in range(n)], np.int32)
        # observation tables, from the PettingZoo env's own layout
        planes = [[sheep_plane(s, probe.owner[s], seat, n) for s in range(D.NUM_SHEEP)] for seat in range(n)]
        #: plane_sheep[seat, plane]: the sheep shown on each plane for that observer
        self.plane_sheep = np.argsort(np.array(planes), axis=1).astype(np.int32)
        template = np.zeros(E.OBS_SIZE, np.float32)
        template[[E.PANIC_TRACK + t for t in sorted(probe.panic_spaces)]] = 1.0
        template[E.PLAYERS + n - 2] = 1.0
        self.template = template
        self.card_values = np.tile(np.arange(1, 4, dtype=np.int32), 7)
        #: the most games of a batch (as a share) whose final rewards are ranked alone
        #: (:meth:`_final_rewards`): random play ends 1.2–1.6% of a batch's games a step (one in
        #: 62 steps a game at 2 players, 83 at 4), at most 8–13% in a step while a batch that
        #: began together still ends together; above the share every game is ranked (a select)
        self.end_share = 1 / 16

    def _check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        return check_options(options)

    def reference_env(self):
        o = self.options
        return E.HasteBockEnv(max_turns=o["max_turns"], **{k: v for k, v in o.items() if k != "max_turns"})

    # ---- pgx interface ---------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return ENV_ID

    @property
    def num_players(self) -> int:
        return self.n

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (E.OBS_SIZE,)

    #: the observation's first block: 9 sheep planes of the 9 × 9 pasture (env.py's table)
    board_shape = (9, 9, 9)

    def init(self, key: jax.Array) -> State:
        """As ``pgx.Env.init``, without its second observation: the table row holds it already."""
        return self._init(key)

    def _init(self, key: jax.Array) -> State:
        """The start state, looked up (see Speed): the set-up's outcome is one of few, so the
        start states (observation and mask included) are precomputed by :meth:`_init_computed`
        and a game only finds its row: which opening roll first allows a ram, and its die."""
        layout, dice = init_chance(key)
        if self.fixed_layout:
            layout = i32(T.FIXED_LAYOUT_INDEX)
        varying, constant, ok, rolls = self._init_table()
        # ok_k: the k-th opening roll allows a ram (a gather from the (layout, face) table; a
        # one-hot "any" over its 288 entries was a reduction XLA's CPU compiler splits into an
        # unfused reduce-window and reduce, 10% of the step: session 31)
        oks = [jnp.asarray(ok)[layout * len(D.DIE_FACES) + dice[k]] for k in range(rolls)]
        none = i32(rolls * len(D.DIE_FACES))
        entry = none
        for k in reversed(range(rolls)):  # the first roll that allows a ram wins
            entry = jnp.where(oks[k], k * len(D.DIE_FACES) + dice[k], entry)
        entry = layout * (none + 1) + entry
        fields = {name: jnp.asarray(table)[entry] for name, table in varying.items()}
        return constant.replace(**fields)

    def _init_table(self):
        """(rows of the start-state fields that vary, the start state with the rest, ok table
        (layout*6 + face: that roll allows a ram), rolls in the opening); built once per engine
        by running :meth:`_init_computed` on one representative set-up of each outcome."""
        if getattr(self, "_init_rows", None) is None:
            with jax.ensure_compile_time_eval():
                self._init_rows = self._build_init_table()
        return self._init_rows

    def _build_init_table(self):
        faces, rolls = len(D.DIE_FACES), min(len(self.opening_seq), MAX_ROLLS)
        starts = jnp.asarray(T.START_LAYOUTS)
        can_ram = jax.jit(jax.vmap(lambda pos: jnp.any(self._jumps(pos, self._ray_bits(pos)) != 0, axis=1)))(starts)
        ok = np.asarray(jnp.any(jnp.asarray(T.RAMMERS)[None, :, :] & can_ram[:, None, :], axis=-1))  # (48, 6)
        layouts, dice = [], []
        for layout in range(NUM_LAYOUTS):
            bad = [f for f in range(faces) if not ok[layout, f]] or [0]  # rows never reached if empty
            for k in range(rolls):
                for face in range(faces):
                    layouts.append(layout)
                    dice.append([bad[0]] * k + [face] * (MAX_ROLLS - k))
            layouts.append(layout)
            dice.append([bad[0]] * MAX_ROLLS)  # no roll allows a ram
        rows = jax.jit(jax.vmap(self._init_computed))(jnp.asarray(layouts, i32), jnp.asarray(dice, i32))
        rows = jax.device_get(rows)
        first = jax.tree_util.tree_map(lambda leaf: leaf[0], rows)
        varying = {
            f.name: np.asarray(getattr(rows, f.name)) for f in dataclasses.fields(rows)
            if not np.all(np.asarray(getattr(rows, f.name)) == np.asarray(getattr(first, f.name)))
        }
        constant = jax.tree_util.tree_map(jnp.asarray, first)
        return varying, constant, ok.reshape(-1), rolls

    def _init_computed(self, layout: jax.Array, dice: jax.Array) -> State:
        """The start state of a layout and the opening's dice, computed (the table's source)."""
        n = self.n
        state = State(
            rewards=jnp.zeros(n, jnp.float32),
            pos=jnp.asarray(T.START_LAYOUTS)[layout],
            facing=i32(self.start_facing),
            scores=jnp.zeros(n, i32),
            hands=jnp.tile(jnp.asarray(self.start_hand), (n, 1)),
            tiles=jnp.tile(jnp.asarray(self.start_tiles), (n, 1)),
        )
        state = self._settle(state, dice, opening=jnp.bool_(True), single_roll=jnp.bool_(False), next_turn=jnp.bool_(False))
        return state.replace(observation=self._observe(state, state.current_player))

    def _step(self, state: State, action: jax.Array, key: jax.Array) -> State:
        return self._apply(state, jnp.asarray(action, i32), step_dice(key))

    def _observe(self, state: State, player_id: jax.Array) -> jax.Array:
        """float32 (1036,): the PettingZoo env's observation of seat ``player_id`` (see env.py).
        Written as zeros plus its few nonzero entries (:class:`SparseObservation`)."""
        return self._observation(state, player_id)

    # ---- legal moves -----------------------------------------------------------------------------
    @staticmethod
    def _ray_bits(pos: jax.Array) -> jax.Array:
        """int32 (9, 8): the occupied squares on each sheep's ray towards each direction as a bit
        mask, bit i = the i-th square from the sheep. Per pair of sheep, from their row and column
        differences (elementwise: no table gathers, which under ``vmap`` on the CPU cost one serial
        lookup per pair): the other sheep's direction ``d`` (of ``D.DIRS``) and distance give one
        bit, ``8·(d mod 4) + distance − 1``, of one of two 32-bit words (directions N..SE, S..NW);
        each word sums over the other sheep (distinct bits, so the sum is their OR) and is cut
        into four bytes. Summing a (9, 9, 8) array instead cost XLA's CPU compiler a fused loop
        that recomputed the pair for every direction: 1.6x the whole step (session 31)."""
        row, col = pos // D.SIZE, pos % D.SIZE
        dr, dc = row[None, :] - row[:, None], col[None, :] - col[:, None]  # [sheep, other]
        dist = jnp.maximum(jnp.abs(dr), jnp.abs(dc))
        on = ((dr == 0) | (dc == 0) | (jnp.abs(dr) == jnp.abs(dc))) & (dist > 0)
        # the index in D.DIRS (N NE E SE S SW W NW) of the direction from the signs
        d = jnp.where(dr < 0, jnp.where(dc < 0, 7, jnp.where(dc == 0, 0, 1)),
                      jnp.where(dr == 0, jnp.where(dc > 0, 2, 6), jnp.where(dc > 0, 3, jnp.where(dc == 0, 4, 5))))
        bit = jnp.left_shift(jnp.uint32(1), (8 * (d % 4) + jnp.maximum(dist - 1, 0)).astype(jnp.uint32))
        words = [jnp.where(on & (d // 4 == half), bit, jnp.uint32(0)).sum(1, dtype=jnp.uint32) for half in (0, 1)]
        shifts = jnp.asarray(np.array([0, 8, 16, 24], np.uint32))
        return jnp.concatenate([(word[:, None] >> shifts) & 0xFF for word in words], axis=1).astype(i32)

    @staticmethod
    def _jumps(pos: jax.Array, bits: jax.Array) -> jax.Array:
        """int32 (9, 8): [sheep, dir] bit k-1 = whether the k-th sheep on the ray from the sheep has
        an empty square behind it on the board: the legal ram targets (HB-13), leaps (HB-14) and
        panic rams (HB-8, HB-9) of that sheep (:meth:`_jump_flags` expands them). Looked up in
        ``T.JUMP_TABLE`` by the ray's length (``T.RAY_LENGTH256``) and its occupancy mask: two
        scalar gathers per ray, 1.09x the whole random-play step over the bit-rank loop that
        computed the same (a population count per ray square; session 35)."""
        return jnp.asarray(T.JUMP_TABLE)[jnp.asarray(T.RAY_LENGTH256)[pos] + bits]

    @staticmethod
    def _jump_flags(words: jax.Array) -> jax.Array:
        """bool (9, 8, 8): the bits of :meth:`_jumps`' words, k-th sheep on the ray last."""
        return ((words[..., None] >> jnp.arange(T.RAY_LEN, dtype=i32)) & 1).astype(jnp.bool_)

    @staticmethod
    def _caravans(pos: jax.Array) -> jax.Array:
        """bool (96,): caravan move line*2+neg is legal when the line holds a sheep and its lead
        square that way is empty (HB-15)."""
        line_occupied = jnp.any(jnp.asarray(T.LINE_MASK)[pos], axis=0)
        end_occupied = jnp.any(jnp.asarray(T.CARAVAN_END)[:, None] == pos[None, :], axis=1)
        return jnp.repeat(line_occupied, 2) & ~end_occupied

    @staticmethod
    def _troughs(pos: jax.Array, no_trough: jax.Array) -> jax.Array:
        """bool (4,): trough sides N E S W that move a sheep and are not forbidden (HB-16): some
        sheep beyond the flock's outermost line that way has an empty neighbour that way. On the
        rows of the pasture as 9-bit masks (bit c: column c occupied), built from the sheep's
        squares: a handful of integer operations per row, where comparisons over the 81 squares
        made one of the step's costliest kernels (session 32)."""
        row, col = pos // D.SIZE, pos % D.SIZE
        rows = jnp.arange(D.SIZE, dtype=i32)
        on_board = pos < D.SQUARES
        grid = jnp.sum(jnp.where((row[None, :] == rows[:, None]) & on_board[None, :], jnp.left_shift(1, col)[None, :], 0),
                       axis=1, dtype=i32)  # (9,) distinct squares: the sum is the union
        filled = grid != 0
        top = jnp.min(jnp.where(filled, rows, D.SIZE))
        bottom = jnp.max(jnp.where(filled, rows, -1))
        cols = jax.lax.reduce(grid, i32(0), jax.lax.bitwise_or, (0,))  # occupied columns
        left = jax.lax.population_count((cols & -cols) - 1)  # lowest occupied column
        right = 31 - jax.lax.clz(cols)  # highest occupied column
        full = (1 << D.SIZE) - 1
        north = jnp.any(((grid[1:] & ~grid[:-1]) != 0) & (rows[1:] > top))
        south = jnp.any(((grid[:-1] & ~grid[1:]) != 0) & (rows[:-1] < bottom))
        # columns c < right with a sheep whose east neighbour c + 1 is empty; west: c > left, c - 1 empty
        east = jnp.any((grid & ~(grid >> 1) & ((1 << right) - 1)) != 0)
        west = jnp.any((grid & ~(grid << 1) & full & ~((2 << left) - 1)) != 0)
        return jnp.stack([north, east, south, west]) & (jnp.arange(4) != no_trough)

    def _mask(self, state: State, jump_words: jax.Array) -> jax.Array:
        """bool (996,): the legal actions of the decision pending in ``state`` (``jump_words``:
        :meth:`_jumps` of its flock)."""
        p = jnp.maximum(state.player, 0)
        own = jnp.stack([2 * p, 2 * p + 1])
        step_to = jnp.asarray(T.STEP_SQ)[state.pos[own]]  # (2, 8)
        steps = ((step_to != T.OFF) & ~jnp.any(step_to[..., None] == state.pos, axis=-1)).reshape(-1)
        jumps = self._jump_flags(jump_words)
        own_jumps = jumps[own].reshape(-1)
        own_can_jump = jnp.any(jump_words[own] != 0)
        caravans = self._caravans(state.pos)
        troughs = self._troughs(state.pos, state.no_trough)
        herds = jnp.arange(2) != state.no_herd
        n_diag = 2 * 30
        has_move = jnp.stack([
            jnp.any(steps), own_can_jump, own_can_jump, jnp.any(caravans[:n_diag]),
            jnp.any(caravans[n_diag:]), jnp.any(troughs), jnp.bool_(True),
        ])
        hand = state.hands[p] > 0
        at_card = state.pending == CARD
        cards = at_card & hand & jnp.repeat(has_move, 3)
        fallback = at_card & ~jnp.any(cards)
        discards = fallback & hand
        moves = jnp.concatenate([steps, own_jumps, own_jumps, caravans, troughs, herds])
        move_type = jnp.asarray(T.ACTION_T[MOVE_BASE:PANIC_BASE])
        moves = moves & (state.pending == MOVE) & (move_type == state.card_kind // 3)
        die = jnp.clip(state.die, 0, len(D.DIE_FACES) - 1)
        panics = (state.pending == PANIC) & (jumps & jnp.asarray(T.RAMMERS)[die][:, None, None]).reshape(-1)
        tiles = jnp.concatenate([jnp.array([not self.tile_mandatory]), state.tiles[p] > 0]) & (state.pending == TILE)
        return jnp.concatenate([cards, discards, moves, panics, tiles])

    # ---- moves on the board ----------------------------------------------------------------------
    @staticmethod
    def _ray_target(pos, sheep, d, k):
        """The ray of ``sheep`` towards ``d``, its occupancy bits and the index of its k-th sheep."""
        ray = jnp.asarray(T.RAY_SQ)[pos[sheep], d]
        occupied = jnp.sum(jnp.asarray(T.RAY_BITS)[pos[sheep] * D.SQUARES + pos, d])
        return ray, occupied, jnp.asarray(T.KTH)[occupied * 8 + k - 1]

    def _ram(self, pos, rammer, d, k):
        """HB-13: the k-th sheep on the ray moves one square on; the sheep before it and the rammer
        pack behind it: the j-th sheep of the chain (rammer j=0) ends on ray[i + 1 - k + j]."""
        ray, occupied, i = self._ray_target(pos, rammer, d, k)
        on_ray = jnp.asarray(T.RAY_POS)[pos[rammer], d][pos]  # (9,) index on the ray or -1
        # j: the sheep's rank on the ray (its own bit and the bits before it)
        j = jax.lax.population_count(occupied & ((2 << jnp.maximum(on_ray, 0)) - 1))
        moving = (on_ray >= 0) & (j <= k)
        base = i + 1 - k
        new = jnp.where(moving, ray[jnp.clip(base + j, 0, T.RAY_LEN - 1)], pos)
        return _set(new, rammer, ray[jnp.clip(base, 0, T.RAY_LEN - 1)])

    def _leap(self, pos, sheep, d, k):
        """HB-14: the sheep lands right behind the k-th sheep on its ray."""
        ray, _, i = self._ray_target(pos, sheep, d, k)
        return _set(pos, sheep, ray[jnp.minimum(i + 1, T.RAY_LEN - 1)])

    @staticmethod
    def _trough(pos, side):
        """HB-16: every sheep slides towards ``side`` and packs against the flock's outermost line
        and the sheep before it in its column (N/S) or row (E/W)."""
        group = jnp.asarray(T.SIDE_GROUP_T)[side][pos]
        dist = jnp.asarray(T.SIDE_DIST_T)[side][pos]
        ahead = jnp.sum((group[None, :] == group[:, None]) & (dist[None, :] < dist[:, None]), axis=1)
        return jnp.asarray(T.SIDE_SQUARE_T)[side][group * D.SIZE + jnp.min(dist) + ahead]

    def _moved(self, state: State, t: jax.Array, m: jax.Array, panic: jax.Array) -> jax.Array:
        """The sheep squares after move ``m`` of card type ``t`` (a panic ram when ``panic``)."""
        pos = state.pos
        own = 2 * jnp.maximum(state.player, 0)
        d, k = (m >> 3) & 7, (m & 7) + 1
        jumper = jnp.where(panic, m >> 6, own + (m >> 6))
        step_sheep = own + (m >> 3)
        stepped = _set(pos, step_sheep, jnp.asarray(T.STEP_SQ)[pos[step_sheep], m & 7])
        rammed = self._ram(pos, jumper, d, k)
        leapt = self._leap(pos, jumper, d, k)
        line_move = m + jnp.where(t == 4, 60, 0)  # row/column caravans follow the 30 diagonals
        caravan = jnp.asarray(T.CARAVAN_NEXT)[line_move][pos]
        trough = self._trough(pos, jnp.clip(m, 0, 3))
        options = jnp.stack([stepped, rammed, leapt, caravan, caravan, trough, pos, pos])
        return options[jnp.where(t < 0, 7, t)]

    # ---- the turn sequence -----------------------------------------------------------------------
    def _apply(self, state: State, action: jax.Array, dice: jax.Array) -> State:
        cat = jnp.asarray(T.ACTION_CAT)[action]
        t = jnp.asarray(T.ACTION_T)[action]
        m = jnp.asarray(T.ACTION_M)[action]
        p = jnp.maximum(state.player, 0)
        is_card, is_discard = cat == T.CAT_CARD, cat == T.CAT_DISCARD
        is_move, is_panic, is_tile = cat == T.CAT_MOVE, cat == T.CAT_PANIC, cat == T.CAT_TILE
        kind = action % NUM_KINDS
        chooses = is_card | is_discard  # the card leaves the game when it is chosen
        hands = state.hands - _hot2(state.hands.shape, p, kind, chooses)
        card_kind = jnp.where(chooses, kind, state.card_kind)
        card_value = jnp.where(chooses, kind % 3 + 1, state.card_value)
        pos = self._moved(state, jnp.where(is_move | is_panic, t, -1), m, is_panic)
        is_trough, is_herd = is_move & (t == 5), is_move & (t == 6)
        facing = jnp.where(is_herd, (state.facing + jnp.where(m == 0, 1, 3)) % 4, state.facing)
        after_trough = jnp.where(is_trough, (m + 2) % 4, state.after_trough)
        after_herd = jnp.where(is_herd, 1 - m, state.after_herd)
        tile = action - TILE_BASE
        tiles = state.tiles - _hot2(state.tiles.shape, p, tile - 1, is_tile & (tile > 0))
        # after the card (HB-9): a time tile is pending while the player holds one
        after_card = is_discard | is_move
        to_tile = after_card & (jnp.sum(tiles[p]) > 0)
        finish = (after_card & ~to_tile) | is_tile
        dt = card_value + jnp.where(is_tile, tile, 0)
        pending = jnp.where(is_card, MOVE, jnp.where(to_tile, TILE, state.pending))
        state = state.replace(
            pos=pos, hands=hands, tiles=tiles, facing=facing, card_kind=card_kind, card_value=card_value,
            after_trough=after_trough, after_herd=after_herd, pending=pending,
            die=jnp.where(is_panic, -1, state.die),
        )
        state, ended, roll = self._finish_turn(state, finish, dt)
        # after a panic ram: the opening goes on (HB-8), otherwise the next turn
        in_opening = is_panic & ((state.opening < len(self.opening_seq)) | (state.time == 0))
        return self._settle(
            state, dice, opening=in_opening, single_roll=roll,
            next_turn=(finish & ~ended & ~roll) | (is_panic & ~in_opening), ended=ended,
        )

    def _finish_turn(self, state: State, finish: jax.Array, dt: jax.Array):
        """HB-9 (2)-(4), HB-18..21 when ``finish``: time, scoring; returns (state, game ended on
        74, a panic space reached)."""
        old = state.time
        new = jnp.minimum(old + dt, jnp.where(old < D.PEN_1, D.PEN_1, D.PEN_2))
        new = jnp.where(finish, new, old)
        p = jnp.maximum(state.player, 0)
        pos = state.pos
        pair = jnp.asarray(T.ADJ_T)[pos[2 * p], pos[2 * p + 1]]
        thea = jnp.asarray(T.ADJ_T)[pos[D.THEA], pos[2 * p]] + jnp.asarray(T.ADJ_T)[pos[D.THEA], pos[2 * p + 1]]
        phase2 = (new > 12) & (new <= D.PEN_1)
        phase4 = new >= 50
        twice2 = (((old <= D.WALL_1) & (new > D.WALL_1)).astype(i32) + (new == D.PEN_1)) * phase2
        twice4 = (((old <= D.WALL_2) & (new > D.WALL_2)).astype(i32) + (new == D.PEN_2)) * phase4
        rows2, rows4 = self._row_points(state.pos, state.facing)
        owner = jnp.asarray(self.owner)
        gains = owner @ (rows2 * twice2 + rows4 * twice4)
        active = jnp.where(jnp.arange(self.n) == p, jnp.where(new <= 12, pair, 0) + jnp.where((new > D.PEN_1) & (new < 50), thea, 0), 0)
        scores = state.scores + jnp.where(finish, gains + active, 0)
        ended = finish & (new == D.PEN_2)
        roll = finish & ~ended & jnp.asarray(self.panic_space)[new]
        reset = lambda field, value: jnp.where(finish, value, field)  # noqa: E731
        state = state.replace(
            time=new, scores=scores,
            no_trough=reset(state.no_trough, state.after_trough), no_herd=reset(state.no_herd, state.after_herd),
            after_trough=reset(state.after_trough, -1), after_herd=reset(state.after_herd, -1),
            card_value=reset(state.card_value, 0), card_kind=reset(state.card_kind, -1),
        )
        return state, ended, roll

    def _row_points(self, pos: jax.Array, facing: jax.Array) -> tuple[jax.Array, jax.Array]:
        """HB-21: points of every sheep in a phase-2 and in a phase-4 scoring with ``facing``."""
        rows = jnp.asarray(T.SIDE_DIST_T)[facing][pos]
        idx = jnp.arange(D.SIZE)
        present = jnp.any(rows[:, None] == idx, axis=0)
        front = jnp.min(rows)
        if self.consecutive:
            rows2 = jnp.maximum(0, 4 - (rows - front))
        else:
            before = jnp.sum(present[None, :] & (idx[None, :] < rows[:, None]), axis=1)
            rows2 = jnp.maximum(0, 4 - before)
        behind = jnp.sum(present[None, :] & (idx[None, :] > rows[:, None]), axis=1)
        rows4 = jnp.where(rows == front, 0, jnp.maximum(0, 4 - behind))
        return rows2.astype(i32), rows4.astype(i32)

    def _settle(self, state: State, dice, opening, single_roll, next_turn, ended=jnp.bool_(False)) -> State:
        """Rolls (a panic space, or the opening over void rolls), the next turn or the end, then the
        mask, rewards and pgx fields of the decision the game now rests at."""
        jump_words = self._jumps(state.pos, self._ray_bits(state.pos))
        can_ram = jnp.any(jump_words != 0, axis=1)  # (9,)
        rammers = jnp.asarray(T.RAMMERS)
        player, pending, die, taken = state.player, state.pending, state.die, state.opening
        # a panic space (HB-9 (4)): the player who just moved rolls; a void roll passes on
        single_ok = jnp.any(rammers[dice[0]] & can_ram)
        found = single_roll & single_ok
        die = jnp.where(found, dice[0], die)
        next_turn = next_turn | (single_roll & ~single_ok)
        # the opening (HB-8): the next roller in the sequence rolls until a roll allows a ram
        seq = jnp.asarray(self.opening_seq)
        active = opening
        for k in range(MAX_ROLLS):
            rolls = active & (taken < len(self.opening_seq))
            player = jnp.where(rolls, seq[jnp.minimum(taken, len(self.opening_seq) - 1)], player)
            ok = jnp.any(rammers[dice[k]] & can_ram)
            taken = taken + rolls
            die = jnp.where(rolls & ok, dice[k], die)
            found = found | (rolls & ok)
            active = rolls & ~ok
        exhausted = opening & ~found
        player = jnp.where(exhausted, -1, player)
        next_turn = next_turn | exhausted
        pending = jnp.where(found, PANIC, pending)
        # the next player with cards (HB-9), else the end (HB-24)
        n = self.n
        candidates = (player + jnp.arange(1, n + 1)) % n
        has_cards = jnp.sum(state.hands, axis=1)[candidates] > 0
        nobody = ~jnp.any(has_cards)
        first = jnp.min(jnp.where(has_cards, jnp.arange(n), n - 1))  # not an argmax: see _troughs
        player = jnp.where(next_turn & ~nobody, (player + 1 + first) % n, player)
        pending = jnp.where(next_turn & ~nobody, CARD, pending)
        turn = state.turn + (next_turn & ~nobody)
        over = ended | (next_turn & nobody)
        penalty = self.penalty * jnp.sum(state.tiles, axis=1)
        scores = jnp.where(over, state.scores - penalty, state.scores)
        state = state.replace(
            player=jnp.where(over, -1, player), pending=jnp.where(over, OVER, pending),
            die=jnp.where(over, -1, die), opening=taken, turn=turn, scores=scores,
        )
        mask = self._mask(state, jump_words)
        truncated = ~over & (turn >= self.max_turns)
        return state.replace(
            current_player=state.player,
            legal_action_mask=mask & ~truncated,
            terminated=over,
            truncated=truncated,
            rewards=self._final_rewards(over, state),
        )

    def _final_rewards(self, over: jax.Array, state: State) -> jax.Array:
        """float32 (n,): the rank rewards (HB-24) where the game ended in this step (``over``),
        else zeros. Under ``vmap`` the ranking runs only on the games that ended
        (:func:`rows_cond`, at most :attr:`end_share` of the batch): as a select, XLA fused it
        into the step's last selects and ran it for every seat of every game at every step
        (a twentieth of the 4-player step; two interleaved A/Bs: ×1.04–1.06 at 4 players, ×1.01–1.06 at 2, session 37)."""
        def rank(operand):
            _, scores, hands = operand
            return rank_rewards(self._rank_keys(scores, hands)), scores, hands

        zeros = jnp.zeros(self.n, jnp.float32)
        return rows_cond(over, rank, (zeros, state.scores, state.hands), share=self.end_share)[0]

    # ---- outcome -------------------------------------------------------------------------------
    def scores(self, state: State) -> jax.Array:
        return state.scores

    def rank_keys(self, state: State) -> jax.Array:
        """HB-24: the ranking key of each seat, score first, then the sum of unused card values
        (at most 90 < 1000)."""
        return self._rank_keys(state.scores, state.hands)

    def _rank_keys(self, scores: jax.Array, hands: jax.Array) -> jax.Array:
        return scores * 1000 + hands @ jnp.asarray(self.card_values)

    def final_places(self, state: State) -> jax.Array:
        """HB-24: place of each seat by score, then unused card values; equal keys share."""
        keys = self.rank_keys(state)
        return jnp.sum(keys[None, :] > keys[:, None], axis=1).astype(i32)

    def rank_rewards(self, state: State) -> jax.Array:
        """+1 first … −1 last, linear between; tied seats share the mean of their slots."""
        return rank_rewards(self.rank_keys(state))

    # ---- observation ---------------------------------------------------------------------------
    def _observation(self, state: State, seat: jax.Array) -> jax.Array:
        n = self.n
        seat = jnp.asarray(seat, i32) % n
        phase = jnp.asarray(T.PHASE_OF)[state.time]
        pending, over = state.pending, state.pending == OVER
        fallback = (pending == CARD) & jnp.any(state.legal_action_mask[NUM_KINDS : 2 * NUM_KINDS])
        # nested selects, not jnp.select (an argmax: a variadic reduce, slow on XLA's CPU)
        pending_slot = jnp.where(pending == CARD, fallback.astype(i32), jnp.where(
            (pending == MOVE) | (pending == TILE), pending + 1, jnp.where(pending == PANIC, i32(4), i32(-1))))
        at_panic = pending == PANIC
        squares = state.pos[jnp.asarray(self.plane_sheep)[seat]]  # the square of each plane's sheep
        # the blocks of env.py's observation in order, written into zeros (SparseObservation)
        obs = SparseObservation()
        obs.one_hots(squares, D.SQUARES)  # a sheep on the padding square OFF: an empty plane
        obs.one_hot(state.facing, 4)
        obs.flag(phase == 2)
        obs.flag(phase == 4)
        obs.one_hot(state.time, D.TRACK_END + 1)
        obs.one_hot(phase, 5)
        # the players from the observer on: each seat's row written at its place in that order
        # (no reordering: one-hot sums cost the 4-player step 5%, row gathers more), and the
        # score feature looked up seat by seat (a gather of several rows per game is slow)
        place = (jnp.arange(n, dtype=i32) - seat) % n
        scores = jnp.clip(state.scores, -SCORE_BOUND, SCORE_BOUND) + SCORE_BOUND
        obs.rows_at(jnp.stack([jnp.asarray(SCORE_FEATURE)[scores[k]] for k in range(n)])[:, None], place, 4)
        obs.rows_at(state.hands, place, 4)
        obs.rows_at(state.tiles, place, 4)
        obs.one_hot(jnp.where(over, -1, state.no_trough), 4)  # none once over (observation.py)
        obs.one_hot(jnp.where(over, -1, state.no_herd), 2)
        obs.one_hot(pending_slot, 5)
        obs.one_hot(jnp.where(over, -1, (state.player - seat) % n), 4)
        obs.one_hot(jnp.where(at_panic, state.die, -1), len(D.DIE_FACES))
        obs.flag(at_panic & (state.time == 0))
        obs.one_hot(jnp.where((pending == MOVE) | (pending == TILE), state.card_kind, -1), NUM_KINDS)
        obs.constant(self.template[E.PANIC_TRACK :])
        return obs.build()

    # ---- conversion with the reference engine -------------------------------------------------------
    def to_game_dict(self, state: State) -> dict:
        """The reference game's ``to_dict()`` (without ``rng``) of an unbatched state."""
        state = jax.device_get(state)
        n, o = self.n, self.options
        out: dict[str, Any] = {
            "config": {"num_players": n, "rule_data": copy.deepcopy(o["rule_data"]), "phase2_rows": o["phase2_rows"]},
            "pos": [int(v) for v in state.pos],
            "scores": [int(v) for v in state.scores],
            "hands": [[int(v) for v in row] for row in np.asarray(state.hands)],
            "tiles": [[int(v) for v in row] for row in np.asarray(state.tiles)],
            "opening": [int(v) for v in self.opening_seq[int(state.opening):]],
        }
        for field in SCALAR_FIELDS:
            out[field] = int(getattr(state, field))
        out["pending"] = DECISIONS[out["pending"]]  # snapshot format 2 names the decision
        return out

    def from_game(self, game: HasteBockGame) -> State:
        """The JAX state (unbatched) of a reference game (a validated ``HasteBockGame``)."""
        if game.config() != {"num_players": self.n, "rule_data": self.options["rule_data"], "phase2_rows": self.options["phase2_rows"]}:
            raise ValueError("the game's config (players, rule_data, phase2_rows) does not match this engine's options")
        seq, remaining = [int(v) for v in self.opening_seq], list(game.opening)
        if remaining != seq[len(seq) - len(remaining):]:
            raise ValueError("the game's 'opening' is not a tail of the opening sequence")
        fields = {f: i32(getattr(game, f)) for f in SCALAR_FIELDS}
        state = State(
            rewards=jnp.zeros(self.n, jnp.float32), pos=jnp.asarray(game.pos, i32),
            scores=jnp.asarray(game.points, i32), hands=jnp.asarray(game.hands, i32),
            tiles=jnp.asarray(game.tiles, i32), opening=i32(len(seq) - len(remaining)), **fields,
        )
        mask = self._mask(state, self._jumps(state.pos, self._ray_bits(state.pos)))
        over = state.pending == OVER
        truncated = ~over & (state.turn >= self.max_turns)
        state = state.replace(
            current_player=state.player, legal_action_mask=jnp.where(over, True, mask & ~truncated),
            terminated=over, truncated=truncated,
            rewards=jnp.where(over, self.rank_rewards(state), 0.0).astype(jnp.float32),
        )
        return state.replace(observation=self.observe_player(state, state.current_player))

    def feed_chance(self, game: HasteBockGame, key: jax.Array) -> None:
        """Let the reference ``game`` roll the dice ``step(..., key)`` rolls (see Chance)."""
        game.rng = StreamRandom(host_stream(key, MAX_ROLLS))


__all__ = ["HasteBockJax", "State", "step_dice", "init_chance", "MAX_ROLLS"]
