"""Hase und Igel as a batched, jit-compiled JAX engine (``pgx.Env``), identical to the reference engine.

The reference is :mod:`meadowzoo.envs.hase_und_igel.rules` (the forward model) and
:mod:`meadowzoo.envs.hase_und_igel.env` (observation, mask, action indices; its module docstring is
the encoding's spec). This engine plays the same rules (HUI-1 … HUI-30, every DECISION of
``data.DECISIONS`` as there) with the same encoding, so a policy trained on either plays the other
without conversion. Built by ``meadowzoo.jax.make("hase_und_igel", **options)`` on the shared core
:mod:`meadowzoo.envs.core.jax_core`; everything is a pure function of a state pytree of fixed
shapes with no Python control flow on traced values (the turn loop is a ``lax.while_loop``, every
rule a masked update or a table lookup), so ``init``, ``step`` and ``observe`` work under ``jit``
and ``vmap`` on CPU and GPU.

Options (as the PettingZoo env's)
    ``num_players`` 2–6 (default 4), ``two_runners`` (default True; with 2 players), ``teams``
    (``"2x2"``, ``"3x2"``, ``"2x3"``), ``chain_hare_cards``, ``reshuffle_deck``, ``start_player``,
    ``max_turns`` (default 1500, at most 65536: the progress feature is a table). ``render_mode``
    and unknown options are refused with a ``ValueError``. ``truncation_scoring``: a ``max_turns``
    cut gives 0 to everybody (``"draw"``) or the standing's rank rewards (``"standing"``: the sum
    of each player's race positions, HUI-15, teams sharing; :meth:`HaseUndIgelJax.standing_rewards`).

Actions and mask
    The PettingZoo env's indices: ``Discrete(70)``, ``Discrete(139)`` with two runners (slot block
    ``67·k``: forward to t = 1…64 at ``t − 1``, hedgehog back 64, stay take 65 / give 66; give-up
    134/135; card take / give / pass last). ``legal_action_mask`` equals the env's mask of the
    player to move while the game runs; pgx conventions otherwise: all True once terminated, an
    illegal action ends the game with −1 for the mover, a step on an ended game changes nothing.
    At a ``max_turns`` truncation the mask keeps the legal actions (the env's is then all zero).

Observation (float32, the env's vector exactly, for every seat)
    runner blocks 70 × R (the observer's runners first, then the seats in turn order), player
    blocks 4 × N, hare deck 12 × 10, unseen cards 9, last card 9, decision 4, card runner ``rpp``,
    progress 1 (see the env's table). ``state.observation`` is the player to move's;
    ``observe_player(state, p)`` / ``observe_all(state)`` any seat's. Each float is the one numpy
    forms: tables built by numpy (race position / R, lettuces, progress) and
    :func:`carrots_feature` (XLA's float32 division is not correctly rounded; carrots are exact
    up to 2**24).

State (:class:`State`; R runners = N players, or 4 with two runners)
    pgx fields: ``current_player`` (the player to move; 0 once over, as the env's
    ``agent_selection``), ``observation``, ``rewards`` float32[N] (rank rewards with teams, on the
    step that ends the game), ``terminated`` (game over), ``truncated`` (``turn >= max_turns``
    before the end; rewards 0), ``legal_action_mask``, ``_step_count``.
    Rules fields, as the reference engine's ``to_dict``: ``pos`` int32[R] (0 = Start, 64 = Goal),
    ``place`` int32[R] (finishing order 1.., 0 = racing), ``eat`` / ``miss`` / ``payout`` bool[R],
    ``last_cost`` int32[R], ``carrots`` / ``lettuces`` int32[N], ``finished``, ``turn``
    (player turns begun), ``cur`` (the player whose turn it is), ``pending`` (0 move, 1 card carrots,
    2 extra move, 3 stuck, 4 over: ``rules.DECISIONS``),
    ``card_runner`` (−1 none), ``busy`` bool[R] (runners that ate or missed this turn), ``over``,
    ``final_places`` int32[N] (0 = best; valid once over).
    The hare deck: ``cards`` int32[12] (card kinds, ``data.CARD_KINDS`` order) and ``top``. Without
    ``reshuffle_deck`` the deck is the cycle ``cards[top], cards[top+1], …`` (mod 12), and a draw
    advances ``top`` (the card goes to the bottom); with ``reshuffle_deck`` the deck is
    ``cards[top:]``, the discard pile ``cards[:top]`` in resolution order, and a draw from the
    empty deck first reorders the array by the step's chance. ``known_from`` (``deck[known_from:]``
    is public), ``unresolved`` (cards drawn this turn whose resolution goes on, HUI-13: they lie at
    the end of the cycle / of the discard pile, where they will go) and ``last_card`` as the
    reference. :meth:`HaseUndIgelJax.to_game_dict` /
    :meth:`HaseUndIgelJax.from_game` convert to and from the reference game, and the core's
    ``to_snapshot`` / ``from_snapshot`` to and from the env's ``snapshot()``.

Turns
    ``step`` applies the action (moves, stays, card choices, give-up), resolves the hare cards it
    draws (a ``lax.while_loop`` of draws with ``chain_hare_cards``), then runs the following turns'
    automatic parts (payouts, eating, missing turns, skipped players, stuck runners back to Start,
    the final-stretch move back) in a ``lax.while_loop`` of turns until a player has a decision
    or the game ends, as the reference's ``apply``. Under ``vmap`` the draw and the turn loop's
    passes after the first run only on the games that need them (:func:`~meadowzoo.envs.core.jax_rows.rows_cond`,
    :meth:`HaseUndIgelJax._on_rows`): a random-play step draws in about a quarter of the games, and a
    ``while_loop`` under ``vmap`` makes as many passes over the whole batch as its slowest game needs.

Chance
    ``init(key)``: the deck order (ranks of twelve uniforms of the key's chance stream) and,
    without ``start_player``, the start player (:func:`deal`); the reference receives them in the state (``to_snapshot``).
    ``step(state, action, key)``: with ``reshuffle_deck`` the step's chance stream of 11 uniforms
    orders the discard pile (but the cards still being resolved) when the deck runs out (:func:`reshuffle_order`, at most one
    reshuffle a step); :meth:`HaseUndIgelJax.feed_chance` hands the same stream to the reference
    game. Without ``reshuffle_deck`` a step has no chance.

Hidden information
    The order of the unseen top of the hare deck (``known_from`` cards); :meth:`HaseUndIgelJax.resample_hidden`
    reshuffles it, as the reference's ``resample_hidden`` (for search players).

The deck order of HUI-13 (a card goes to the bottom once resolved, after a card drawn during its
resolution) is handled in one place, :meth:`HaseUndIgelJax._draw` (marked ``HUI-13 DECK ORDER``),
as in the reference engine's ``_draw_card``: change them together.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pgx.core
from pgx._src.struct import dataclass

from meadowzoo.envs.core.jax_core import (
    MeadowJaxEnv,
    SparseObservation,
    StreamRandom,
    CHANCE_BITS,
    chance_stream,
    host_stream,
    stream_int,
)
from meadowzoo.envs.core.jax_rows import rows_cond
from meadowzoo.envs.hase_und_igel import data, env as pz_env, rules
from meadowzoo.envs.hase_und_igel.rules import CARD_CARROTS, EXTRA_MOVE, MOVE, OVER, STUCK, check_config, start_holdings

GOAL = data.GOAL
NUM_POS = data.NUM_POSITIONS
NUM_CARDS = len(data.DECK)
SLOT = rules.SLOT_ACTIONS
TAKE, GIVE, BACK = rules.TAKE_OFFSET, rules.GIVE_OFFSET, rules.BACK_OFFSET
DEFAULT_MAX_TURNS = pz_env.HaseUndIgelEnv.default_max_turns
K = rules.CARD  # card kind -> index
FALL_BACK, MOVE_UP = K[data.FALL_BACK], K[data.MOVE_UP]

# ---- static tables (from the reference engine's own tables) ---------------------------------------
_i32 = np.int32
IS_LETTUCE = jnp.array(rules.IS_LETTUCE)
IS_CARROT = jnp.array(rules.IS_CARROT)
IS_HARE = jnp.array(rules.IS_HARE)
PAYS_ANY = jnp.array([bool(p) for p in rules.PAYS_AT])  # number or flag square
#: by square: bit q set iff the square pays at race position q (HUI-14)
PAYS_BITS = jnp.array([sum(1 << q for q in positions) for positions in rules.PAYS_AT], jnp.int32)
PREV_HEDGEHOG = jnp.array(rules.PREV_HEDGEHOG, jnp.int32)
PREV_CARROT = jnp.array(rules.PREV_CARROT, jnp.int32)
NEXT_CARROT = jnp.array(rules.NEXT_CARROT, jnp.int32)
COST = jnp.array(rules.COST, jnp.int32)
HEDGEHOGS = jnp.array(rules.HEDGEHOGS, jnp.int32)
#: [has lettuce][square]: a forward move may target the square if free (squares 1..63)
TARGETABLE = jnp.array(rules.TARGETABLE)
TARGETABLE_FLAT = TARGETABLE.reshape(-1)  # [has lettuce · 65 + square]
#: [has lettuce · 65 + square]: squares 1..square a forward move may target if free
TARGETS_UP_TO = jnp.array(np.cumsum(np.array(rules.TARGETABLE), axis=1).reshape(-1), jnp.int32)
#: farthest affordable distance by carrots (carrots above the table's end reach the Goal)
MAX_REACH = jnp.array(rules.MAX_DISTANCE, jnp.int32)
FINAL_STRETCH = (min(data.FINAL_STRETCH), max(data.FINAL_STRETCH))
DECK = jnp.array(data.DECK, jnp.int32)
RESHUFFLE_UNIFORMS = NUM_CARDS - 1  # a step's chance: one Fisher–Yates shuffle of the 12 cards

@dataclass
class State(pgx.core.State):
    current_player: jax.Array
    observation: jax.Array
    rewards: jax.Array
    terminated: jax.Array
    truncated: jax.Array
    legal_action_mask: jax.Array
    _step_count: jax.Array
    pos: jax.Array
    place: jax.Array
    eat: jax.Array
    miss: jax.Array
    payout: jax.Array
    last_cost: jax.Array
    carrots: jax.Array
    lettuces: jax.Array
    cards: jax.Array
    top: jax.Array
    known_from: jax.Array
    unresolved: jax.Array
    last_card: jax.Array
    finished: jax.Array
    turn: jax.Array
    cur: jax.Array
    pending: jax.Array
    card_runner: jax.Array
    busy: jax.Array
    over: jax.Array
    final_places: jax.Array

    @property
    def env_id(self) -> str:
        return "hase_und_igel"


def deal(key: jax.Array, num_players: int, start_player: int | None = None) -> tuple[jax.Array, jax.Array]:
    """Chance at setup: the hare deck order (kind indices, top first) and the start player (HUI-2,
    HUI-6), from the first ``NUM_CARDS + 1`` uniforms of ``key``'s chance stream. Card ``i`` of
    the rule data's deck goes to the slot of its rank among the first ``NUM_CARDS`` uniforms
    (ties, which need two equal 24-bit draws among twelve, below 4·10⁻⁶ a deal, go to the card
    listed first): a uniform shuffle as comparisons of twelve numbers, where a Fisher–Yates loop
    of eleven dependent swaps was 5% of a random-play step (session 32); the start seat comes
    from the last uniform. The harness feeds the outcome to the reference engine through the
    state. No ``jax.random`` here: ``init`` runs at every step of a batch under Pgx's
    ``auto_reset``, and threefry's split and randint cost more than the rest of the deal."""
    uniforms = chance_stream(key, NUM_CARDS + 1)
    draws = uniforms[:NUM_CARDS]
    cards_i = jnp.arange(NUM_CARDS, dtype=jnp.int32)
    before = (draws[None, :] < draws[:, None]) | ((draws[None, :] == draws[:, None]) & (cards_i[None, :] < cards_i[:, None]))
    slot = jnp.sum(before, axis=1, dtype=jnp.int32)  # card i goes to slot[i]: a permutation
    cards = jnp.sum(jnp.where(slot[None, :] == cards_i[:, None], DECK[None, :], 0), axis=1, dtype=jnp.int32)
    if start_player is None:
        start = stream_int(uniforms[NUM_CARDS], num_players)
    else:
        start = jnp.int32(start_player)
    return cards, start


def reshuffle_order(uniforms: jax.Array, size: jax.Array) -> jax.Array:
    """Chance of a step (reshuffle variant): the new deck is ``pile[order]``, the first ``size``
    cards of the discard pile (in resolution order; the rest are still being resolved, HUI-13),
    shuffled by the step's chance uniforms as the reference's ``rng.shuffle`` does when fed
    (:class:`~meadowzoo.envs.core.jax_core.StreamRandom`): Fisher–Yates on the first ``size - 1``
    uniforms (the core's ``stream_permutation`` for a traced ``size``; slots from ``size`` on are
    left alone). Used only if the step draws from the empty deck; a step reshuffles at most once
    (a step draws one card, or with ``chain_hare_cards`` a chain that continues only through the 3
    fall-back / move-up cards: at most 7 draws, fewer than a deck)."""
    slots = jnp.arange(NUM_CARDS, dtype=jnp.int32)

    def swap(i, items):
        j = i + ((uniforms[i] * (size - i)) >> CHANCE_BITS)
        a, b = _get(items, i), _get(items, j)
        return jnp.where(i < size - 1, jnp.where(slots == i, b, jnp.where(slots == j, a, items)), items)

    return jax.lax.fori_loop(0, NUM_CARDS - 1, swap, slots)


#: the JAX engine's progress feature is a table of turns / max_turns (XLA's float32 division is not
#: correctly rounded, numpy's is), so max_turns is bounded
MAX_TURNS_LIMIT = 1 << 16
#: carrots up to this are encoded exactly as numpy encodes them (see :func:`carrots_feature`)
EXACT_CARROTS = 1 << 24


def carrots_feature(carrots: jax.Array) -> jax.Array:
    """float32 carrots / 100 exactly as the env's numpy (the float32 nearest to c / 100) for
    0 <= c < 2**24. XLA's float32 division may be an ulp off, so its quotient is corrected by the
    exact integer residual: with q = m · 2**-k, d = c · 2**k − 100 · m is (c/100 − q) in units of
    q's ulp / 100, and fits int32 for such c."""
    c = carrots.astype(jnp.int32)
    quotient = c.astype(jnp.float32) / jnp.float32(100.0)
    bits = jax.lax.bitcast_convert_type(quotient, jnp.int32)
    for _ in range(3):  # the quotient is within an ulp or two; each round moves it one ulp closer
        mantissa = (bits & 0x7FFFFF) | 0x800000
        shift = jnp.clip(150 - (bits >> 23), 0, 31)
        d = (c << shift) - 100 * mantissa
        below = jnp.where((bits & 0x7FFFFF) == 0, 25, 50)  # half the gap below (halved at a power of two)
        bits = bits + (d > 50).astype(jnp.int32) - (d < -below).astype(jnp.int32)
    exact = jax.lax.bitcast_convert_type(bits, jnp.float32)
    return jnp.where(c == 0, 0.0, jnp.where(c < EXACT_CARROTS, exact, quotient))


# Reads and writes at a traced index are one-hot masks rather than gathers and scatters: on arrays
# of a few entries XLA fuses them into the surrounding arithmetic, which keeps compiled programs
# small (compile time) and the batched CPU step fast.
def _hot(index: Any, size: int) -> jax.Array:
    """bool[size]: True at ``index``."""
    return jnp.arange(size, dtype=jnp.int32) == index


def _get(array: jax.Array, index: Any) -> jax.Array:
    """``array[index]`` (1-D ``array``, scalar ``index``)."""
    hot = _hot(index, array.shape[0])
    if array.dtype == jnp.bool_:
        return jnp.any(hot & array)
    return jnp.sum(jnp.where(hot, array, 0), dtype=array.dtype)


def _sq(table: jax.Array, square: Any) -> jax.Array:
    """``table[square]`` of a by-square table (65 entries): a gather, one element per game, where a
    one-hot read would touch all 65."""
    return table[jnp.clip(square, 0, NUM_POS - 1)]


def _put(array: jax.Array, index: Any, value: Any, do: Any = True) -> jax.Array:
    """``array`` with ``array[index] = value`` where ``do``."""
    return jnp.where(_hot(index, array.shape[0]) & do, value, array).astype(array.dtype)


def _gather(array: jax.Array, indices: jax.Array) -> jax.Array:
    """``array[indices]`` (1-D both; indices out of range give 0)."""
    hot = indices[:, None] == jnp.arange(array.shape[0], dtype=jnp.int32)
    return jnp.sum(jnp.where(hot, array[None, :], 0), axis=1, dtype=array.dtype)


def _add(array: jax.Array, index: Any, amount: Any) -> jax.Array:
    """``array`` with ``amount`` added at ``index``."""
    return array + jnp.where(_hot(index, array.shape[0]), amount, 0).astype(array.dtype)


def _cost(distance: jax.Array) -> jax.Array:
    """HUI-9: n(n+1)/2 carrots for a forward move of n squares."""
    return distance * (distance + 1) // 2


# ---- squares as bits: the track's squares 0..63 as two uint32 words (bit k of word w = square 32w + k) --
# A set of squares (the occupied ones, those a move may target) is two words, and "free targetable
# squares in reach", "the nearest free square behind" are a few integer operations on them, where
# comparisons over all 65 squares and reductions over them had cost about a tenth of a random-play
# step (session 35). The Goal (64) is never in a set: the rules treat it apart.
_U32 = jnp.uint32
_ALL_BITS = np.uint32(0xFFFFFFFF)


def _square_words(flags: Any) -> np.ndarray:
    """uint32[2]: the squares 0..63 where ``flags`` (by square) is true."""
    f = np.asarray(flags, bool)[:GOAL]
    return np.array([sum(int(f[32 * w + k]) << k for k in range(32)) for w in (0, 1)], np.uint32)


#: [has lettuce, word]: the squares a forward move may target if free (``rules.TARGETABLE``)
TARGETABLE_WORDS = np.stack([_square_words(rules.TARGETABLE[lettuce]) for lettuce in (0, 1)])
#: squares that are not lettuce squares; track squares that are not hedgehogs
NOT_LETTUCE_WORDS = _square_words([not x for x in rules.IS_LETTUCE])
NO_HEDGEHOG_TRACK_WORDS = _square_words([0 < q < GOAL and not rules.IS_HEDGEHOG[q] for q in range(NUM_POS)])
#: the forward block of the mask (targets 1..63): the word and the bit of each target
_FORWARD_WORD = np.arange(1, GOAL) >> 5
_FORWARD_BIT = (np.arange(1, GOAL) & 31).astype(np.uint32)


def _squares_upto(square: Any) -> jax.Array:
    """uint32[2]: squares 0..``square`` (none below 0, all 64 from 63 on)."""
    square = jnp.asarray(square, jnp.int32)
    words = []
    for w in (0, 1):
        k = square - 32 * w
        below = jnp.left_shift(_U32(2), jnp.clip(k, 0, 31).astype(_U32)) - _U32(1)  # 2 << 31 wraps to 0: all bits
        words.append(jnp.where(k < 0, _U32(0), below))
    return jnp.stack(words)


def _occupied_words(pos: jax.Array) -> jax.Array:
    """uint32[2]: the track squares (1..63) a runner stands on (Start and the Goal hold many)."""
    on_track = (pos > 0) & (pos < GOAL)
    words = []
    for w in (0, 1):
        bits = jnp.where(on_track & ((pos >> 5) == w), jnp.left_shift(_U32(1), (pos & 31).astype(_U32)), _U32(0))
        words.append(jax.lax.reduce(bits, _U32(0), jax.lax.bitwise_or, (0,)))
    return jnp.stack(words)


def _highest_square(words: jax.Array) -> jax.Array:
    """The highest square in ``words``, −1 if none."""
    high = jnp.where(words[1] != 0, 63 - jax.lax.clz(words[1]).astype(jnp.int32), -1)
    low = jnp.where(words[0] != 0, 31 - jax.lax.clz(words[0]).astype(jnp.int32), -1)
    return jnp.where(high >= 0, high, low)


def _lowest_square(words: jax.Array) -> jax.Array:
    """The lowest square in ``words``, ``NUM_POS`` if none."""
    def trailing_zeros(word):
        return jax.lax.population_count((word & -word) - _U32(1)).astype(jnp.int32)

    low = jnp.where(words[0] != 0, trailing_zeros(words[0]), NUM_POS)
    high = jnp.where(words[1] != 0, 32 + trailing_zeros(words[1]), NUM_POS)
    return jnp.where(low < NUM_POS, low, high)


class HaseUndIgelJax(MeadowJaxEnv):
    """Batched Hase und Igel; see the module docstring for state, observation, actions and chance."""

    game = "hase_und_igel"
    #: :meth:`_on_rows`: the most games of a batch (as a share) that a hare-card draw runs on alone
    #: (more: on every game). Random play draws in 27-29% of the games' steps, at most 43% of 512.
    draw_share = 0.5
    OPTIONS = ("num_players", "two_runners", "teams", "chain_hare_cards", "reshuffle_deck", "start_player",
               "max_turns")

    def _check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        if options.get("render_mode") is not None:
            raise ValueError(f"render_mode is not supported by the JAX engine, got {options['render_mode']!r}")
        options.pop("render_mode", None)
        unknown = set(options) - set(self.OPTIONS)
        if unknown:
            raise ValueError(f"unsupported option(s) {sorted(unknown)} for the Hase und Igel JAX engine; "
                             f"it takes {', '.join(self.OPTIONS)}")
        num_players = options.setdefault("num_players", 4)
        two_runners = options.setdefault("two_runners", True)
        teams = options.setdefault("teams", None)
        start_player = options.setdefault("start_player", None)
        check_config(num_players, two_runners, teams, start_player)
        for flag in ("chain_hare_cards", "reshuffle_deck"):
            if not isinstance(options.setdefault(flag, False), bool):
                raise ValueError(f"{flag} must be a bool, got {options[flag]!r}")
        max_turns = options.get("max_turns")
        max_turns = DEFAULT_MAX_TURNS if max_turns is None else max_turns
        if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1:
            raise ValueError(f"max_turns must be a positive integer, got {max_turns!r}")
        if max_turns > MAX_TURNS_LIMIT:
            raise ValueError(f"max_turns above {MAX_TURNS_LIMIT} is not supported by the JAX engine, got {max_turns}")
        options["max_turns"] = self.max_turns = max_turns
        self.n = num_players
        self.rpp = 2 if (num_players == 2 and two_runners) else 1
        self.r = num_players * self.rpp
        # :meth:`_on_rows`: the most games (as a share) that the turn loop's passes after the first
        # run on alone. Random play at 512 games: 4.6% need them with two runners, 14-15% with 2-6
        # one-runner players; these shares ran fastest (results/engine_speed/2026-12-07_session36)
        self.turn_share = 0.125 if self.rpp == 2 else 0.25
        self.teams = teams
        self.team_of = np.array(data.TEAM_LAYOUTS[teams] if teams else range(num_players), _i32)
        self.chain = options["chain_hare_cards"]
        self.reshuffle = options["reshuffle_deck"]
        self.start_player = start_player
        self.start_carrots, self.start_lettuces = start_holdings(num_players, self.rpp)
        self.give_up_base = SLOT * self.rpp
        self.card_base = self.give_up_base + (2 if self.rpp == 2 else 0)
        self._num_actions = self.card_base + 3
        self._build_observation_tables()
        return options

    def reference_env(self) -> pz_env.HaseUndIgelEnv:
        return pz_env.HaseUndIgelEnv(**self.options)

    # ---- pgx.Env properties ---------------------------------------------------------------------
    @property
    def id(self) -> str:
        return "hase_und_igel"

    @property
    def num_players(self) -> int:
        return self.n

    @property
    def num_actions(self) -> int:
        return self._num_actions

    # ---- init -----------------------------------------------------------------------------------
    def init(self, key: jax.Array) -> State:
        """As ``pgx.Env.init``; the observation comes with :meth:`_init` (no second pass)."""
        return self._init(key)

    def _init(self, key: jax.Array) -> State:
        """The set-up of :meth:`initial_state` for the dealt deck and start player. Everything else
        of the first state is the same in every game (all runners on Start with the same
        holdings, the whole deck unseen: the same mask, and the same observation for the player
        to move whoever it is), so it is a constant computed once, and ``init`` (which Pgx's
        ``auto_reset`` runs at every step of a batch) costs the deal alone."""
        cards, start = deal(key, self.n, self.start_player)
        first = self._first_state()
        return first.replace(cards=cards, cur=start, current_player=start)

    def _first_state(self) -> State:
        if getattr(self, "_first", None) is None:
            with jax.ensure_compile_time_eval():  # computed here even inside a trace
                s = self.initial_state(DECK, jnp.int32(0))
                s = s.replace(observation=self.observation(s, s.current_player))
            self._first = jax.tree_util.tree_map(np.asarray, jax.device_get(s))
        return jax.tree_util.tree_map(jnp.asarray, self._first)

    def initial_state(self, cards: jax.Array, start: jax.Array) -> State:
        """The state at the first decision for a given deck order and start player (HUI-4 … HUI-6)."""
        n, r = self.n, self.r
        zeros_r = jnp.zeros(r, jnp.int32)
        false_r = jnp.zeros(r, bool)
        s = State(
            current_player=jnp.int32(0),
            observation=jnp.zeros(self.obs_size, jnp.float32),
            rewards=jnp.zeros(n, jnp.float32),
            terminated=jnp.bool_(False),
            truncated=jnp.bool_(False),
            legal_action_mask=jnp.zeros(self._num_actions, bool),
            _step_count=jnp.int32(0),
            pos=zeros_r, place=zeros_r, eat=false_r, miss=false_r, payout=false_r, last_cost=zeros_r,
            carrots=jnp.full(n, self.start_carrots, jnp.int32),
            lettuces=jnp.full(n, self.start_lettuces, jnp.int32),
            cards=jnp.asarray(cards, jnp.int32), top=jnp.int32(0), known_from=jnp.int32(NUM_CARDS),
            unresolved=jnp.int32(0),
            # turn = 1: the first turn has begun; the turn loop is not needed for it (nothing is
            # pending on Start and the start carrots always pay for a move to a free square)
            last_card=jnp.int32(-1), finished=jnp.int32(0), turn=jnp.int32(1),
            cur=jnp.asarray(start, jnp.int32), pending=jnp.int32(MOVE), card_runner=jnp.int32(-1),
            busy=false_r, over=jnp.bool_(False), final_places=jnp.zeros(n, jnp.int32),
        )
        return self._publish(s, jnp.bool_(False))

    # ---- step -----------------------------------------------------------------------------------
    def _step(self, state: State, action: jax.Array, key: jax.Array) -> State:
        uniforms = chance_stream(key, RESHUFFLE_UNIFORMS) if self.reshuffle else None
        s = state
        was_over = s.over
        action = jnp.asarray(action, jnp.int32)
        is_runner = action < self.give_up_base
        slot, offset = action // SLOT, action % SLOT
        runner = s.cur * self.rpp + jnp.where(is_runner, slot, jnp.clip(action - self.give_up_base, 0, self.rpp - 1))
        player = s.cur
        is_fwd = is_runner & (offset < BACK)
        is_back = is_runner & (offset == BACK)
        is_stay = is_runner & (offset >= TAKE)
        is_card = action >= self.card_base
        is_give_up = ~is_runner & ~is_card
        pos = _get(s.pos, runner)
        target = offset + 1
        # carrots: HUI-9 a forward move is paid before moving; HUI-10 a hedgehog back move gains 10
        # a square; HUI-11 stay (take / give 10) and the card choices of HUI-22 / HUI-25 (pass and
        # the declined extra move change nothing)
        back_to = _sq(PREV_HEDGEHOG, pos)
        cost = jnp.where(is_fwd, _cost(target - pos), 0)
        choice = action - self.card_base
        take = (is_stay & (offset == TAKE)) | (is_card & (s.pending == CARD_CARROTS) & (choice == 0))
        give = (is_stay & (offset == GIVE)) | (is_card & (s.pending == CARD_CARROTS) & (choice == 1))
        change = (jnp.where(take, data.CARROT_CHANGE, 0) - jnp.where(give, data.CARROT_CHANGE, 0) - cost
                  + jnp.where(is_back, data.HEDGEHOG_GAIN * (pos - back_to), 0))
        s = s.replace(carrots=_add(s.carrots, player, change),
                      last_cost=_put(s.last_cost, runner, cost, is_back | is_fwd),
                      pos=_put(s.pos, runner, back_to, is_back))
        # two runners, neither can act: the chosen runner gives up (HUI-16 / HUI-17)
        s = self._fallback(s, runner, is_give_up)
        # the forward move: onto the Goal it finishes; HUI-12 lettuce, HUI-14 number/flag, HUI-13 hare
        s = self._place(s, runner, target, is_fwd)
        on_track = is_fwd & (target != GOAL)
        s = self._arrive(s, runner, target, on_track)
        s, asked = self._on_rows(on_track & _sq(IS_HARE, target), self._draw_cards, self.draw_share, s, runner, uniforms)
        # the end of the turn (every card drawn in it resolved, HUI-13); a move onto the Goal that
        # ends the game leaves card_runner as it was
        ends = ~asked
        keep_card_runner = is_fwd & (target == GOAL) & s.over
        s = s.replace(pending=jnp.where(ends, MOVE, s.pending), unresolved=jnp.where(ends, 0, s.unresolved),
                      card_runner=jnp.where(ends & ~keep_card_runner, -1, s.card_runner))
        advance = ends & ~s.over
        s = self._next_player(s, advance)
        s = self._begin_turn(s, advance)
        return self._publish(s, was_over)

    def _publish(self, s: State, was_over: jax.Array) -> State:
        """pgx fields from the rules state: player to move, mask, termination, rewards."""
        ended = s.over & ~was_over
        # a game that has ended has nothing pending (the end of the step may have set MOVE again)
        s = s.replace(pending=jnp.where(s.over, OVER, s.pending))
        rewards = jnp.where(ended, self._rank_rewards(s.final_places), 0.0).astype(jnp.float32)
        return s.replace(
            current_player=jnp.where(s.over, 0, s.cur),  # as the env's agent_selection once over
            legal_action_mask=self.legal_mask(s),
            terminated=s.over,
            truncated=~s.over & (s.turn >= self.max_turns),
            rewards=rewards,
        )

    def _rank_rewards(self, places: jax.Array) -> jax.Array:
        """:func:`meadowzoo.envs.core.rewards.rank_rewards` in closed form: a team's place is its
        best member's; teams tied on a place share the mean of the slot values they occupy."""
        team_of = jnp.asarray(self.team_of)
        teams = sorted(set(self.team_of.tolist()))
        k = len(teams)
        team_place = jnp.stack([jnp.min(jnp.where(team_of == t, places, 1 << 20)) for t in teams])
        better = jnp.sum(team_place[None, :] < team_place[:, None], axis=1)
        equal = jnp.sum(team_place[None, :] == team_place[:, None], axis=1)
        value = 1.0 - 2.0 * (better + (equal - 1) / 2.0) / (k - 1)
        return value[jnp.searchsorted(jnp.asarray(teams), team_of)]

    # ---- rule helpers ---------------------------------------------------------------------------
    def _occupied_at(self, s: State, square: jax.Array) -> jax.Array:
        """A runner stands on track square ``square`` (False for Start and the Goal)."""
        return jnp.any(s.pos == square) & (square > 0) & (square < GOAL)

    def _has_move(self, s: State, runner: jax.Array, allow_stay: jax.Array) -> jax.Array:
        """``jnp.any(self.runner_moves(...))`` from tables and the runners (R wide, not 65): a free
        forward target within reach is a statically targetable square in reach (a prefix count)
        that no other runner stands on."""
        player = runner // self.rpp
        p = _get(s.pos, runner)
        c = _get(s.carrots, player)
        has_lettuce = _get(s.lettuces, player) > 0
        row = jnp.where(has_lettuce, NUM_POS, 0)  # the has-lettuce row of the flat tables
        top = jnp.minimum(p + MAX_REACH[jnp.clip(c, 0, MAX_REACH.shape[0] - 1)], GOAL - 1)
        blocking = (s.pos > p) & (s.pos <= top) & TARGETABLE_FLAT[row + s.pos]
        forward = TARGETS_UP_TO[row + top] - TARGETS_UP_TO[row + p] > jnp.sum(blocking)
        goal_cost = _cost(GOAL - p)
        goal = ~has_lettuce & (goal_cost <= c) & (
            self._first_runner_free(s, player) | (c - goal_cost <= data.FINISH_LIMIT * (s.finished + 1)))
        back_to = _sq(PREV_HEDGEHOG, p)
        back = (back_to > 0) & ~self._occupied_at(s, back_to)
        return forward | goal | back | (allow_stay & _sq(IS_CARROT, p))

    def _race_position(self, s: State, runner: jax.Array) -> jax.Array:
        """HUI-15: finished runners first, then track runners by square, runners on Start last."""
        p = _get(s.pos, runner)
        place = _get(s.place, runner)
        ahead = jnp.sum((s.pos > p) & (s.place == 0) & (s.pos != data.START))
        return jnp.where(place > 0, place, s.finished + ahead + 1)

    def _first_runner_free(self, s: State, player: jax.Array) -> jax.Array:
        """HUI-18: the first runner home of a two-runner player may keep any carrots."""
        if self.rpp == 1:
            return jnp.bool_(False)
        return ~jnp.any((s.place > 0) & (jnp.arange(self.r) // 2 == player))

    def _can_finish(self, s: State, player: jax.Array, carrots_after: jax.Array) -> jax.Array:
        """HUI-18 for ``carrots_after`` carrots after paying."""
        limit_ok = self._first_runner_free(s, player) | (carrots_after <= data.FINISH_LIMIT * (s.finished + 1))
        return (_get(s.lettuces, player) == 0) & (carrots_after >= 0) & limit_ok

    def runner_moves(self, s: State, runner: jax.Array, allow_stay: jax.Array) -> jax.Array:
        """bool[67]: the legal actions of one runner slot block (forward 1..64, back, take, give)."""
        player = runner // self.rpp
        p = _get(s.pos, runner)
        c = _get(s.carrots, player)
        has_lettuce = _get(s.lettuces, player) > 0
        # HUI-9: free targetable squares within the distance the carrots pay for, as bits
        top = jnp.minimum(p + MAX_REACH[jnp.clip(c, 0, MAX_REACH.shape[0] - 1)], GOAL - 1)
        targetable = jnp.where(has_lettuce, jnp.asarray(TARGETABLE_WORDS[1]), jnp.asarray(TARGETABLE_WORDS[0]))
        free = _squares_upto(top) & ~_squares_upto(p) & targetable & ~_occupied_words(s.pos)
        word = jnp.where(jnp.asarray(_FORWARD_WORD) == 0, free[0], free[1])
        forward = ((word >> jnp.asarray(_FORWARD_BIT)) & _U32(1)).astype(jnp.bool_)
        goal_cost = _cost(GOAL - p)
        goal = ~has_lettuce & (goal_cost <= c) & (
            self._first_runner_free(s, player) | (c - goal_cost <= data.FINISH_LIMIT * (s.finished + 1)))
        back_to = _sq(PREV_HEDGEHOG, p)
        back = (back_to > 0) & ~self._occupied_at(s, back_to)
        stay = allow_stay & _sq(IS_CARROT, p)
        give = stay & (c >= data.CARROT_CHANGE)
        return jnp.concatenate([forward, jnp.stack([goal, back, stay, give])])

    def _available(self, s: State, runner: jax.Array) -> jax.Array:
        return (_get(s.place, runner) == 0) & ~_get(s.busy, runner)

    def legal_mask(self, s: State) -> jax.Array:
        """bool[A]: the PettingZoo env's action mask of the player to move (all False once over)."""
        blocks = []
        moving = (s.pending == MOVE) | (s.pending == EXTRA_MOVE)
        for slot in range(self.rpp):
            runner = s.cur * self.rpp + slot
            allowed = moving & jnp.where(s.pending == MOVE, self._available(s, runner), runner == s.card_runner)
            blocks.append(self.runner_moves(s, runner, s.pending == MOVE) & allowed)
        if self.rpp == 2:
            blocks.append(jnp.stack([(s.pending == STUCK) & self._available(s, s.cur * 2 + k) for k in range(2)]))
        card = s.pending == CARD_CARROTS
        can_give = _get(s.carrots, s.cur) >= data.CARROT_CHANGE
        blocks.append(jnp.stack([card, card & can_give, card | (s.pending == EXTRA_MOVE)]))
        return jnp.concatenate(blocks) & ~s.over

    def _place(self, s: State, runner: jax.Array, target: jax.Array, do: jax.Array) -> State:
        """Put the runner on ``target``; onto the Goal it finishes (HUI-18 / HUI-19)."""
        s = s.replace(pos=_put(s.pos, runner, target, do))
        return self._finish(s, runner, do & (target == GOAL))

    def _arrive(self, s: State, runner: jax.Array, square: jax.Array, do: jax.Array) -> State:
        """Marks of an arrival on a track square: eat next turn (HUI-12 lettuce), check the payout
        next turn (HUI-14 number/flag). The hare square's draw is the caller's."""
        lettuce = _sq(IS_LETTUCE, square)
        hot = _hot(runner, self.r) & do
        return s.replace(eat=s.eat | (hot & lettuce), payout=s.payout | (hot & ~lettuce & _sq(PAYS_ANY, square)))

    def _finish(self, s: State, runner: jax.Array, do: jax.Array) -> State:
        finished = s.finished + do.astype(jnp.int32)
        hot = _hot(runner, self.r) & do
        place = jnp.where(hot, finished, s.place)
        s = s.replace(finished=finished, place=place, eat=s.eat & ~hot, miss=s.miss & ~hot, payout=s.payout & ~hot)
        player = runner // self.rpp
        team_of = jnp.asarray(self.team_of)
        if self.rpp == 2:  # the first player with both runners home wins
            over = do & ~jnp.any((place == 0) & (jnp.arange(self.r) // 2 == player))
        elif self.teams:  # the first team with all runners home wins
            over = do & jnp.all((place > 0) | (team_of != _get(team_of, player)))
        else:  # until one runner is left; ranking = finishing order, the remaining runner last
            over = do & (self.r - finished <= 1)
        if self.rpp == 2 or self.teams:
            places = jnp.where(team_of == _get(team_of, player), 0, 1)
        else:
            places = jnp.where(place > 0, place - 1, self.r - 1)
        return s.replace(over=s.over | over, pending=jnp.where(over, OVER, s.pending),
                         final_places=jnp.where(over, places, s.final_places).astype(jnp.int32))

    def _fallback(self, s: State, runner: jax.Array, do: jax.Array) -> State:
        """A runner without legal action: final-stretch move back (HUI-17) or back to Start (HUI-16)."""
        player = runner // self.rpp
        p = _get(s.pos, runner)
        c = _get(s.carrots, player)
        in_stretch = (p >= FINAL_STRETCH[0]) & (p <= FINAL_STRETCH[1])
        cost = _cost(GOAL - p)
        blocked = (_get(s.lettuces, player) > 0) | ((cost <= c) & ~self._can_finish(s, player, c - cost))
        occupied_hedgehogs = jnp.any(s.pos[:, None] == HEDGEHOGS[None, :], axis=0)
        hedgehog = jnp.max(jnp.where((HEDGEHOGS < p) & ~occupied_hedgehogs, HEDGEHOGS, -1))
        back = do & in_stretch & blocked & (hedgehog >= 0)
        to_start = do & ~back
        carrots = jnp.where(back, c + data.HEDGEHOG_GAIN * (p - hedgehog), jnp.where(to_start, self.start_carrots, c))
        cleared = _hot(runner, self.r) & to_start
        return s.replace(pos=_put(s.pos, runner, jnp.where(back, hedgehog, data.START), do),
                         carrots=_put(s.carrots, player, carrots),
                         eat=s.eat & ~cleared, miss=s.miss & ~cleared, payout=s.payout & ~cleared)

    def _check_payout(self, s: State, runner: jax.Array, do: jax.Array) -> State:
        """HUI-14: a number/flag square pays 10 × the race position if the position matches."""
        hot = _hot(runner, self.r) & do & s.payout
        position = self._race_position(s, runner)
        pays = jnp.any(hot) & ((_sq(PAYS_BITS, _get(s.pos, runner)) >> position) & 1 == 1)
        return s.replace(payout=s.payout & ~hot,
                         carrots=_add(s.carrots, runner // self.rpp, jnp.where(pays, data.PAYOUT_GAIN * position, 0)))

    def _eat_lettuce(self, s: State, runner: jax.Array, do: jax.Array) -> State:
        """HUI-12 / HUI-26: eat one lettuce (if any left) for 10 × the race position."""
        player = runner // self.rpp
        eats = do & (_get(s.lettuces, player) > 0)
        gain = data.LETTUCE_GAIN * self._race_position(s, runner)
        return s.replace(lettuces=_add(s.lettuces, player, -eats.astype(jnp.int32)),
                         carrots=_add(s.carrots, player, jnp.where(eats, gain, 0)))

    # ---- hare cards (HUI-13, HUI-21 … HUI-28) ----------------------------------------------------
    def _draw_cards(self, s: State, runner: jax.Array, uniforms: jax.Array | None) -> tuple[State, jax.Array]:
        """Draw for an arrival on a hare square (run by :meth:`_on_rows` on the games that arrive on
        one); with ``chain_hare_cards`` a card that moves the runner onto another hare square draws
        again. Returns the state and whether a decision is pending."""
        s, asked, again = self._draw(s, runner, jnp.bool_(True), uniforms)
        if not self.chain:
            return s, asked

        def more(carry):
            return carry[2]

        def draw_again(carry):
            s, asked, again = carry
            s, asked_now, again = self._draw(s, runner, again, uniforms)
            return s, asked | asked_now, again

        s, asked, _ = jax.lax.while_loop(more, draw_again, (s, asked, again))
        return s, asked

    def _draw(self, s: State, runner: jax.Array, do: jax.Array, uniforms: jax.Array | None):
        """Draw the top hare card and resolve it (where ``do``). Returns the state, whether a
        decision is now pending and whether the card moved the runner onto a hare square that draws
        again (``chain_hare_cards``)."""
        cards, top, known_from, held = s.cards, s.top, s.known_from, s.unresolved
        slots = jnp.arange(NUM_CARDS, dtype=jnp.int32)
        if self.reshuffle:
            # the discard pile (cards[:12] in resolution order) becomes the new deck, without the
            # ``held`` cards at its end still being resolved (HUI-13): they stay the discard pile
            empty = do & (top == NUM_CARDS)
            order = reshuffle_order(uniforms, NUM_CARDS - held)
            source = jnp.where(slots < held, NUM_CARDS - held + slots, _gather(order, slots - held))
            cards = jnp.where(empty, _gather(cards, source), cards)
            top = jnp.where(empty, held, top)
            known_from = jnp.where(empty, NUM_CARDS - held, known_from)
        card = _get(cards, top % NUM_CARDS)
        # HUI-13 DECK ORDER: a card goes under the deck (onto the discard pile) once resolved,
        # before the ``held`` cards drawn earlier this turn whose resolution drew it. Those lie
        # already where they will go, at cards[top - held .. top - 1] (mod 12); advancing ``top``
        # puts this card after them, so the segment cards[top - held .. top] rotates by one to
        # put it before them, as the reference's _draw_card does.
        behind = (top - slots) % NUM_CARDS  # how far a slot lies behind the top
        cards = jnp.where(behind == held, card, jnp.where(behind < held, jnp.roll(cards, 1), cards))
        next_top = top + 1 if self.reshuffle else (top + 1) % NUM_CARDS
        s = s.replace(cards=jnp.where(do, cards, s.cards), top=jnp.where(do, next_top, top),
                      known_from=jnp.where(do, jnp.maximum(known_from - 1, 0), known_from),
                      last_card=jnp.where(do, card, s.last_card), unresolved=held + do.astype(jnp.int32))
        player = runner // self.rpp
        p = _get(s.pos, runner)
        hot = _hot(runner, self.r)
        occupied = _occupied_words(s.pos)

        def kind(name: str) -> jax.Array:
            return do & (card == K[name])

        # HUI-21 miss a turn; HUI-26 eat a lettuce; HUI-24 last move free
        free = kind(data.LAST_MOVE_FREE)
        s = s.replace(miss=s.miss | (hot & kind(data.MISS_TURN)), eat=s.eat | (hot & kind(data.EAT_LETTUCE)),
                      carrots=_add(s.carrots, player, jnp.where(free, _get(s.last_cost, runner), 0)),
                      last_cost=_put(s.last_cost, runner, 0, free))
        # HUI-22 forward / back to the nearest carrot square, if free; then take, give or pass
        forward = kind(data.FORWARD_TO_CARROT)
        carrot = jnp.where(forward, _sq(NEXT_CARROT, p), _sq(PREV_CARROT, p))
        to_carrot = (forward | kind(data.BACK_TO_CARROT)) & (carrot > 0) & ~self._occupied_at(s, carrot)
        s = s.replace(pos=_put(s.pos, runner, carrot, to_carrot))
        # HUI-27 fall back / HUI-28 move up one position (computed on the state before the card)
        fall_back = kind(data.FALL_BACK)
        moved_to = jnp.where(fall_back, self._fall_back_target(s, runner, occupied), self._move_up_target(s, runner, occupied))
        moves = (fall_back | kind(data.MOVE_UP)) & (moved_to >= 0)
        s = self._place(s, runner, moved_to, moves)
        arrives = moves & (moved_to != GOAL)
        s = self._arrive(s, runner, moved_to, arrives)
        again = arrives & _sq(IS_HARE, moved_to) & self.chain
        s = s.replace(last_cost=_put(s.last_cost, runner, 0, again))
        # decisions: HUI-22 / HUI-25 take, give or pass; HUI-23 move again
        carrot_choice = to_carrot | kind(data.TAKE_OR_GIVE_10)
        extra = kind(data.MOVE_AGAIN)
        asked = carrot_choice | extra
        s = s.replace(pending=jnp.where(carrot_choice, CARD_CARROTS, jnp.where(extra, EXTRA_MOVE, s.pending)),
                      card_runner=jnp.where(asked, runner, s.card_runner))
        return s, asked, again

    def _fall_back_target(self, s: State, runner: jax.Array, occupied: jax.Array) -> jax.Array:
        """HUI-27: first free square behind the track runner directly behind; −1 = no effect
        (``occupied``: :func:`_occupied_words`)."""
        p = _get(s.pos, runner)
        behind = jnp.max(jnp.where((s.pos > 0) & (s.pos < p) & (s.place == 0), s.pos, -1))
        has_lettuce = _get(s.lettuces, runner // self.rpp) > 0
        allowed = jnp.where(has_lettuce, _U32(_ALL_BITS), jnp.asarray(NOT_LETTUCE_WORDS))
        square = _highest_square(_squares_upto(behind - 1) & ~_squares_upto(0) & ~occupied & allowed)
        return jnp.where(behind < 0, -1, jnp.where(square >= 0, square, data.START))

    def _move_up_target(self, s: State, runner: jax.Array, occupied: jax.Array) -> jax.Array:
        """HUI-28: first free square ahead of the track runner directly ahead; −1 = no effect
        (``occupied``: :func:`_occupied_words`)."""
        p = _get(s.pos, runner)
        player = runner // self.rpp
        ahead = jnp.min(jnp.where((s.pos > p) & (s.pos < GOAL) & (s.place == 0), s.pos, NUM_POS))
        has_lettuce = _get(s.lettuces, player) > 0
        allowed = jnp.where(has_lettuce, _U32(_ALL_BITS), jnp.asarray(NOT_LETTUCE_WORDS))
        square = _lowest_square(~_squares_upto(ahead) & jnp.asarray(NO_HEDGEHOG_TRACK_WORDS) & ~occupied & allowed)
        goal = jnp.where(self._can_finish(s, player, _get(s.carrots, player)), GOAL, -1)
        return jnp.where(ahead == NUM_POS, -1, jnp.where(square < NUM_POS, square, goal))

    # ---- the turn loop (HUI-7, HUI-16, HUI-17, HUI-30) ---------------------------------------------
    def _begin_turn(self, s: State, pending: jax.Array) -> State:
        """Run the automatic parts of turns from player ``cur`` on until a decision is pending (or,
        where ``pending`` is False, do nothing)."""
        body = self._one_runner_turn if self.rpp == 1 else self._two_runner_turn
        # the first pass: nearly every game of a batch begins a turn in a step, and most have a
        # decision after it (random play: 86% of the games with 2 players, 76% with 4)
        s, pending = body(s, pending)

        def more_turns(s: State) -> tuple[State]:
            def go_on(carry):
                return carry[1]

            s, _ = jax.lax.while_loop(go_on, lambda carry: body(*carry), (s, jnp.bool_(True)))
            return (s,)

        # the rest on the games that need it: under vmap a while_loop makes as many passes over the
        # whole batch as its slowest game needs (2.05 passes with 2 players, 3.6 with 4, at 512 games)
        return self._on_rows(pending, more_turns, self.turn_share, s)[0]

    def _on_rows(self, pred: jax.Array, fn, share: float, s: State, *extra):
        """``fn(s, *extra)`` (a tuple: the state and values of the caller's) where ``pred``, else
        ``(s, False…)``: under ``vmap`` only on the games that take it (:func:`rows_cond`, at
        most ``share`` of the batch, else every game). The rules never read the observation and
        the mask, which ``_publish`` and the core write after the step, so they are left out of
        the rows gathered and scattered."""
        observation, mask = s.observation, s.legal_action_mask
        bare = s.replace(observation=jnp.zeros((0,), jnp.float32), legal_action_mask=jnp.zeros((0,), jnp.bool_))
        shapes = jax.eval_shape(fn, bare, *extra)[1:]  # what fn returns besides the state: False / 0 where skipped
        skipped = (bare,) + tuple(jnp.zeros(x.shape, x.dtype) for x in shapes)

        def apply(operand):
            state, _, args = operand
            out = fn(state, *args)
            return out[0], out[1:], args

        out, values, _ = rows_cond(pred, apply, (bare, skipped[1:], extra), share=share)
        return (out.replace(observation=observation, legal_action_mask=mask),) + tuple(values)

    def _next_player(self, s: State, advance: jax.Array) -> State:
        return s.replace(cur=jnp.where(advance, (s.cur + 1) % self.n, s.cur))

    def _one_runner_turn(self, s: State, pending: jax.Array) -> tuple[State, jax.Array]:
        p = s.cur  # player p has runner p
        hot = _hot(p, self.r)
        plays = pending & (_get(s.place, p) == 0)  # a player home is skipped
        s = s.replace(turn=s.turn + plays.astype(jnp.int32))
        s = self._check_payout(s, p, plays)  # HUI-7a / HUI-14
        eats = plays & _get(s.eat, p)  # HUI-12 / HUI-26
        misses = plays & ~eats & _get(s.miss, p)  # HUI-21
        s = s.replace(eat=s.eat & ~(hot & eats), miss=s.miss & ~(hot & misses))
        s = self._eat_lettuce(s, p, eats)
        moves = plays & ~eats & ~misses
        s = s.replace(pending=jnp.where(moves, MOVE, s.pending), busy=s.busy & ~moves)
        decides = moves & self._has_move(s, p, jnp.bool_(True))
        s = self._fallback(s, p, moves & ~decides)  # HUI-16 / HUI-17: no legal action
        pending = pending & ~decides
        return self._next_player(s, pending), pending

    def _two_runner_turn(self, s: State, pending: jax.Array) -> tuple[State, jax.Array]:
        """HUI-30: both runners' automatic parts (runner A first), then a move of a runner that is
        free; with none free the turn ends; neither free runner able to act: the player chooses."""
        p = s.cur
        a, b = 2 * p, 2 * p + 1
        plays = pending & ~jnp.all((s.place > 0) | (jnp.arange(self.r) // 2 != p))  # both home: skipped
        s = s.replace(turn=s.turn + plays.astype(jnp.int32))
        busy = jnp.zeros_like(s.busy)
        for runner in (a, b):
            hot = _hot(runner, self.r)
            racing = plays & (_get(s.place, runner) == 0)
            s = self._check_payout(s, runner, racing)
            eats = racing & _get(s.eat, runner)
            misses = racing & ~eats & _get(s.miss, runner)
            s = s.replace(eat=s.eat & ~(hot & eats), miss=s.miss & ~(hot & misses))
            s = self._eat_lettuce(s, runner, eats)
            busy = busy | (hot & (eats | misses))
        s = s.replace(busy=jnp.where(plays, busy, s.busy), pending=jnp.where(plays, MOVE, s.pending))
        free_a = plays & self._available(s, a)
        free_b = plays & self._available(s, b)
        true = jnp.bool_(True)
        can_a = free_a & self._has_move(s, a, true)
        can_b = free_b & self._has_move(s, b, true)
        decides = can_a | can_b
        one_free = ~decides & (free_a != free_b)
        s = self._fallback(s, jnp.where(free_a, a, b), one_free)  # HUI-16 / HUI-17
        stuck = ~decides & free_a & free_b  # DECISION two_runner_stuck: the player chooses
        s = s.replace(pending=jnp.where(stuck, STUCK, s.pending))
        pending = pending & ~decides & ~stuck
        return self._next_player(s, pending), pending

    # ---- observation ----------------------------------------------------------------------------
    def _build_observation_tables(self) -> None:
        n, r, rpp = self.n, self.r, self.rpp
        self.obs_size = (pz_env.RUNNER_FEATURES * r + pz_env.PLAYER_FEATURES * n + pz_env.DECK_FEATURES
                         + pz_env.NUM_DECISIONS + rpp + 1)
        scale = 1.0 / r
        # as the env's byte tables: float64 products cast to float32
        self._place_value = np.array([k * scale for k in range(r + 1)], np.float32)  # by place k
        self._rank_value = np.array([(r + 1 - k) * scale for k in range(r + 1)], np.float32)  # by #at or behind
        self._lettuce_value = np.array([x * (1.0 / self.start_lettuces) for x in range(self.start_lettuces + 1)],
                                       np.float32)
        turns = np.arange(self.max_turns + 1)
        self._progress_value = np.minimum(1.0, turns / self.max_turns).astype(np.float32)  # the env's table

    def _observe(self, s: State, player_id: jax.Array) -> jax.Array:
        return self.observation(s, player_id)

    def observation(self, s: State, seat: jax.Array) -> jax.Array:
        """float32[obs_size]: the PettingZoo env's observation vector of ``seat``."""
        n, r, rpp = self.n, self.r, self.rpp
        seat = jnp.asarray(seat, jnp.int32)
        # the runners and players in turn order from the observer, as one-hot permutations
        seats = (seat + jnp.arange(n, dtype=jnp.int32)) % n
        runner_order = (seats[:, None] * rpp + jnp.arange(rpp, dtype=jnp.int32)).reshape(r)
        by_runner = runner_order[:, None] == jnp.arange(r, dtype=jnp.int32)  # [k, runner]
        by_seat = seats[:, None] == jnp.arange(n, dtype=jnp.int32)  # [k, player]

        def ordered(values: jax.Array, hot: jax.Array) -> jax.Array:
            return jnp.sum(jnp.where(hot, values[None, :], 0), axis=1, dtype=values.dtype)

        pos, place = ordered(s.pos, by_runner), ordered(s.place, by_runner)
        at_or_behind = jnp.sum(s.pos[None, :] <= pos[:, None], axis=1)
        placed = place > 0
        place_value = jnp.asarray(self._place_value)[place]
        race = jnp.where(placed, place_value, jnp.asarray(self._rank_value)[at_or_behind])
        flags = jnp.stack([s.eat, s.miss, s.payout], axis=1)  # [runner, 3]
        runner_flags = jnp.any(by_runner[:, :, None] & flags[None, :, :], axis=1)
        team_of = jnp.asarray(self.team_of)
        to_move = jnp.where(s.over, -1, s.cur)
        players = jnp.stack([
            carrots_feature(ordered(s.carrots, by_seat)),
            jnp.asarray(self._lettuce_value)[ordered(s.lettuces, by_seat)],
            (ordered(team_of, by_seat) == _get(team_of, seat)).astype(jnp.float32),
            (seats == to_move).astype(jnp.float32),
        ], axis=1)
        # the blocks of env.py's observation in order, written into zeros (SparseObservation)
        obs = SparseObservation()
        for k in range(r):
            obs.one_hot(pos[k], NUM_POS)
            obs.dense(jnp.concatenate([runner_flags[k].astype(jnp.float32), race[k, None],
                                       jnp.where(placed[k], place_value[k], 0.0)[None]]))
        obs.dense(players)
        self.write_deck_features(obs, s)
        obs.one_hot(jnp.where(s.over, -1, s.pending), pz_env.NUM_DECISIONS)
        obs.one_hot(jnp.where(s.card_runner >= 0, s.card_runner % rpp, -1), rpp)
        obs.dense(jnp.asarray(self._progress_value)[jnp.minimum(s.turn, self.max_turns)])
        return obs.build()

    def write_deck_features(self, obs: SparseObservation, s: State) -> None:
        """The hare-deck block: the next 12 draws (kind one-hot if public, else "unknown"; none past
        the deck's end), counts of the unseen cards / 2, the last card drawn."""
        slots = jnp.arange(pz_env.DECK_SLOTS, dtype=jnp.int32)
        deck_len = NUM_CARDS - s.top if self.reshuffle else NUM_CARDS
        at = ((s.top + slots) % NUM_CARDS)[:, None] == jnp.arange(NUM_CARDS, dtype=jnp.int32)
        cards = jnp.sum(jnp.where(at, s.cards[None, :], 0), axis=1)  # the deck from the top
        shown = jnp.where(slots >= s.known_from, cards, pz_env.NUM_KINDS)
        obs.one_hots(jnp.where(slots < deck_len, shown, -1), pz_env.CARD_FEATURES)
        unseen = jnp.where(slots < s.known_from, cards, -1)
        obs.dense(jnp.sum(unseen[:, None] == jnp.arange(pz_env.NUM_KINDS), axis=0) * 0.5)
        obs.one_hot(s.last_card, pz_env.NUM_KINDS)

    def deck_features(self, s: State) -> jax.Array:
        """The hare-deck block of the observation on its own (:meth:`write_deck_features`)."""
        obs = SparseObservation()
        self.write_deck_features(obs, s)
        return obs.build()

    # ---- hidden information --------------------------------------------------------------------------
    def resample_hidden(self, s: State, observer, key: jax.Array) -> State:
        """As the reference's ``resample_hidden``: the unseen top of the hare deck (the first
        ``known_from`` cards from ``top``; their kinds are public) put in kind order and shuffled
        by :func:`reshuffle_order` on ``key``'s stream; the rest of the deck and the discard pile
        stay. Nothing else is hidden (the observer does not matter). See
        :meth:`MeadowJaxEnv.resample_hidden`."""
        del observer
        slots = jnp.arange(NUM_CARDS, dtype=jnp.int32)
        index = (s.top + slots) % NUM_CARDS  # where the k-th card from the top lies in ``cards``
        deck = _gather(s.cards, index)
        unseen = slots < s.known_from
        kinds = jnp.sort(jnp.where(unseen, deck, jnp.iinfo(jnp.int32).max))
        shuffled = _gather(kinds, reshuffle_order(chance_stream(key, NUM_CARDS - 1), s.known_from))
        deck = jnp.where(unseen, shuffled, deck)
        s = s.replace(cards=_gather(deck, (slots - s.top) % NUM_CARDS))  # back from the top's order
        return s.replace(observation=self._observe(s, s.current_player))

    # ---- conversion, places, chance (the MeadowJaxEnv hooks) ---------------------------------------
    def to_game_dict(self, state: State) -> dict:
        """The reference engine's ``to_dict()`` of an unbatched state, without its ``rng``."""
        s = jax.device_get(state)
        cards, top = [int(c) for c in np.asarray(s.cards)], int(s.top)
        deck, discard = (cards[top:], cards[:top]) if self.reshuffle else (cards[top:] + cards[:top], [])
        ints = lambda a: [int(x) for x in np.asarray(a)]  # noqa: E731
        bools = lambda a: [bool(x) for x in np.asarray(a)]  # noqa: E731
        over = bool(s.over)
        return {
            "num_players": self.n,
            "two_runners": self.rpp == 2,
            "teams": self.teams,
            "chain_hare_cards": self.chain,
            "reshuffle_deck": self.reshuffle,
            "pos": ints(s.pos),
            "place": ints(s.place),
            "eat": bools(s.eat),
            "miss": bools(s.miss),
            "payout": bools(s.payout),
            "last_cost": ints(s.last_cost),
            "carrots": ints(s.carrots),
            "lettuces": ints(s.lettuces),
            "deck": deck,
            "discard": discard,
            "known_from": int(s.known_from),
            "unresolved": int(s.unresolved),
            "last_card": int(s.last_card),
            "turn": int(s.turn),
            "current": int(s.cur),
            "pending": rules.DECISIONS[int(s.pending)],
            "card_runner": int(s.card_runner),
            "busy": [i for i, b in enumerate(bools(s.busy)) if b],
            "over": over,
            "final_places": ints(s.final_places) if over else [],
        }

    def from_game(self, game: rules.HaseUndIgelGame) -> State:
        """The JAX state (unbatched) of a reference game (a validated ``HaseUndIgelGame``)."""
        if (game.num_agents, game.rpp, game.team_layout, game.chain_hare_cards, game.reshuffle_deck) != (
                self.n, self.rpp, self.teams, self.chain, self.reshuffle):
            raise ValueError("the game's configuration does not fit this engine's options "
                             f"{ {k: v for k, v in self.options.items() if k != 'max_turns'} }")
        cards, top = (game.discard + game.deck, len(game.discard)) if self.reshuffle else (game.deck, 0)
        if len(cards) != NUM_CARDS or (not self.reshuffle and game.discard):
            raise ValueError("the game's hare deck and discard pile must hold the 12 cards")
        ints = lambda x: jnp.asarray(np.asarray(x, np.int32))  # noqa: E731
        bools = lambda x: jnp.asarray(np.asarray(x, bool))  # noqa: E731
        s = State(
            current_player=jnp.int32(0), observation=jnp.zeros(self.obs_size, jnp.float32),
            rewards=jnp.zeros(self.n, jnp.float32), terminated=jnp.bool_(False), truncated=jnp.bool_(False),
            legal_action_mask=jnp.zeros(self._num_actions, bool), _step_count=jnp.int32(0),
            pos=ints(game.pos), place=ints(game.place), eat=bools(game.eat), miss=bools(game.miss),
            payout=bools(game.payout), last_cost=ints(game.last_cost), carrots=ints(game.carrots),
            lettuces=ints(game.lettuces), cards=ints(cards), top=jnp.int32(top), known_from=jnp.int32(game.known_from),
            unresolved=jnp.int32(game.unresolved),
            last_card=jnp.int32(game.last_card), finished=jnp.int32(game.finished), turn=jnp.int32(game.turn),
            cur=jnp.int32(game.cur), pending=jnp.int32(game.pending), card_runner=jnp.int32(game.card_runner),
            busy=bools([r in game._busy for r in range(self.r)]), over=jnp.bool_(game.over),
            final_places=ints(game.final_places if game.over else [0] * self.n),
        )
        return self._completed(s)

    @property
    def _completed(self):
        """jit of: the pgx fields of a state built from a reference game (no rewards: the game did
        not end on this step), compiled once per engine."""
        if getattr(self, "_completed_fn", None) is None:
            def complete(s: State) -> State:
                s = self._publish(s, jnp.bool_(True))
                return s.replace(observation=self.observation(s, s.current_player))

            self._completed_fn = jax.jit(complete)
        return self._completed_fn

    def scores(self, state: State) -> jax.Array:
        """Every player's standing as a score (higher is better): once over minus the final place;
        before, minus the best race position (HUI-15) among the player's runners."""
        racing = jnp.stack([self._race_position(state, jnp.int32(r)) for r in range(self.r)])
        best = jnp.min(racing.reshape(self.n, self.rpp), axis=1)
        return jnp.where(state.over, -state.final_places, -best).astype(jnp.int32)

    def final_places(self, state: State) -> jax.Array:
        """The reference's ``places()``: finishing order, or with two runners or teams 0 for the
        winning side and 1 for everybody else."""
        return state.final_places

    def standing_rewards(self, state: State) -> jax.Array:
        """The standing of a race cut short (:func:`meadowzoo.envs.hase_und_igel.standing.race_places`):
        players ranked by the sum of their runners' race positions (HUI-15), ties sharing, then
        rank rewards with teams."""
        racing = jnp.stack([self._race_position(state, jnp.int32(r)) for r in range(self.r)])
        keys = racing.reshape(self.n, self.rpp).sum(axis=1)
        places = jnp.sum(keys[None, :] < keys[:, None], axis=1)
        return self._rank_rewards(places).astype(jnp.float32)

    def feed_chance(self, game: rules.HaseUndIgelGame, key: jax.Array) -> None:
        """Let the reference ``game`` reshuffle as ``step(..., key)`` does (see Chance)."""
        if self.reshuffle:
            game.rng = StreamRandom(host_stream(key, RESHUFFLE_UNIFORMS))
