"""Afterstates of Hase und Igel as numbers, for a learned value of "my turn is over, now what?".

An *afterstate* is the position once a player's turn is over: its move made, a drawn hare card
resolved with its choice (HUI-21 … HUI-28), and the next player's automatic turn parts done
(payouts, eating, missing a turn, a stuck runner's return; HUI-12/14/16/21/30), so that the next
decision is pending. The only hidden part of the game is the order of the unseen hare cards
(HUI-2); a record holds what every player knows instead: how many cards of each kind are unseen,
and the next draws where their order is known (cards drawn go to the bottom, in plain sight).
The lookahead player (:mod:`meadowzoo.agents.heuristics.hase_und_igel_lookahead`) builds the
afterstates of its options, the recorder (:mod:`meadowzoo.training.afterstate_data`) those of played
games; both call :func:`game_record`, so the two can never disagree.

The encoding is for the two-player game with two runners each (HUI-5/HUI-30, the default 2-player
configuration) on the default rules (no chained hare cards, no reshuffled deck); ``game_record``
refuses any other.

A record (:data:`RECORD_SIZE` small ints, see :func:`game_record`) is seen from one *viewer*:
slot 0 is the viewer, slot 1 the opponent. :func:`dense` turns records into the network input
(:data:`INPUT_SIZE` floats):

* per runner (the viewer's two, then the opponent's two; a player's runners are alike, so each
  pair is sorted): its square one-hot over 0..64, eats / misses / payout check pending at its
  next turn, the carrots paid for its last move / 30 (HUI-24, at most 3), home, its race position one-hot
  1..4 (HUI-15), and two rule terms a net learns slowly from the one-hots: the owner's carrots
  minus the cost of moving onto the Goal / 50 (clipped to ±3) and whether it could finish now
  (HUI-18: no lettuce, the move affordable, at most 10 × finishing place carrots left, the first
  runner home of a player excepted; ``dense(..., rule_terms=False)`` leaves these two at zero);
* per player: carrots / 100 (at most 3), carrots in tens one-hot 0..15 (150 and more in the last), lettuces
  one-hot 0..5;
* who decides next (one-hot 2, none once the game is over), runners home one-hot 0..3, turns / 1500;
* the hare deck: unseen cards per kind / 2 (9 kinds, ``data.CARD_KINDS`` order), and the next
  four draws one-hot over the 9 kinds plus "unknown".

The fit's targets (:func:`final_targets`): the viewer's result against the opponent (1 won, 0 lost,
0.5 drawn), at a ``max_turns`` cut by the race standing (HUI-15, as ``truncation_scoring="standing"``
scores it); there is no helper target (``gains`` are zero).
"""

from __future__ import annotations

import numpy as np

from meadowzoo.envs.hase_und_igel import data
from meadowzoo.envs.hase_und_igel.standing import race_places

#: the game these afterstates are of (stored in value files, checked by the players that read them)
GAME = "hase_und_igel"
SLOTS = 2
#: the player counts the encoding describes
PLAYER_COUNTS = (2,)
#: keyword options of :func:`dense`
INPUT_OPTIONS = ("rule_terms",)
RUNNERS = 4
KINDS = len(data.CARD_KINDS)
NEXT_DRAWS = 4
#: per runner in a record: square, eats, misses, payout pending, last move's cost, home place, race position
_RUNNER_FIELDS = 7
_CARROTS = RUNNERS * _RUNNER_FIELDS
_LETTUCES = _CARROTS + SLOTS
_NEXT = _LETTUCES + SLOTS
_HOME = _NEXT + 1
_TURNS = _HOME + 1
_UNSEEN = _TURNS + 1
_DRAWS = _UNSEEN + KINDS
RECORD_SIZE = _DRAWS + NEXT_DRAWS

_RUNNER_INPUTS = data.NUM_POSITIONS + 3 + 1 + 1 + 4 + 2
_PLAYER_INPUTS = 1 + 16 + 6
INPUT_SIZE = RUNNERS * _RUNNER_INPUTS + SLOTS * _PLAYER_INPUTS + SLOTS + 4 + 1 + KINDS + NEXT_DRAWS * (KINDS + 1)
_GOAL_COST = np.array([data.move_cost(data.GOAL - p) for p in range(data.NUM_POSITIONS)], dtype=np.int64)
#: HUI-20's default turn cap (the env's ``max_turns``), the scale of the turns input
TURN_SCALE = 1500.0


def supports(game) -> bool:
    """Whether the encoding describes ``game``: two players with two runners, default card rules."""
    return game.num_agents == 2 and game.rpp == 2 and not game.chain_hare_cards and not game.reshuffle_deck


def outcome(places: list[int], viewer: int) -> float:
    """1 if ``viewer`` finished ahead of the other player (places 0 = best), 0.5 if tied, 0 if behind."""
    mine, theirs = places[viewer], places[1 - viewer]
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def turn_marker(game) -> tuple[int, int]:
    """Who decides and how many turns have begun, taken before a decision (the recorder's protocol,
    see :mod:`meadowzoo.agents.afterstate_value`)."""
    return game.cur, game.turns


def turn_ended(marker: tuple[int, int], game) -> bool:
    """The decision taken since ``marker`` ended the turn: the game is over or a new turn began (a
    card decision, HUI-22/23/25, continues the same turn)."""
    return game.is_over or game.turns != marker[1]


def game_record(game, mover: int, viewer: int) -> np.ndarray:
    """The record of ``game`` between turns, seen from ``viewer`` (``mover``, whose turn just
    ended, is not needed: everything is in the position)."""
    if not supports(game):
        raise ValueError("the Hase und Igel afterstate encoding is for 2 players with two runners each "
                         "on the default card rules (no chain_hare_cards, no reshuffle_deck)")
    out = np.zeros(RECORD_SIZE, dtype=np.int16)
    for slot, player in enumerate((viewer, 1 - viewer)):
        runners = sorted(
            (game.pos[r], game.eat[r], game.miss[r], game.payout[r], game.last_cost[r], game.place[r],
             game.race_position(r))
            for r in (2 * player, 2 * player + 1)
        )
        out[slot * 2 * _RUNNER_FIELDS:(slot + 1) * 2 * _RUNNER_FIELDS] = np.array(runners).ravel()
        out[_CARROTS + slot] = game.carrots[player]
        out[_LETTUCES + slot] = game.lettuces[player]
    out[_NEXT] = -1 if game.is_over else (game.cur - viewer) % 2
    out[_HOME] = game.finished
    out[_TURNS] = game.turns
    deck, known_from = game.deck, game.known_from
    out[_UNSEEN:_DRAWS] = np.bincount(np.asarray(deck[:known_from], dtype=np.int64), minlength=KINDS)
    out[_DRAWS:] = [deck[i] if known_from <= i < len(deck) else -1 for i in range(NEXT_DRAWS)]
    return out


def final_targets(game, records: np.ndarray, viewer: int) -> tuple[np.ndarray, np.ndarray]:
    """``viewer``'s result (the ``(SLOTS,)`` beats row: 0.5 for itself, then :func:`outcome`)
    once the game ended, or at a cut by the race standing; zero gains (no helper target)."""
    places = game.places() if game.is_over else race_places(game)
    beats = np.array([0.5, outcome(places, viewer)], dtype=np.float32)
    return beats, np.zeros((len(records), SLOTS), dtype=np.float32)


def dense(records: np.ndarray, num_players: int = 2, rule_terms: bool = True) -> np.ndarray:
    """The network input of a batch of records: ``(batch, INPUT_SIZE)`` float32; with
    ``rule_terms=False`` the two rule terms of every runner stay zero."""
    records = np.asarray(records, dtype=np.int64).reshape(-1, RECORD_SIZE)
    b = len(records)
    rows = np.arange(b)
    out = np.zeros((b, INPUT_SIZE), dtype=np.float32)
    runners = records[:, :_CARROTS].reshape(b, RUNNERS, _RUNNER_FIELDS)
    carrots = records[:, _CARROTS:_CARROTS + SLOTS]
    lettuces = records[:, _LETTUCES:_LETTUCES + SLOTS]
    home = records[:, _HOME]
    for k in range(RUNNERS):
        at = k * _RUNNER_INPUTS
        square, eats, misses, payout, cost, place, position = (runners[:, k, f] for f in range(_RUNNER_FIELDS))
        out[rows, at + square] = 1.0
        at += data.NUM_POSITIONS
        out[:, at], out[:, at + 1], out[:, at + 2] = eats, misses, payout
        out[:, at + 3] = np.minimum(cost, 90) / 30.0
        racing = place == 0
        out[:, at + 4] = ~racing
        out[rows, at + 5 + np.clip(position - 1, 0, 3)] = 1.0
        if not rule_terms:
            continue
        owner = k // 2
        mine = carrots[:, owner]
        goal_cost = _GOAL_COST[square]
        out[:, at + 9] = np.where(racing, np.clip((mine - goal_cost) / 50.0, -3.0, 3.0), 0.0)
        partner_home = runners[:, 2 * owner + (1 - k % 2), 5] > 0
        left = mine - goal_cost
        out[:, at + 10] = racing & (lettuces[:, owner] == 0) & (left >= 0) & (
            ~partner_home | (left <= data.FINISH_LIMIT * (home + 1)))
    at = RUNNERS * _RUNNER_INPUTS
    for slot in range(SLOTS):
        out[:, at] = np.minimum(carrots[:, slot], 300) / 100.0  # a hoard beyond 300 plays alike
        out[rows, at + 1 + np.clip(carrots[:, slot] // 10, 0, 15)] = 1.0
        out[rows, at + 17 + np.clip(lettuces[:, slot], 0, 5)] = 1.0
        at += _PLAYER_INPUTS
    nxt = records[:, _NEXT]
    deciding = nxt >= 0
    out[rows[deciding], at + nxt[deciding]] = 1.0
    at += SLOTS
    out[rows, at + np.clip(home, 0, 3)] = 1.0
    at += 4
    out[:, at] = records[:, _TURNS] / TURN_SCALE
    at += 1
    out[:, at:at + KINDS] = records[:, _UNSEEN:_DRAWS] / 2.0
    at += KINDS
    draws = records[:, _DRAWS:]
    for i in range(NEXT_DRAWS):
        out[rows, at + i * (KINDS + 1) + np.where(draws[:, i] >= 0, draws[:, i], KINDS)] = 1.0
    return out
