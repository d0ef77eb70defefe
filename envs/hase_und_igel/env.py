# noqa: D212, D415
"""
# Hase und Igel

| Import             | `from meadowzoo.envs import hase_und_igel_v0`                                 |
|--------------------|---------------------------------------------------------------------|
| Registry id        | `pettingzoo.make("aec", "meadowzoo/hase_und_igel-v0")` (after `import meadowzoo`) |
| Actions            | Discrete                                                            |
| Parallel API       | No                                                                  |
| Manual control     | Yes (`python -m meadowzoo.training.play --game hase_und_igel --agents human,…`) |
| Agents             | `agents = ['player_0', …, 'player_{n-1}']`, n = 2…6                 |
| Action shape       | (1,)                                                                |
| Action values      | Discrete(70); Discrete(139) with two runners per player             |
| Observation shape  | dict: `observation` float32 (see below), `action_mask` int8         |

Hase und Igel (Ravensburger 1978, David Parlett) is a race without dice: a forward move of n squares
costs n(n+1)/2 carrots; carrots come back from hedgehog squares, carrot squares, number and flag
squares and lettuce squares; a runner may only finish with all lettuces eaten and few carrots left.
Rules: `docs/rules/hase_und_igel.md` (ids HUI-1 … HUI-30); the forward model is
`envs/hase_und_igel/rules.py`.

## Options (`env(**kwargs)` / `raw_env(**kwargs)`)
| option | default | meaning |
|---|---|---|
| `num_players` | 4 | 2–6 players |
| `two_runners` | True | with 2 players: each player has two runners sharing 98 carrots and 5 lettuces (HUI-5/30); False = the 1-runner duel (68 carrots, 3 lettuces); with 3+ players one runner each, whatever it says |
| `teams` | None | `"2x2"` (4 players), `"3x2"` or `"2x3"` (6 players): seats alternate teams (HUI-29) |
| `chain_hare_cards` | False | arriving on a hare square through a card draws another card (HUI-13 DECISION) |
| `reshuffle_deck` | False | drawn hare cards are discarded and reshuffled when the deck is empty (HUI-2 option) |
| `start_player` | None | seat that moves first; None = drawn by lot from the seed (HUI-6) |
| `max_turns` | 1500 | the game is cut as its `max_turns`-th player turn begins (HUI-20; see docs/environments.md) |
| `truncation_scoring` | `"draw"` | a `max_turns` cut scores 0 for everybody (`"draw"`) or the rank rewards of the race standing at the cut (`"standing"`: race positions, HUI-15; see `meadowzoo.envs.core.standing`) |
| `render_mode` | None | `"ansi"`, `"rgb_array"` or `"human"` (prints the text board) |

## Agents, turns and decisions
Seat order is turn order. Everything without a choice happens automatically (payouts, eating a
lettuce, missing a turn, a stuck runner returning to Start, the final-stretch move back, card effects
without a choice), so `agent_selection` is always a player with a real decision. A turn can hold two
decisions of the same agent: after a hare card "forward/back to carrot square" or "take or give 10"
(take/give/pass), or "move again" (another move or pass). The observation says which is pending.

## Action space
With one runner per player (`Discrete(70)`):

| index | string | meaning |
|---|---|---|
| t − 1, t = 1…63 | `move to t` | forward move to square t, paying (t − pos)(t − pos + 1)/2 carrots |
| 63 | `move to goal` | forward move onto the Goal (HUI-18 conditions) |
| 64 | `hedgehog back` | back to the nearest hedgehog square behind, +10 carrots per square |
| 65 | `stay, take 10` | stay on the carrot square and take 10 carrots |
| 66 | `stay, give 10` | stay on the carrot square and give 10 carrots |
| 67 | `card: take 10` | after a carrot/take-or-give card: take 10 |
| 68 | `card: give 10` | … give 10 |
| 69 | `card: pass` | … neither; or decline the "move again" extra move |

With two runners (`Discrete(139)`): indices 0–66 are runner A's moves (strings prefixed `A: `),
67–133 runner B's (`B: `, index − 67 as above), 134/135 `A: give up` / `B: give up` (only when
neither runner can act: that runner goes back to Start, or makes its final-stretch move back),
136–138 the three card choices.

## Action mask
`action_mask[i] = 1` iff action i is legal for the agent to move; all zeros for the others. Rules:
forward targets must be free, not a hedgehog, a lettuce square only with a lettuce left, affordable,
the Goal only with no lettuce and at most 10 × finishing place carrots after paying (the first runner
of a two-runner player: any carrots); hedgehog back only if the nearest hedgehog behind is free;
staying only on a carrot square, giving only with ≥ 10 carrots.

## Observation space
`observation` is a float32 vector from the observing player's seat: its own runners and holdings
first, then the other players in turn order. The table is generated from the declaration in
`envs/hase_und_igel/observation.py` (`python -m meadowzoo.envs.core.observation`):

<!-- observation:start -->
Sizes and offsets use n = number of players; R = number of runners (n, or 4 with two runners); k = runners per player.

| block | offset | size | meaning |
|---|---|---|---|
| runners | 0 | 70·R | per runner, the observer's first, then by seat: position one-hot over 0…64 (0 = Start, 64 = Goal) [65]; eats at its next turn; misses its next turn; number/flag check pending; race position / R; finishing place / R (0 while racing) |
| players | 70·R | 4·n | per player, the observer first: carrots / 100; lettuces / starting lettuces; on the observer's team (the observer itself: 1); to move now |
| hare deck | 70·R + 4·n | 120 | the next 12 draws from the top, 10 each: one-hot card kind (9 kinds in `data.CARD_KINDS` order) if every player has seen that card go to the bottom, index 9 = unknown; all zero = no card (reshuffle variant) |
| unseen cards | 70·R + 4·n + 120 | 9 | count of each kind among the cards whose order is unknown / 2 |
| last card | 70·R + 4·n + 129 | 9 | one-hot kind of the most recently drawn card (zeros before the first draw) |
| decision | 70·R + 4·n + 138 | 4 | pending decision one-hot: move, card carrots (take/give/pass), extra move, stuck (two runners); zeros once over |
| card runner | 70·R + 4·n + 142 | k | one-hot slot of the runner a card decision is about |
| progress | 70·R + 4·n + k + 142 | 1 | turns begun / max_turns (at most 1) |
| (total) | | 70·R + 4·n + k + 143 | |
<!-- observation:end -->

Everything shown is public (HUI observation principle); the unseen deck order never is.

## Rewards
At the end, by final rank: first +1, last −1, linear in between, ties share. 3–6 players: ranking is
the finishing order, the last runner on the track last. Two players: first player with both runners
home (duel: the first runner home) +1, the other −1. Teams: the team with all runners home first
+1; the other teams share the remaining places. A `max_turns` truncation gives 0 to everybody, or
with `truncation_scoring="standing"` the rank rewards of the race standing at the cut (in the
truncating step).
Intermediate rewards are 0.

## Version history
* v0: initial release.
"""

from __future__ import annotations

import struct
from bisect import bisect_right
from typing import Any

import numpy as np

from meadowzoo.envs.core.aec import FLOAT32, INT8, MeadowEnv, unknown_options
from meadowzoo.envs.core.options import check_bool
from meadowzoo.envs.hase_und_igel import data, render
from meadowzoo.envs.hase_und_igel.observation import LAYOUT
from meadowzoo.envs.hase_und_igel.rules import HaseUndIgelGame, check_config

GOAL = data.GOAL
RUNNER_FEATURES = 70
PLAYER_FEATURES = 4
DECK_SLOTS = 12
CARD_FEATURES = len(data.CARD_KINDS) + 1  # kinds + unknown
NUM_KINDS = len(data.CARD_KINDS)
NUM_DECISIONS = 4
_frombuffer = np.frombuffer
_PAIR = struct.Struct("<2f")
_ONE = struct.Struct("<f")
#: a runner block's position one-hot and its eat / miss / number-check flags (columns 0..67), by
#: [square][eat + 2·miss + 4·payout]
_RUNNER_HEADS = tuple(
    tuple(np.concatenate([one_hot, [flags & 1, flags >> 1 & 1, flags >> 2 & 1]]).astype(np.float32).tobytes()
          for flags in range(8))
    for one_hot in np.eye(GOAL + 1, dtype=np.float32)
)
_RUNNER_BLOCKS: dict[int, tuple] = {}  # see _runner_blocks
#: column 0 of a player block (carrots / 100) by carrots, for the counts random play reaches (it
#: piles up thousands); more are packed on demand. Same float32 as ``_ONE.pack(carrots * 0.01)``.
_CARROT_LIMIT = 1 << 14
_CARROT_BYTES = (lambda raw: tuple(raw[i:i + 4] for i in range(0, len(raw), 4)))(
    (np.arange(_CARROT_LIMIT) * 0.01).astype(np.float32).tobytes())


def _runner_blocks(num_runners: int) -> tuple:
    """Whole runner blocks (70 floats) by [square][eat][miss][payout][k], k = the finishing place on
    the Goal and elsewhere the number of runners at or behind the square, which gives the race
    position (a runner is on the Goal iff it has a place), for
    ``num_runners`` runners: one lookup per runner instead of a head and a tail. The flags index
    the table one by one (bools are 0/1): cheaper than ``eat + 2·miss + 4·payout``, whose bool
    arithmetic misses the interpreter's int fast paths. Built once per runner count (65 · 8 · 7
    blocks of 280 bytes at most: under a megabyte)."""
    if num_runners not in _RUNNER_BLOCKS:
        scale = 1.0 / num_runners
        places = [_PAIR.pack(k * scale, k * scale) for k in range(num_runners + 1)]
        # off the Goal, k is the number of runners at or behind the runner's square (see _encode):
        # race position num_runners + 1 - k
        ranks = [_PAIR.pack((num_runners + 1 - k) * scale, 0.0) for k in range(num_runners + 1)]
        _RUNNER_BLOCKS[num_runners] = tuple(
            tuple(tuple(tuple(tuple(heads[eat + 2 * miss + 4 * payout] + tail
                                    for tail in (places if square == GOAL else ranks))
                              for payout in (0, 1)) for miss in (0, 1)) for eat in (0, 1))
            for square, heads in enumerate(_RUNNER_HEADS)
        )
    return _RUNNER_BLOCKS[num_runners]


def _decision_row(pending: int, slot: int, rpp: int) -> bytes:
    """Decision one-hot (none once over: ``pending`` = OVER) and card-runner one-hot (none: -1)."""
    row = np.zeros(NUM_DECISIONS + rpp, dtype=np.float32)
    if pending < NUM_DECISIONS:
        row[pending] = 1
    if slot >= 0:
        row[NUM_DECISIONS + slot] = 1
    return row.tobytes()


#: columns 2, 3 of a player block (on the observer's team, to move now) by [same team + 2·to move]
_TEAM_TURN = tuple(_PAIR.pack(flags & 1, flags >> 1) for flags in range(4))
#: the deck block: next draws, then unseen counts at UNSEEN_AT, then the last card at LAST_CARD_AT
UNSEEN_AT = DECK_SLOTS * CARD_FEATURES
LAST_CARD_AT = UNSEEN_AT + NUM_KINDS
DECK_FEATURES = LAST_CARD_AT + NUM_KINDS


class _Encoding:
    """The byte tables the observation is joined from (fixed per configuration) and the memos of
    an env. One object rather than a dozen env attributes: past 30 attributes CPython 3.11 turns an
    object's attributes into a plain dict, which slows every attribute access and method call of
    the env (the base env has 22). Clones share it: every memo is keyed by the game object, the
    deck state, the legal set or ``max_turns``, so it is right for any env of the configuration."""

    __slots__ = ("size", "runner_order", "runner_blocks", "player_rows", "decision_bytes", "mask_memo",
                 "deck_cache", "deck_list", "deck_known_from", "deck_last_card", "deck_block", "progress_bytes",
                 "progress_turns")

    def __init__(self, game: HaseUndIgelGame) -> None:
        n, r, rpp = game.num_agents, game.num_runners, game.rpp
        self.size = RUNNER_FEATURES * r + PLAYER_FEATURES * n + DECK_FEATURES + NUM_DECISIONS + rpp + 1
        self.deck_cache: dict[tuple, bytes] = {}
        # the deck block last built, and what it was built from: the game's deck list (replaced,
        # never changed in place, by the rules: see HaseUndIgelGame), known_from and last_card
        self.deck_list: list[int] | None = None
        self.deck_known_from = self.deck_last_card = -2
        self.deck_block = b""
        self.progress_bytes: tuple[bytes, ...] = ()  # see HaseUndIgelEnv._progress_table
        self.progress_turns = -1  # the max_turns the progress table was made for
        self.mask_memo: dict[tuple[int, ...], np.ndarray] = {}
        # seat order seen from each observer, and the runners in that order
        seat_order = [[(seat + k) % n for k in range(n)] for seat in range(n)]
        self.runner_order = [[p * rpp + j for p in order for j in range(rpp)] for order in seat_order]
        self.runner_blocks = _runner_blocks(r)
        # columns 1..3 of a player block (lettuces, on the observer's team, to move now) by
        # [lettuces][same team + 2·to move]
        scale = 1.0 / game.start_lettuces
        tails = tuple(tuple(_ONE.pack(lettuces * scale) + flags for flags in _TEAM_TURN)
                      for lettuces in range(game.start_lettuces + 1))
        # the player blocks' rows by [observer][player to move, -1 (the last row) once over]: the
        # players in seat order from the observer, each with its columns 1..3 by lettuces (the
        # team and turn flags settled here, not per player and step)
        self.player_rows = [[[(p, tuple(tail[(game.team_of[p] == game.team_of[seat]) + 2 * (p == current)]
                                        for tail in tails))
                              for p in order] for current in [*range(n), -1]]
                            for seat, order in enumerate(seat_order)]
        # the decision and card-runner one-hots, by [pending][card runner + 1] (pending = OVER: no
        # decision; the card runner's slot is its index modulo rpp)
        self.decision_bytes = tuple(
            tuple(_decision_row(pending, runner % rpp if runner >= 0 else -1, rpp) for runner in range(-1, r))
            for pending in range(NUM_DECISIONS + 1))


class HaseUndIgelEnv(MeadowEnv):
    """Raw AEC env of Hase und Igel; see the module docstring for spaces and options."""

    metadata = {**MeadowEnv.metadata, "name": "hase_und_igel_v0"}
    default_max_turns = 1500
    game_class = HaseUndIgelGame
    observation_layout = LAYOUT

    def __init__(
        self,
        num_players: int = 4,
        two_runners: bool = True,
        teams: str | None = None,
        chain_hare_cards: bool = False,
        reshuffle_deck: bool = False,
        start_player: int | None = None,
        render_mode: str | None = None,
        max_turns: int | None = None,
        truncation_scoring: str = "draw",
        **unknown: Any,
    ) -> None:
        if unknown:  # a ValueError naming the options, as the other games' envs give (not a TypeError)
            raise unknown_options(unknown, ("num_players", "two_runners", "teams", "chain_hare_cards",
                                            "reshuffle_deck", "start_player"))
        super().__init__(
            render_mode=render_mode,
            max_turns=max_turns,
            truncation_scoring=truncation_scoring,
            num_players=num_players,
            two_runners=two_runners,
            teams=teams,
            chain_hare_cards=chain_hare_cards,
            reshuffle_deck=reshuffle_deck,
            start_player=start_player,
        )

    def _check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        check_config(options["num_players"], options["two_runners"], options["teams"], options["start_player"])
        # as plain Python values (numpy integers and bools accepted): the snapshot stores them as JSON
        options["num_players"] = int(options["num_players"])
        if options["start_player"] is not None:
            options["start_player"] = int(options["start_player"])
        for flag in ("two_runners", "chain_hare_cards", "reshuffle_deck"):
            options[flag] = check_bool(flag, options[flag])
        return options

    # ---- observation ----------------------------------------------------------------------------
    def _observation_size(self, game: HaseUndIgelGame) -> int:
        self._obs = _Encoding(game)
        return self._obs.size

    @property
    def _deck_base(self) -> int:
        """Offset of the hare deck slice in the observation."""
        return RUNNER_FEATURES * self.game.num_runners + PLAYER_FEATURES * self.game.num_agents

    def _mask(self, seat: int) -> np.ndarray:
        # As MeadowEnv._mask, but the mask of a set of legal actions is memoised (a read-only
        # template, handed out as a copy): a game visits a few thousand distinct sets, and one
        # copy costs less than filling a fresh mask action by action.
        if seat != self.game.current_agent or self.game.turn >= self.max_turns:
            return np.zeros(self.num_actions, INT8)
        legal = self._legal
        if legal is None:
            legal = self._legal = self.game.legal_actions()  # the game is not over: it is our seat's turn
        key = tuple(legal)
        memo = self._obs.mask_memo
        template = memo.get(key)
        if template is None:
            if len(memo) >= 1 << 13:  # bounded: a long run starts afresh now and then
                memo.clear()
            # filled as bytes (read-only, as a template must be): a sixth of the steps of random
            # play miss the memo, and numpy's fancy assignment costs several times more
            mask = bytearray(self.num_actions)
            for action in key:
                mask[action] = 1
            template = memo[key] = np.frombuffer(bytes(mask), INT8)
        return template.copy()

    def _encode(self, game: HaseUndIgelGame, seat: int) -> np.ndarray:
        # Joined from byte pieces, one bytes join and one numpy array per call (several times
        # cheaper than writing the floats one by one): per runner its whole block from a table,
        # per player its carrots and the rest from tables,
        # the memoised deck block, the decision one-hots and the progress. This is the hot path of
        # every AEC step.
        positions, places = game.pos, game.place
        # race positions (HUI-15): finished runners first, then track runners by square, the runners
        # on Start last. Finished runners stand on the Goal and a track square holds one runner,
        # so a racing runner's position is 1 + the number of runners on squares ahead, that is
        # num_runners + 1 - bisect_right(ascending, square), the table's index off the Goal (an
        # ascending sort: a reverse=True costs more than the sort)
        ascending = sorted(positions)
        eat, miss, payout = game.eat, game.miss, game.payout
        obs = self._obs
        blocks = obs.runner_blocks
        pieces = []
        append = pieces.append
        for r in obs.runner_order[seat]:
            square = positions[r]
            append(blocks[square][eat[r]][miss[r]][payout[r]][places[r] or bisect_right(ascending, square)])
        carrots, lettuces = game.carrots, game.lettuces
        for p, tails in obs.player_rows[seat][game.current_agent]:
            try:  # a try costs nothing until it catches (random play piles up thousands of carrots)
                append(_CARROT_BYTES[carrots[p]])
            except IndexError:
                append(_ONE.pack(carrots[p] * 0.01))
            append(tails[lettuces[p]])
        if game.deck is obs.deck_list and game.known_from == obs.deck_known_from and game.last_card == obs.deck_last_card:
            append(obs.deck_block)  # nothing drawn since the last observation
        else:
            append(self._deck_block(game))
        append(obs.decision_bytes[game.pending][game.card_runner + 1])
        progress = obs.progress_bytes if obs.progress_turns == self.max_turns else self._progress_table()
        try:
            append(progress[game.turns])
        except IndexError:  # past the table: a restored game, or an env with a huge max_turns
            append(_ONE.pack(min(1.0, game.turns / self.max_turns)))
        return _frombuffer(bytearray().join(pieces), FLOAT32)

    def _progress_table(self) -> tuple[bytes, ...]:
        """The progress column (turns / max_turns, at most 1) by turns up to ``max_turns`` (at most
        2**14 of them), for the current ``max_turns`` (it may change on restore)."""
        turns = np.arange(min(self.max_turns, 1 << 14) + 1)
        raw = np.minimum(1.0, turns / self.max_turns).astype(np.float32).tobytes()
        obs = self._obs
        obs.progress_bytes = tuple(raw[i:i + 4] for i in range(0, len(raw), 4))
        obs.progress_turns = self.max_turns
        return obs.progress_bytes

    def _deck_block(self, game: HaseUndIgelGame) -> bytes:
        """Next draws, unseen counts and last card; memoised on the deck state."""
        obs = self._obs
        key = (tuple(game.deck), game.known_from, game.last_card)
        block = obs.deck_cache.get(key)
        if block is None:
            features = np.zeros(DECK_FEATURES, dtype=np.float32)
            deck, known_from = game.deck, game.known_from
            for slot in range(min(DECK_SLOTS, len(deck))):
                kind = deck[slot] if slot >= known_from else NUM_KINDS  # NUM_KINDS = "unknown"
                features[slot * CARD_FEATURES + kind] = 1.0
            for card in deck[:known_from]:
                features[UNSEEN_AT + card] += 0.5
            if game.last_card >= 0:
                features[LAST_CARD_AT + game.last_card] = 1.0
            if len(obs.deck_cache) > 4096:
                obs.deck_cache.clear()
            block = obs.deck_cache[key] = features.tobytes()
        obs.deck_list, obs.deck_known_from, obs.deck_last_card = game.deck, game.known_from, game.last_card
        obs.deck_block = block
        return block

    # ---- rendering ------------------------------------------------------------------------------
    def _render_ansi(self) -> str:
        return render.ansi(self.game, self.last_action_text())

    def _render_rgb(self) -> np.ndarray:
        return render.rgb(self.game, self.last_action_text())

    def last_action_text(self) -> str:
        if self.last_action is None:
            return "game start"
        agent, action = self.last_action
        return f"{agent}: {self.game.action_to_string(action)}"
