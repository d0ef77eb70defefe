"""Volle Wolle — batched JAX engine (``pgx.Env``), identical to the PettingZoo env.

Rules VW-1 … VW-17 of ``docs/rules/volle_wolle.md`` as in the reference forward model
:mod:`meadowzoo.envs.volle_wolle.rules` (every DECISION note there holds here too); pure and
functional, for ``jax.jit`` and ``jax.vmap`` on CPU and GPU. Built by
``meadowzoo.jax.make("volle_wolle", num_players=4)``; the shared core is
:mod:`meadowzoo.envs.core.jax_core`.

====================  ===============================================================
Interface             ``pgx.Env`` (pgx 2.x): ``init(key)``, ``step(state, action, key)``
Players               ``num_players`` = 2..6 (default 4), seats 0..n-1 = ``player_0 …``
Actions               27, the PettingZoo env's indices (below)
Legal mask            ``state.legal_action_mask``, bool (27,); all true once terminated (Pgx)
Observation           ``state.observation`` (of ``state.current_player``),
                      ``env.observe_player(state, p)``, ``env.observe_all(state)``: float32
                      (22 + 11·(n+1) + T + 20·n,), the PettingZoo env's vector exactly
Rewards               ``state.rewards`` (n,) float32, at the final step only: by rank
Options               ``num_players``, ``deck`` (None, a path or a list of 60 card dicts),
                      ``truncation_scoring`` (taken; a game is never cut)
====================  ===============================================================

Observation and actions
-----------------------
Exactly those of :mod:`meadowzoo.envs.volle_wolle.env` (see its tables): the observation of
player ``p`` equals ``raw_env.observe(f"player_{p}")["observation"]`` and the mask
``raw_env.observe(agent)["action_mask"]`` of the player to move, at every decision (proven by
:mod:`meadowzoo.envs.core.jax_harness`), so a policy trained on either plays the other unchanged.
Actions: 0..12 bid 14..25, 26+; 13 claim; 14 decline; 15..17 keep d12/d10/d8; 18 avoid black
sheep; 19 take black sheep; 20..26 take display card 1..7.

Pgx conventions: ``current_player`` is the player to move (0 once the game is over, as the
PettingZoo env's ``agent_selection``); an illegal action ends the game with −1 for the mover and
+1/(n−1) for the others; a step on a finished game changes nothing and gives zero rewards;
``truncated`` stays false (a game ends within 60 cards; wrap with a time limit if wanted).

State
-----
``state._x`` (:class:`GameState`) holds the reference game's state card by card (shapes fixed by
``num_players`` n): ``pile`` (60 card ids; the first ``pile_len`` are the draw pile, drawn from
the end; while ``lazy`` they are still unordered and ordered as they are dealt from the stream
of ``seed``, see Chance), ``loc`` (per card: −1 pile, −2 display, p = held by player p: herd, dogs or the bone),
``hpos`` (per held card: its position in the herd, or among the dogs), ``herd_len``,
``dog_len``, ``top`` (top card per player, −1 none), ``display`` (n+1 slots, −1 empty) and
``dkind`` (their card kinds, −1 empty), running
totals the reference also keeps (``counts`` of white / black / 3-7-0 / 0-0-7 sheep, ``printed``
points, ``low1``/``low2`` the two lowest white sheep, 2**20 for none) and ``pile_types`` (the draw
pile by card type), and the
reference's scalars and lists of the same names: ``back``, ``wool``, ``supply``, ``round``,
``turns``, ``dice``, ``bids``, ``revealed``, ``order`` (meaningful once revealed), ``pos``,
``attempt``, ``kept``, ``base``, ``bonus``, ``neg``, ``target``, ``can_claim``, ``picks``,
``black_only``, ``pending`` (the decision: bid, roll, black, pick, over; named by the
reference's ``DECISIONS``) and ``cur``; ``turns`` counts player turns begun, as the reference's
``turn`` (every bid, every turn in bid order). The bone holder is
``loc[bone card]`` when it is held. :meth:`VolleWolleJax.to_game_dict` gives the reference's
``to_dict()``; :meth:`~meadowzoo.envs.core.jax_core.MeadowJaxEnv.to_snapshot` /
``from_snapshot`` convert both ways with the PettingZoo env's snapshots.

A step applies the action, then resolves everything that needs no decision as the reference's
``apply`` does (rolls, forced successes and failures, wool, picks whose order cannot matter, the
next players) in a ``lax.while_loop`` of player turns until the next decision or the round's
end; then applies the cards taken and, at a round's end, deals the next round (or ends the game).

Speed
-----
Under ``vmap`` a ``lax.cond`` computes both branches, and the resolve loop runs as many passes as
the slowest game of the batch needs (about a player turn per pass; two at batch 1024 in random
play, see :meth:`VolleWolleJax._resolve` for the stage order that keeps it there). So the
loop carries only the small :class:`Turn` (display, wool, dice, turn counters): a take is only
recorded per display slot (taker and rank) and :meth:`VolleWolleJax._apply_takes` applies the
step's takes to the 60-card arrays and running totals once, after the loop; a new round is dealt
once per step, after it, and under ``vmap`` only on the games whose round ended
(:func:`~meadowzoo.envs.core.jax_rows.rows_cond`: 4 players ×1.14–1.19, 2 players ×1.01–1.07, session 36). ``auto_reset`` runs ``init`` at every step of every game, so ``init``
does not shuffle the 60 cards (the pile is shuffled lazily, n+1 Fisher–Yates steps per deal), and
chance comes from a hashed counter rather than threefry (:mod:`~meadowzoo.envs.core.jax_core`).
Scores and observation use running totals kept in the state; ``benchmarks/jax_speed.py``
measures the rest.

Measured and not kept (session 9, CPU time per game-step of the auto_reset random-play step at
batch 1024, engines compared in one process): replacing the remaining small gathers and scatters
(the resolve loop's lookups of order, modifier, target, uniforms and wool, the dice update, the
takes' card arrays, the score table, the mask's pick slots) by one-hot selects made the step
slower (4p 7,157 -> 8,177 ns, 2p 4,860 -> 6,268 ns); in the observation, the display features by
a one-hot product and the seat rotation by a one-hot select instead of ``jnp.roll`` were slower
still (4p 8,177 -> 13,486 ns). Dealing by resolving the n+1 swaps on the positions involved (one
read and one write of the 60-card pile instead of a chain of 60-wide selects) was no faster
(4p 7,157 -> 7,684, 2p 4,860 -> 4,897 ns), so the deal keeps its per-swap one-hot selects.

Chance
------
``init(key)`` deals the betting cards (backs 1..6, one per player) by Fisher–Yates
(:func:`~meadowzoo.envs.core.jax_core.stream_permutation`) on uniforms 0..4 of ``key``'s stream
(``stream_at(stream_seed(key), i)``) and keeps that seed (``seed``) for the pile: the pile starts
unordered (``lazy``) and, before pile position ``i`` is dealt, swaps with position
``(u·(i+1)) >> 24``, ``u`` = uniform ``8 + i`` of the stream (Fisher–Yates from the end, done as
the cards are dealt: a uniformly random order). :meth:`VolleWolleJax.materialised_pile` orders a
lazy pile on the host the same way, so ``to_game_dict`` and snapshots carry the order the JAX
engine will deal; a state made from a reference game is not lazy (its pile order is given). ``step(state, action, key)`` rolls the dice from ``key``: the step's
chance stream holds 3n uniforms (:func:`~meadowzoo.envs.core.jax_core.chance_stream`), consumed one
per die in the reference's order (d12, d10, d8, skipping dice set aside; attempt after attempt,
player after player); a die of ``m`` faces shows ``(u·m >> 24) + 1``. A step rolls at most 3n
dice: the mover's own reroll (≤ 2 dice) or nothing, then at most one 3-die roll per later player
in the round (≤ n rollers, and ≤ n−1 when n > 2). :meth:`VolleWolleJax.feed_chance` hands the same
stream to the reference game (:class:`~meadowzoo.envs.core.jax_core.StreamRandom`).

Hidden information
------------------
A player cannot see the order of the draw pile nor, before the reveal, the others' bids (VW-7,
VW-8); :meth:`VolleWolleJax.resample_hidden` redraws both from what an observer knows, as the
reference's ``resample_hidden`` (for search players; proven by the harness's
``check_resample_hidden``).
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pgx.core
from pgx._src.struct import dataclass

from meadowzoo.envs.core.jax_core import (
    CHANCE_BITS,
    MeadowJaxEnv,
    StreamRandom,
    chance_stream,
    host_stream,
    host_stream_at,
    rank_rewards,
    stream_at,
    stream_int,
    stream_permutation,
    stream_seed,
    when,
)
from meadowzoo.envs.core.jax_rows import rows_cond
from meadowzoo.envs.volle_wolle import data, env as pz_env, rules
from meadowzoo.envs.volle_wolle.data import (
    BID_26_PLUS,
    BLACK,
    BLACK_SHEEP_LIMIT,
    BONE,
    BONE_PER_DOG,
    DOG,
    K007,
    K370,
    MOST_DOGS,
    NUM_CARDS,
    ONE_DOG,
    SCORE_007_SET,
    WHITE,
)
from meadowzoo.envs.volle_wolle.rules import (
    AVOID_BLACK,
    BID as PH_BID,
    BLACK_CHOICE as PH_BLACK,
    CLAIM,
    DECLINE,
    KEEP,
    NUM_ACTIONS,
    NUM_BIDS,
    OVER as PH_OVER,
    PICK as PH_PICK,
    PICK_SLOT,
    ROLL as PH_ROLL,
    TAKE_BLACK,
)

# pending automatic work of the resolve loop (what the reference's apply would call next)
DONE, NEXT, ROLL, FAIL, CPICK = range(5)
_IN_PILE, _IN_DISPLAY = -1, -2
_I32 = jnp.int32
_NONE = 1 << 20  # above any card's points: "no value" in minima
#: card ids 0..59, compared with a traced index instead of indexing (see _start_round)
_CARD_IDS = np.arange(NUM_CARDS, dtype=np.int32)
#: uniforms of the init key's stream: 0..4 deal the betting cards, _PILE_UNIFORMS + i shuffles pile position i
_PILE_UNIFORMS = 8


@dataclass
class GameState:
    """The rules state (see the module docstring); every field an array."""

    pile: jax.Array
    pile_len: jax.Array
    lazy: jax.Array
    seed: jax.Array
    loc: jax.Array
    hpos: jax.Array
    herd_len: jax.Array
    dog_len: jax.Array
    top: jax.Array
    counts: jax.Array
    printed: jax.Array
    low1: jax.Array
    low2: jax.Array
    pile_types: jax.Array
    display: jax.Array
    dkind: jax.Array
    back: jax.Array
    wool: jax.Array
    supply: jax.Array
    round: jax.Array
    turns: jax.Array
    dice: jax.Array
    bids: jax.Array
    revealed: jax.Array
    order: jax.Array
    pos: jax.Array
    attempt: jax.Array
    kept: jax.Array
    base: jax.Array
    bonus: jax.Array
    neg: jax.Array
    target: jax.Array
    can_claim: jax.Array
    picks: jax.Array
    black_only: jax.Array
    pending: jax.Array
    cur: jax.Array


#: the fields of :class:`GameState` that a step's automatic resolution changes
_TURN_FIELDS = ("display", "dkind", "wool", "supply", "turns", "dice", "pos", "attempt", "kept", "base", "bonus",
                "neg", "target", "can_claim", "picks", "black_only", "pending", "cur")


@dataclass
class Turn:
    """What the resolve loop carries: the small fields of ``_TURN_FIELDS`` and the record of this
    step's takes (per display slot: the taker, −1 none, and the take's rank ``tseq``), so that the
    60-card arrays are updated once per step, after the loop (:meth:`VolleWolleJax._apply_takes`)."""

    display: jax.Array
    dkind: jax.Array
    wool: jax.Array
    supply: jax.Array
    turns: jax.Array
    dice: jax.Array
    pos: jax.Array
    attempt: jax.Array
    kept: jax.Array
    base: jax.Array
    bonus: jax.Array
    neg: jax.Array
    target: jax.Array
    can_claim: jax.Array
    picks: jax.Array
    black_only: jax.Array
    pending: jax.Array
    cur: jax.Array
    taker: jax.Array
    tseq: jax.Array
    seq: jax.Array  # takes so far in this step
    c: jax.Array  # chance uniforms used so far in this step
    op: jax.Array  # pending automatic work (DONE, NEXT, ROLL, FAIL, CPICK)
    new_round: jax.Array  # the round is over: deal a new one after the loop


@dataclass
class State(pgx.core.State):
    current_player: jax.Array
    observation: jax.Array
    rewards: jax.Array
    terminated: jax.Array
    truncated: jax.Array
    legal_action_mask: jax.Array
    _step_count: jax.Array
    _x: GameState

    @property
    def env_id(self) -> str:
        return "volle_wolle"


def _select(pred, a, b):
    """``a`` where ``pred`` else ``b``, leaf by leaf (two pytrees of one structure)."""
    return jax.tree_util.tree_map(lambda x, y: jnp.where(pred, x, y), a, b)


class _Tables:
    """Per-configuration constants (deck columns, observation tables) as numpy arrays; jnp
    constants are made from them inside the traced functions."""

    def __init__(self, deck: data.Deck, n: int) -> None:
        self.n = n
        self.kind = np.array(deck.kind, np.int32)
        self.points = np.array(deck.points, np.int32)
        self.modifier = np.array(deck.modifier, np.int32)
        self.bone_symbol = np.array(deck.bone_symbol, bool)
        self.number = np.array(deck.number, np.int32)
        self.bone_card = deck.bone_card
        self.type_of = np.array(deck.type_of, np.int32)
        self.card_features = pz_env.card_features(deck)  # (61, 11), row 60 = empty slot
        # the same features as int32 (all integers), for the observation built in int32
        self.card_features_int = self.card_features.astype(np.int32)
        if not np.array_equal(self.card_features_int, self.card_features):
            raise ValueError("the deck's card features must be integers for the JAX engine's observation")
        self.type_onehot = np.eye(deck.num_types, dtype=np.int32)[list(deck.type_of)]  # (60, T)
        self.type_total = self.type_onehot.sum(0)
        self.targets = np.array(data.BID_TARGETS, np.int32)
        self.cards_for_attempt = np.array((0,) + data.CARDS_FOR_ATTEMPT, np.int32)
        self.score_370 = np.array(data.SCORE_370, np.int32)
        self.obs_size = pz_env.GLOBAL + pz_env.SLOT * (n + 1) + deck.num_types + pz_env.PLAYER * n


class VolleWolleJax(MeadowJaxEnv):
    """The Volle Wolle JAX engine; see the module docstring."""

    game = "volle_wolle"
    #: the most games of a batch (as a share) that a new round is dealt on alone (more: on every
    #: game). Random play at 512 games: a round ends in 16% of the games' steps with 2 players
    #: (at most 24%), 8% with 4 (results/engine_speed/2026-12-07_session36)
    new_round_share = 0.25

    def _check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        unknown = set(options) - {"num_players", "deck"}
        if unknown:
            raise ValueError(f"unsupported option(s) {sorted(unknown)} for the Volle Wolle JAX engine; "
                             "it takes num_players and deck")
        n = options.setdefault("num_players", 4)
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not data.MIN_PLAYERS <= n <= data.MAX_PLAYERS:
            raise ValueError(f"num_players must be an integer {data.MIN_PLAYERS}..{data.MAX_PLAYERS}, got {n!r}")
        options["num_players"] = int(n)
        deck = options.setdefault("deck", None)
        if deck is not None and not isinstance(deck, (str, list)):
            raise ValueError("deck must be None, a path string or a list of card dicts")
        self.deck = data.load_deck(deck)
        self.t = _Tables(self.deck, int(n))
        return options

    # ---- Pgx properties ---------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return "volle_wolle"

    @property
    def num_players(self) -> int:
        return self.t.n

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (self.t.obs_size,)

    def reference_env(self):
        return pz_env.VolleWolleEnv(**self.options)

    # ---- init -------------------------------------------------------------------------------------
    def _init(self, key: jax.Array) -> State:
        n = self.t.n
        seed = stream_seed(key)
        backs = len(data.BETTING_BACKS)
        g = GameState(
            pile=jnp.arange(NUM_CARDS, dtype=_I32),  # shuffled lazily, as it is dealt (see Chance)
            pile_len=_I32(NUM_CARDS),
            lazy=jnp.bool_(True),
            seed=seed,
            loc=jnp.full(NUM_CARDS, _IN_PILE, _I32),
            hpos=jnp.zeros(NUM_CARDS, _I32),
            herd_len=jnp.zeros(n, _I32),
            dog_len=jnp.zeros(n, _I32),
            top=jnp.full(n, -1, _I32),
            counts=jnp.zeros((n, 4), _I32),
            printed=jnp.zeros(n, _I32),
            low1=jnp.full(n, _NONE, _I32),
            low2=jnp.full(n, _NONE, _I32),
            pile_types=jnp.asarray(self.t.type_total),
            display=jnp.full(n + 1, -1, _I32),
            dkind=jnp.full(n + 1, -1, _I32),
            back=jnp.asarray(data.BETTING_BACKS, _I32)[stream_permutation(stream_at(seed, jnp.arange(backs - 1)))[:n]],
            wool=jnp.full(n, data.WOOL_START, _I32),
            supply=_I32(data.WOOL_TOTAL - data.WOOL_START * n),
            round=_I32(0),
            turns=_I32(0),
            dice=jnp.zeros(3, _I32),
            bids=jnp.full(n, -1, _I32),
            revealed=jnp.bool_(False),
            order=jnp.zeros(n, _I32),
            pos=_I32(0),
            attempt=_I32(0),
            kept=_I32(0),
            base=_I32(0),
            bonus=_I32(0),
            neg=_I32(0),
            target=_I32(0),
            can_claim=jnp.bool_(False),
            picks=_I32(0),
            black_only=jnp.bool_(False),
            pending=_I32(PH_BID),
            cur=_I32(0),
        )
        g = self._start_round(g)
        return self._wrap(g, jnp.zeros(n, jnp.float32), _I32(0))

    def _wrap(self, g: GameState, rewards: jax.Array, step_count: jax.Array) -> State:
        over = g.pending == PH_OVER
        return State(
            current_player=jnp.where(over, 0, g.cur).astype(_I32),
            observation=jnp.zeros(self.t.obs_size, jnp.float32),
            rewards=rewards,
            terminated=over,
            truncated=jnp.bool_(False),
            legal_action_mask=self._legal(g),
            _step_count=step_count,
            _x=g,
        )

    # ---- step -------------------------------------------------------------------------------------
    def _step(self, state: State, action: jax.Array, key: jax.Array) -> State:
        """The action, then the automatic resolution on the small :class:`Turn` (a
        ``while_loop`` of player turns), then the cards taken (once) and a new round (once)."""
        n = self.t.n
        uniforms = chance_stream(key, 3 * n)
        g = state._x
        a = jnp.asarray(action, _I32)
        # the bid (VW-7) and, after the last one, the reveal (VW-8): bids and order only
        players = jnp.arange(n)
        bidding = g.pending == PH_BID
        bids = jnp.where(bidding & (players == g.cur), a, g.bids)
        reveal = bidding & (g.cur + 1 >= n)
        g = g.replace(bids=bids, order=jnp.where(reveal, self._order(g, bids), g.order), revealed=g.revealed | reveal)
        t = Turn(**{name: getattr(g, name) for name in _TURN_FIELDS}, taker=jnp.full(n + 1, -1, _I32),
                 tseq=jnp.zeros(n + 1, _I32), seq=_I32(0), c=_I32(0), op=_I32(DONE), new_round=jnp.bool_(False))
        branch = jnp.select(
            [bidding, a == CLAIM, a == DECLINE, a < AVOID_BLACK, a == AVOID_BLACK, a == TAKE_BLACK],
            [0, 1, 2, 3, 4, 5], 6)
        bid = lambda t, a: self._bid(t, bids, reveal)  # noqa: E731
        t = jax.lax.switch(branch, [bid, self._claim, self._decline, self._keep, self._avoid, self._take_black,
                                    self._pick], t, a)
        # per player: the top card's modifier and the bid's target, fixed during a round's turns
        top = jnp.maximum(g.top, 0)
        context = (g.order, jnp.where(g.top >= 0, jnp.asarray(self.t.modifier)[top], 0),
                   jnp.asarray(self.t.targets)[jnp.maximum(bids, 0)])
        t = jax.lax.while_loop(lambda t: t.op != DONE, lambda t: self._resolve(t, context, uniforms), t)
        g = self._apply_takes(g, t)
        g = rows_cond(t.new_round, self._start_round, g, share=self.new_round_share)
        over = g.pending == PH_OVER
        rewards = jnp.where(over, rank_rewards(self.scores_of(g)), 0.0).astype(jnp.float32)
        return self._wrap(g, rewards, state._step_count)

    def _order(self, g: GameState, bids: jax.Array) -> jax.Array:
        """VW-8: the order by bid, then sheep number (compared, no sort: slow on the CPU)."""
        number = jnp.where(g.top >= 0, jnp.asarray(self.t.number)[jnp.maximum(g.top, 0)], g.back)
        first = (bids[None, :] > bids[:, None]) | ((bids[None, :] == bids[:, None]) & (number[None, :] < number[:, None]))
        rank = first.sum(1)  # seats ahead of each seat; numbers differ, so a permutation
        return (rank[None, :] == jnp.arange(self.t.n)[:, None]).astype(_I32).argmax(1).astype(_I32)

    # the decisions: each returns the turn with its pending automatic work
    def _bid(self, t: Turn, bids: jax.Array, reveal: jax.Array) -> Turn:
        fee = (bids == BID_26_PLUS).astype(_I32)  # VW-7: the 26+ fee, paid at the reveal
        revealed = t.replace(wool=t.wool - fee, supply=t.supply + fee.sum(), pos=_I32(0), op=_I32(NEXT))
        return _select(reveal, revealed, t.replace(cur=t.cur + 1, turns=t.turns + 1, op=_I32(DONE)))

    def _claim(self, t: Turn, a: jax.Array) -> Turn:
        return self._win(self._pay(t, t.cur, t.target - t.base - t.bonus))

    def _decline(self, t: Turn, a: jax.Array) -> Turn:
        return t.replace(op=_I32(FAIL))

    def _keep(self, t: Turn, a: jax.Array) -> Turn:
        return t.replace(kept=t.kept | (1 << (a - KEEP)), attempt=t.attempt + 1, op=_I32(ROLL))

    def _avoid(self, t: Turn, a: jax.Array) -> Turn:
        t = self._gain_wool(self._pay(t, t.cur, BLACK_SHEEP_LIMIT - t.base - t.bonus), t.cur)
        return t.replace(pos=t.pos + 1, op=_I32(NEXT))

    def _take_black(self, t: Turn, a: jax.Array) -> Turn:
        return self._begin_pick(self._gain_wool(t, t.cur), t.cur, NUM_CARDS, True)

    def _pick(self, t: Turn, a: jax.Array) -> Turn:
        t = self._take(t, t.cur, jnp.arange(self.t.n + 1) == a - PICK_SLOT)
        return t.replace(picks=t.picks - 1, op=_I32(CPICK))

    # ---- automatic resolution ---------------------------------------------------------------------
    def _resolve(self, t: Turn, context, uniforms) -> Turn:
        """One pass of the resolve loop: each stage run only when it is the pending work, so a
        game runs the same stages in the same sequence whatever their order within a pass; the
        order only sets how many passes the batch needs. A player's turn goes NEXT → ROLL
        (→ FAIL) → CPICK → NEXT …, and a step begins with the stage its action left pending. In
        this order (roll, fail, pick, next player) every step of a random-play batch of 1,024
        games finished in two passes; beginning with NEXT, a step that began with a pick or a
        forced win needed a second pass for the next player's roll and sometimes a third, and one
        game of 1,024 always did, so the batch ran three (session 30: 12–15% less time a step)."""
        for stage, function in ((ROLL, self._roll), (FAIL, self._fail), (CPICK, self._continue_pick),
                                (NEXT, self._next_player)):
            t = when(t.op == stage, lambda t, f=function: f(t, context, uniforms), t)
        return t

    def _next_player(self, t: Turn, context, uniforms) -> Turn:
        order, modifier, target = context
        n = self.t.n
        present = (t.display >= 0).any()
        pos = jnp.where(present, t.pos, jnp.maximum(t.pos, n))  # empty display: everybody passes (VW-12)
        rest_to_other = (pos == n) & (n == 2) & present  # VW-13: the rest to the other player
        # after the order: VW-13, or the round ends (a new one is dealt after the loop)
        after = t.replace(pos=jnp.where(rest_to_other, n + 1, pos), attempt=_I32(0), turns=t.turns + rest_to_other,
                          cur=order[0], picks=_I32(NUM_CARDS), black_only=jnp.bool_(False),
                          op=jnp.where(rest_to_other, CPICK, DONE).astype(_I32), new_round=~rest_to_other)
        # a player's turn: the last takes the rest without rolling (VW-12), the others roll
        p = order[jnp.minimum(pos, n - 1)]
        takes_rest = (pos == n - 1) & (n > 2)
        mod = modifier[p]
        turn = t.replace(pos=pos, turns=t.turns + 1, cur=p, attempt=jnp.where(takes_rest, 0, 1).astype(_I32),
                         kept=jnp.where(takes_rest, t.kept, 0), neg=jnp.where(takes_rest, t.neg, jnp.minimum(mod, 0)),
                         bonus=jnp.where(takes_rest, t.bonus, jnp.maximum(mod, 0)),
                         target=jnp.where(takes_rest, t.target, target[p]),
                         picks=jnp.where(takes_rest, NUM_CARDS, t.picks).astype(_I32),
                         black_only=t.black_only & ~takes_rest,
                         op=jnp.where(takes_rest, CPICK, ROLL).astype(_I32))
        return _select(pos >= n, after, turn)

    def _roll(self, t: Turn, context, uniforms) -> Turn:
        """VW-9, VW-10: roll the dice not set aside (d12, d10, d8, one uniform each) and judge."""
        dice, c = t.dice, t.c
        for die, sides in enumerate(data.DICE):
            rolls = (t.kept >> die & 1) == 0
            face = stream_int(uniforms[jnp.minimum(c, uniforms.shape[0] - 1)], sides) + 1
            dice = dice.at[die].set(jnp.where(rolls, face, dice[die]))
            c = c + rolls
        base = dice.sum() + t.neg
        forced = base >= t.target
        can_claim = (~forced) & (base + t.bonus + t.wool[t.cur] >= t.target)
        t = t.replace(dice=dice, base=base, c=c, can_claim=can_claim)
        waits = can_claim | (t.attempt < 3)
        waiting = t.replace(pending=jnp.where(waits, PH_ROLL, t.pending).astype(_I32),
                            op=jnp.where(waits, DONE, FAIL).astype(_I32))
        return _select(forced, self._win(t), waiting)

    def _win(self, t: Turn) -> Turn:
        t = t.replace(can_claim=jnp.bool_(False))
        return self._begin_pick(t, t.cur, jnp.asarray(self.t.cards_for_attempt)[t.attempt], False)

    def _fail(self, t: Turn, context, uniforms) -> Turn:
        """VW-11: a failure after attempt 3 (black sheep below 14)."""
        t = t.replace(can_claim=jnp.bool_(False))
        p = t.cur
        black_showing = (t.dkind == BLACK).any() & (t.base < BLACK_SHEEP_LIMIT)
        choice = black_showing & (t.base + t.bonus + t.wool[p] >= BLACK_SHEEP_LIMIT)
        wool = self._gain_wool(t, p)
        forced = _select(black_showing, self._begin_pick(wool, p, NUM_CARDS, True),
                         wool.replace(pos=wool.pos + 1, op=_I32(NEXT)))
        return _select(choice, t.replace(pending=_I32(PH_BLACK), op=_I32(DONE)), forced)

    def _begin_pick(self, t: Turn, player, count, black_only) -> Turn:
        return t.replace(cur=jnp.asarray(player, _I32), picks=jnp.asarray(count, _I32),
                         black_only=jnp.asarray(black_only, bool), op=_I32(CPICK))

    def _continue_pick(self, t: Turn, context, uniforms) -> Turn:
        """Ask for the next pick, or take every eligible card when the order cannot matter."""
        eligible = jnp.where(t.black_only, t.dkind == BLACK, t.display >= 0)
        sheep = eligible & (t.dkind <= K007)
        count = eligible.sum()
        wanted = (t.picks > 0) & (count > 0)
        ask = wanted & ((t.picks < count) | (sheep.sum() > 1))
        taken = self._take(t, t.cur, eligible & wanted & ~ask)
        finished = taken.replace(picks=_I32(0), black_only=jnp.bool_(False), pos=taken.pos + 1, op=_I32(NEXT))
        return _select(ask, t.replace(pending=_I32(PH_PICK), op=_I32(DONE)), finished)

    def _take(self, t: Turn, p, slot_mask: jax.Array) -> Turn:
        """VW-14, VW-15: ``p`` takes the display cards of ``slot_mask``; only recorded here
        (taker and rank, slot order within one take), applied by :meth:`_apply_takes`."""
        slots = t.display.shape[0]
        taken = slot_mask & (t.display >= 0)
        return t.replace(display=jnp.where(taken, -1, t.display), dkind=jnp.where(taken, -1, t.dkind),
                         taker=jnp.where(taken, p, t.taker), tseq=jnp.where(taken, t.seq * slots + jnp.arange(slots), t.tseq),
                         seq=t.seq + 1)

    def _pay(self, t: Turn, p, amount) -> Turn:
        amount = jnp.maximum(amount, 0)
        return t.replace(wool=t.wool - jnp.where(jnp.arange(self.t.n) == p, amount, 0), supply=t.supply + amount)

    def _gain_wool(self, t: Turn, p) -> Turn:
        gain = (t.supply > 0).astype(_I32)
        return t.replace(wool=t.wool + jnp.where(jnp.arange(self.t.n) == p, gain, 0), supply=t.supply - gain)

    # ---- cards --------------------------------------------------------------------------------------
    def _apply_takes(self, g: GameState, t: Turn) -> GameState:
        """The step's takes (VW-14, VW-15) on the card arrays and running totals, in take order:
        herds and dogs grow, the last sheep taken is the top, counts, printed points and the two
        lowest white sheep follow, and the bone moves with the bone card or, once held, with each
        sheep card bearing the bone symbol."""
        n = self.t.n
        turn_fields = {name: getattr(t, name) for name in _TURN_FIELDS}
        taken = t.taker >= 0  # (S,) slots of the display the step began with
        cards = jnp.maximum(g.display, 0)
        kind = g.dkind
        sheep = taken & (kind >= 0) & (kind <= K007)
        dog = taken & (kind == DOG)
        bone = taken & (kind == BONE)
        players = jnp.arange(n)
        own = t.taker[None, :] == players[:, None]  # (n, S)
        earlier = (t.taker[None, :] == t.taker[:, None]) & (t.tseq[None, :] < t.tseq[:, None])  # (S, S): same taker, before
        taker = jnp.maximum(t.taker, 0)
        hpos = jnp.where(dog, g.dog_len[taker] + (earlier & dog[None, :]).sum(1),
                         g.herd_len[taker] + (earlier & sheep[None, :]).sum(1))
        index = jnp.where(taken, cards, NUM_CARDS)  # out of range: dropped
        loc = g.loc.at[index].set(t.taker, mode="drop")
        # the bone: its holder is the taker of the last event (the bone card, or a bone-symbol
        # sheep while the bone is held)
        held_before = g.loc[self.t.bone_card] >= 0
        bone_seq = jnp.where(bone, t.tseq, 1 << 20).min()
        symbol = sheep & jnp.asarray(self.t.bone_symbol)[cards] & (held_before | (bone_seq < t.tseq))
        event = jnp.where(bone | symbol, t.tseq, -1)
        last = jnp.argmax(event)
        loc = loc.at[self.t.bone_card].set(jnp.where(event[last] >= 0, t.taker[last], loc[self.t.bone_card]))
        # per player: the sheep taken, the top (last sheep), counts, printed, two lowest whites
        mine = own & sheep[None, :]  # (n, S)
        last_sheep = jnp.argmax(jnp.where(mine, t.tseq[None, :], -1), axis=1)
        top = jnp.where(mine.any(1), cards[last_sheep], g.top)
        kinds = jnp.minimum(kind, K007)
        counts = g.counts + (mine[:, :, None] & (kinds[None, :, None] == jnp.arange(4))).sum(1)
        points = jnp.where(sheep & (kind <= BLACK), jnp.asarray(self.t.points)[cards], 0)
        printed = g.printed + jnp.where(mine, points[None, :], 0).sum(1)
        whites = jnp.where(mine & (kind == WHITE)[None, :], points[None, :], _NONE)  # (n, S)
        candidates = jnp.concatenate([g.low1[:, None], g.low2[:, None], whites], axis=1)
        low1 = candidates.min(1)
        first = jnp.argmin(candidates, axis=1)
        low2 = jnp.where(jnp.arange(candidates.shape[1]) == first[:, None], _NONE, candidates).min(1)
        return g.replace(
            **turn_fields, loc=loc, hpos=g.hpos.at[index].set(hpos, mode="drop"),
            herd_len=g.herd_len + mine.sum(1), dog_len=g.dog_len + (own & dog[None, :]).sum(1), top=top,
            counts=counts, printed=printed, low1=low1, low2=low2)

    def _start_round(self, g: GameState) -> GameState:
        """VW-6: deal the display (or end the game when the pile is empty). A lazy pile is
        shuffled as it is dealt: before position ``i`` is drawn it swaps with position
        ``(u·(i+1)) >> 24`` (Fisher–Yates from the end, ``u`` = uniform ``_PILE_UNIFORMS + i`` of
        the init key's stream), which orders the pile uniformly at random, one step at a time."""
        n = self.t.n
        end = g.replace(pending=_I32(PH_OVER), cur=_I32(-1), attempt=_I32(0), picks=_I32(0),
                        can_claim=jnp.bool_(False))
        count = jnp.minimum(n + 1, g.pile_len)
        pile = g.pile
        cards = []
        for slot in range(n + 1):
            i = jnp.maximum(g.pile_len - 1 - slot, 0)
            dealt = slot < count
            u = stream_at(g.seed, _PILE_UNIFORMS + i)
            j = jnp.where(g.lazy & dealt, (u * (i + 1)) >> CHANCE_BITS, i)
            # read by gathers; written by one-hot selects, not a scatter (under vmap on the CPU a
            # scatter is a slow loop). Not one-hot sums either: XLA's CPU compiler splits a sum
            # over more than 32 elements into a reduce-window and a reduce, unfused kernels that
            # cost 10% of a 2-player step (session 31)
            drawn, other = pile[j], pile[i]
            pile = jnp.where(_CARD_IDS == i, drawn, jnp.where(_CARD_IDS == j, other, pile))
            cards.append(jnp.where(dealt, drawn, -1))
        cards = jnp.stack(cards).astype(_I32)
        dealt = cards >= 0
        safe = jnp.maximum(cards, 0)
        loc = jnp.where((_CARD_IDS[:, None] == jnp.where(dealt, cards, NUM_CARDS)[None, :]).any(1), _IN_DISPLAY, g.loc)
        types = jnp.where(dealt, jnp.asarray(self.t.type_of)[safe], -1)
        dealt_types = (types[:, None] == jnp.arange(self.t.type_total.shape[0])).sum(0)
        fresh = g.replace(
            round=g.round + 1, turns=g.turns + 1, display=cards, dkind=jnp.where(dealt, jnp.asarray(self.t.kind)[safe], -1),
            pile=pile, pile_len=g.pile_len - count, loc=loc, pile_types=g.pile_types - dealt_types,
            bids=jnp.full(n, -1, _I32), revealed=jnp.bool_(False), order=jnp.zeros(n, _I32), pos=_I32(0),
            attempt=_I32(0), kept=_I32(0), dice=jnp.zeros(3, _I32), base=_I32(0), bonus=_I32(0), neg=_I32(0),
            target=_I32(0), can_claim=jnp.bool_(False), picks=_I32(0), black_only=jnp.bool_(False),
            pending=_I32(PH_BID), cur=_I32(0))
        return _select(g.pile_len == 0, end, fresh)

    def materialised_pile(self, g: GameState) -> np.ndarray:
        """The draw pile of a (host) state in the reference's order (drawn from the end): a lazy
        pile is shuffled on the host exactly as :meth:`_start_round` will deal it."""
        size = int(g.pile_len)
        pile = np.asarray(g.pile)[:size].copy()
        if bool(g.lazy):
            u = host_stream_at(g.seed, _PILE_UNIFORMS + np.arange(NUM_CARDS))
            for i in range(size - 1, 0, -1):
                j = (int(u[i]) * (i + 1)) >> CHANCE_BITS
                pile[i], pile[j] = pile[j], pile[i]
        return pile

    # ---- hidden information --------------------------------------------------------------------------
    def resample_hidden(self, state: State, observer, key: jax.Array) -> State:
        """As the reference's ``resample_hidden``: the draw pile reshuffled (its cards, known to
        everybody, put in id order and made lazy again with a new ``seed``: dealt as ``init``'s
        pile is, uniforms ``8 + i`` of ``key``'s stream) and, while bidding, every other player's
        secret bid redrawn uniformly from the bids open to them (26+ only with wool; uniform
        ``p`` of the stream for player ``p``). See :meth:`MeadowJaxEnv.resample_hidden`."""
        g = state._x
        seed = stream_seed(key)
        # the pile's cards first, in id order, then the others (positions past pile_len are never read)
        pile = jnp.sort(jnp.where(g.loc == _IN_PILE, _CARD_IDS, NUM_CARDS + _CARD_IDS)) % NUM_CARDS
        players = jnp.arange(self.t.n, dtype=_I32)
        hidden_bid = (g.pending == PH_BID) & (g.bids >= 0) & (players != observer)
        choices = jnp.where(g.wool > 0, NUM_BIDS, BID_26_PLUS)  # VW-7: 26+ needs wool
        drawn = (stream_at(seed, players) * choices) >> CHANCE_BITS
        g = g.replace(pile=pile.astype(_I32), lazy=jnp.bool_(True), seed=seed,
                      bids=jnp.where(hidden_bid, drawn, g.bids).astype(_I32))
        state = state.replace(_x=g)
        return state.replace(observation=self._observe(state, state.current_player))

    # ---- scores, mask, observation ------------------------------------------------------------------
    def scores(self, state: State) -> jax.Array:
        return self.scores_of(state._x)

    def scores_of(self, g: GameState) -> jax.Array:
        """VW-16: every player's points as if the game ended now."""
        t = self.t
        n = t.n
        removed = jnp.where(g.low1 < _NONE, g.low1, 0) + jnp.where(g.low2 < _NONE, g.low2, 0)
        dogs = g.dog_len
        total = (g.printed + jnp.asarray(t.score_370)[g.counts[:, 2] % 3] + SCORE_007_SET * (g.counts[:, 3] // 3)
                 + jnp.where(dogs == 1, ONE_DOG, 0) - jnp.where(dogs == 0, removed, 0)
                 + jnp.where((dogs > 0) & (dogs == dogs.max()), MOST_DOGS, 0)
                 + jnp.where(g.loc[t.bone_card] == jnp.arange(n), BONE_PER_DOG * dogs, 0) + g.wool)
        return total.astype(_I32)

    def _legal(self, g: GameState) -> jax.Array:
        n = self.t.n
        a = jnp.arange(NUM_ACTIONS)
        bid = (a < BID_26_PLUS) | ((a == BID_26_PLUS) & (g.wool[jnp.maximum(g.cur, 0)] > 0))
        kept_bit = (g.kept >> jnp.clip(a - KEEP, 0, 2)) & 1
        roll = ((a == CLAIM) & g.can_claim) | ((a == DECLINE) & (g.attempt == 3)) | (
            (a >= KEEP) & (a < KEEP + 3) & (g.attempt < 3) & (kept_bit == 0))
        black = (a == AVOID_BLACK) | (a == TAKE_BLACK)
        eligible = jnp.where(g.black_only, g.dkind == BLACK, g.display >= 0)
        slot = a - PICK_SLOT
        pick = (slot >= 0) & (slot <= n) & eligible[jnp.clip(slot, 0, n)]
        return jnp.select([g.pending == PH_BID, g.pending == PH_ROLL, g.pending == PH_BLACK, g.pending == PH_PICK],
                          [bid, roll, black, pick], jnp.zeros(NUM_ACTIONS, bool))

    def _observe(self, state: State, player_id: jax.Array) -> jax.Array:
        """The PettingZoo env's observation of seat ``player_id`` (see its module docstring). Every
        feature is an integer: built in int32 and converted to float32 once, at the end (one
        conversion instead of one per column: session 31, 3–4% of a step)."""
        g = state._x
        t = self.t
        pending = g.pending
        rolling = (pending == PH_ROLL) | (pending == PH_BLACK)
        picking = pending == PH_PICK
        kept = (g.kept >> jnp.arange(3)) & 1
        head = jnp.concatenate([
            jax.nn.one_hot(pending, 5, dtype=_I32),
            jnp.where(rolling, jax.nn.one_hot(g.attempt - 1, 3, dtype=_I32), 0),  # attempt 0: no one-hot
            jnp.where(rolling, g.dice, 0),
            jnp.where(rolling, kept, 0),
            jnp.where(rolling, jnp.stack([g.base, g.bonus, g.target]), 0),
            # the picks left, capped at the eligible cards on the display (VW-10: fewer if fewer are left)
            jnp.where(picking, jnp.stack([jnp.minimum(g.picks, jnp.where(g.black_only, g.dkind == BLACK, g.display >= 0).sum()),
                                          g.black_only.astype(_I32)]), 0),
            jnp.stack([g.supply, g.pile_len, g.round]),
        ]).astype(_I32)
        rows = jnp.concatenate([self._bid_columns(g, player_id), self._card_columns(g)], axis=1)
        rows = jnp.roll(rows, -player_id, axis=0).reshape(-1)  # the observer first, then seats in turn
        return jnp.concatenate([head, self._display_features(g), g.pile_types, rows]).astype(jnp.float32)

    def _display_features(self, g: GameState) -> jax.Array:
        """int32 (11·(n+1),): the display slots' card features (the empty slot's row for an empty
        slot; every feature is an integer). One table row gathered per slot: under ``vmap`` on the
        CPU, XLA gathers four or more rows per game at once about five times slower than one at a
        time (session 31: 155 against 30 µs a step for the five slots of 4 players)."""
        features = jnp.asarray(self.t.card_features_int)
        slots = jnp.where(g.display >= 0, g.display, NUM_CARDS)
        return jnp.concatenate([features[slots[s]] for s in range(self.t.n + 1)])

    def _bid_columns(self, g: GameState, seat: jax.Array) -> jax.Array:
        """int32 (n, 6): to move, has bid, bid known, bid target, bid is 26+, place in roll order."""
        n = self.t.n
        players = jnp.arange(n)
        bid = jnp.maximum(g.bids, 0)
        target = jnp.asarray(self.t.targets)[bid]
        is_26 = g.bids == BID_26_PLUS
        place = jnp.zeros(n, _I32).at[g.order].set(players + 1)
        zero = jnp.zeros(n, _I32)
        # bidding: who has bid (never what), and the observer's own bid
        own = (players == seat) & (g.bids >= 0)
        bidding = jnp.stack([players == g.cur, (players < g.cur) | own, own, jnp.where(own, target, 0),
                             own & is_26, zero], axis=1)
        mover = jnp.where(g.pending == PH_OVER, -1, g.cur)
        shown = g.revealed
        after = jnp.stack([players == mover, jnp.broadcast_to(shown, (n,)), jnp.broadcast_to(shown, (n,)),
                           jnp.where(shown, target, 0), shown & is_26, jnp.where(shown, place, 0)], axis=1)
        return jnp.where(g.pending == PH_BID, bidding, after).astype(_I32)

    def _card_columns(self, g: GameState) -> jax.Array:
        """int32 (n, 14): top card (has one, points, modifier, bone symbol, sheep number or back),
        back, white / black / 3-7-0 / 0-0-7 counts, dogs, holds the bone, wool, points so far."""
        t = self.t
        n = t.n
        has_top = g.top >= 0
        top = jnp.maximum(g.top, 0)
        counts = [g.counts[:, k] for k in (WHITE, BLACK, K370, K007)]
        columns = [
            has_top, jnp.where(has_top, jnp.asarray(t.points)[top], 0),
            jnp.where(has_top, jnp.asarray(t.modifier)[top], 0), has_top & jnp.asarray(t.bone_symbol)[top],
            jnp.where(has_top, jnp.asarray(t.number)[top], g.back), g.back, *counts, g.dog_len,
            g.loc[t.bone_card] == jnp.arange(n), g.wool, self.scores_of(g),
        ]
        return jnp.stack([c.astype(_I32) for c in columns], axis=1)

    # ---- conversion with the reference engine -------------------------------------------------------
    def to_game_dict(self, state: State) -> dict:
        """The reference game's ``to_dict()`` (without ``rng``) of an unbatched state."""
        g = jax.device_get(state._x)
        n = self.t.n
        loc, hpos, kind = np.asarray(g.loc), np.asarray(g.hpos), self.t.kind

        def held(p: int, sheep: bool) -> list[int]:
            mine = np.flatnonzero((loc == p) & ((kind <= K007) if sheep else (kind == DOG)))
            return [int(c) for c in mine[np.argsort(hpos[mine], kind="stable")]]

        ints = lambda a: [int(v) for v in np.asarray(a)]  # noqa: E731
        bone = int(loc[self.t.bone_card])
        return {
            "pile": ints(self.materialised_pile(g)),
            "back": ints(g.back),
            "wool": ints(g.wool),
            "display": ints(g.display),
            "dice": ints(g.dice),
            "bids": ints(g.bids),
            "order": ints(g.order) if bool(g.revealed) else [],
            "num_agents": n,
            "supply": int(g.supply),
            "bone": bone if bone >= 0 else -1,
            "round": int(g.round),
            "turn": int(g.turns),
            "pending": rules.DECISIONS[int(g.pending)],
            "cur": int(g.cur),
            "pos": int(g.pos),
            "attempt": int(g.attempt),
            "kept": int(g.kept),
            "base": int(g.base),
            "bonus": int(g.bonus),
            "neg": int(g.neg),
            "target": int(g.target),
            "picks": int(g.picks),
            "revealed": bool(g.revealed),
            "can_claim": bool(g.can_claim),
            "black_only": bool(g.black_only),
            "herd": [held(p, True) for p in range(n)],
            "dogs": [held(p, False) for p in range(n)],
            "deck": [dict(c) for c in self.deck.cards],
        }

    def from_game(self, game: rules.VolleWolleGame) -> State:
        """The JAX state (unbatched) of a reference game (a validated ``VolleWolleGame``)."""
        n = self.t.n
        if game.num_agents != n or game.deck.cards != self.deck.cards:
            raise ValueError(f"the game ({game.num_agents} players) does not fit this engine "
                             f"({n} players{'' if game.deck.cards == self.deck.cards else ', another deck'})")
        if game.revealed and len(game.order) != n:
            raise ValueError("the game's bids are revealed but its order is incomplete")
        loc = np.full(NUM_CARDS, _IN_PILE, np.int32)
        hpos = np.zeros(NUM_CARDS, np.int32)
        for card in game.display:
            if card >= 0:
                loc[card] = _IN_DISPLAY
        for p in range(n):
            for cards in (game.herd[p], game.dogs[p]):
                for i, card in enumerate(cards):
                    loc[card], hpos[card] = p, i
        if game.bone >= 0:
            loc[self.deck.bone_card] = game.bone
        pile = np.zeros(NUM_CARDS, np.int32)
        pile[: len(game.pile)] = game.pile
        lowest = [sorted(low) + [_NONE] * (2 - len(low)) for low in game.lowest]
        i32 = lambda v: np.asarray(v, np.int32)  # noqa: E731
        g = GameState(
            pile=i32(pile), pile_len=i32(len(game.pile)), lazy=np.bool_(False), seed=np.uint32(0), loc=i32(loc),
            hpos=i32(hpos),
            herd_len=i32([len(h) for h in game.herd]), dog_len=i32([len(d) for d in game.dogs]),
            top=i32([h[-1] if h else -1 for h in game.herd]), counts=i32(game.counts), printed=i32(game.printed),
            low1=i32([low[0] for low in lowest]), low2=i32([low[1] for low in lowest]),
            pile_types=i32(self.t.type_onehot[game.pile].sum(0) if game.pile else 0 * self.t.type_total),
            display=i32(game.display), dkind=i32([self.t.kind[c] if c >= 0 else -1 for c in game.display]),
            back=i32(game.back),
            wool=i32(game.wool), supply=i32(game.supply), round=i32(game.round), turns=i32(game.turn),
            dice=i32(game.dice), bids=i32(game.bids), revealed=np.bool_(game.revealed),
            order=i32(game.order if game.revealed else [0] * n), pos=i32(game.pos), attempt=i32(game.attempt),
            kept=i32(game.kept), base=i32(game.base), bonus=i32(game.bonus), neg=i32(game.neg),
            target=i32(game.target), can_claim=np.bool_(game.can_claim), picks=i32(game.picks),
            black_only=np.bool_(game.black_only), pending=i32(game.pending), cur=i32(game.cur),
        )
        if self._complete is None:  # one compiled program, not hundreds of dispatched operations
            self._complete = jax.jit(self._complete_state)
        return self._complete(g)

    _complete = None

    def _complete_state(self, g: GameState) -> State:
        """The Pgx state around a game state: mask, rewards (at the end), observation."""
        over = g.pending == PH_OVER
        rewards = jnp.where(over, rank_rewards(self.scores_of(g)), 0.0).astype(jnp.float32)
        # the reference keeps no decision count: the turns begun stand in for Pgx's step count
        state = self._wrap(g, rewards, g.turns)
        state = state.replace(legal_action_mask=state.legal_action_mask | over)
        return state.replace(observation=self.observe_player(state, state.current_player))

    def feed_chance(self, game: rules.VolleWolleGame, key: jax.Array) -> None:
        """Let the reference ``game`` roll the dice ``step(..., key)`` rolls (see Chance)."""
        game.rng = StreamRandom(host_stream(key, 3 * self.t.n))
