"""The Haste Bock? lookahead player: the strong heuristic's best plans, re-ranked by a learned value.

At every decision the player lists its candidate plans the way ``strong`` does
(:mod:`meadowzoo.agents.heuristics.haste_bock`: every card × legal move × time tile, played on a light copy),
keeps the ``width`` plans strong rates best, builds the *afterstate* of each (the position when the
turn is over: sheep moved, marker advanced, the triggered scoring added, the card gone; see
:mod:`meadowzoo.envs.haste_bock.afterstate`) and plays the plan whose afterstate a learned value rates
best. Panic rams (HB-8/HB-9) and time tiles are chosen the same way over all legal options.

The value (:class:`AfterstateValue`) is a small MLP fitted by :mod:`meadowzoo.training.fit_afterstate_value`
to the outcomes of played games: for the afterstate seen from the player, the chance of finishing
ahead of each other seat. A plan's worth is the expected number of players it finishes ahead of,
i.e. minus its expected rank; a plan that ends the game is valued exactly (HB-24 places, with 3
players after the HB-22 tile penalty). This is one step of approximate policy iteration, as in
TD-Gammon: the value (fitted on outcomes, then on TD(λ) targets) describes how games go on when the
recorded players continue, and choosing by it improves on the player that generated the data.

The value is fitted for one player count on the default rules (occupied-row scoring, the
RECONSTRUCTED rule data); the player refuses other games rather than misjudge them.

The value file is weights-only (a plain dict of tensors and JSON-like metadata read with
``torch.load(..., weights_only=True)``); inference runs in numpy. Command-line spec:
``lookahead:path/to/value.pt`` (optionally ``lookahead:path.pt:width=8``; ``:explore=E`` plays a
uniformly drawn option at rate E, for recording self-play).

``prior=none`` (``lookahead:path.pt:prior=none``) takes no advice from the strong heuristic: every
plan of the turn (every card × legal move × time tile) is valued, and ties are broken by the lower
action index. This is the player that learns Haste Bock? from the rules alone
(:mod:`meadowzoo.training.afterstate_selfplay`): with it nothing but the rules engine and the learned
value decides a move.

``reply=R`` (default 0: off) searches one turn deeper at the card, move and tile decisions: the R
options of best 1-ply worth are played out on copies of the game, the next player answers each
with the plan of its own best value (every plan of its turn), and the option whose answered
afterstate the mover values most is played (ties: the 1-ply order). A turn ending on a panic space
(HB-9 (4)) is played once per die face (HB-6, each 1/6, the mover's ram by the 1-ply value), so
the search never reads the real generator. It costs R of the next player's plan lists per decision
(about 0.1 s a decision with R=4 on one core).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from meadowzoo.agents.afterstate_value import AfterstateValue as LearnedValue, is_share, spec_settings
from meadowzoo.agents.heuristics.haste_bock import StrongHasteBock, light_copy, tile_options, turn_points
from meadowzoo.agents.shipped import resolve_agent_file
from meadowzoo.envs.haste_bock import afterstate
from meadowzoo.envs.haste_bock import data as D
from meadowzoo.envs.haste_bock.afterstate import GAME, game_record, next_card_seat, outcomes, record
from meadowzoo.envs.haste_bock.rules import (
    ACTION_TYPE, CARD, DISCARD_BASE, MOVE, MOVE_BASE, PANIC, PANIC_BASE, TILE, TILE_BASE, TYPE_BASE, HasteBockGame,
)

DEFAULT_WIDTH = 8
#: where the candidate plans come from: strong's ``width`` best, or every plan (no heuristic)
PRIORS = ("strong", "none")


class AfterstateValue(LearnedValue):
    """The fitted MLP of Haste Bock?: afterstate records -> chance of finishing ahead of each slot."""

    encoding = afterstate


def exact_worth(final: HasteBockGame, viewer: int) -> float:
    """Players the viewer finishes ahead of in a game that has ended (HB-24 places, ties half)."""
    return sum(outcomes(final.places(), viewer)) - 0.5  # the viewer's own entry is a tie


def ended_worth(game: HasteBockGame, scores: list[int], hands: list[list[int]], tiles: list[list[int]],
                viewer: int) -> float:
    """:func:`exact_worth` once ``game`` ends with these scores, hands and tiles: the engine's own
    end (HB-22 tile penalty with 3 players) is played on a twin holding them."""
    twin = light_copy(game)
    twin.points, twin.hands, twin.tiles = list(scores), hands, tiles
    twin._end()
    return exact_worth(twin, viewer)


class _FixedRoll:
    """Stands in for a game copy's random generator: every die roll shows ``face``. The search
    plays its copies with it, so it weighs every face and never reads the real generator."""

    def __init__(self, face: int) -> None:
        self.face = face

    def integers(self, high: int) -> int:
        if not 0 <= self.face < high:
            raise ValueError(f"die face {self.face} outside 0..{high - 1}")
        return self.face


class LookaheadAgent(StrongHasteBock):
    """strong's ``width`` best plans (``prior="strong"``) or every plan (``prior="none"``), the one
    with the best learned afterstate value played."""

    name = "lookahead"

    def __init__(self, value: AfterstateValue, width: int = DEFAULT_WIDTH, seed: int | None = None,
                 prior: str = "strong", explore: float = 0.0, reply: int = 0) -> None:
        super().__init__(seed)
        if width < 1:
            raise ValueError(f"width must be at least 1, got {width}")
        if prior not in PRIORS:
            raise ValueError(f"lookahead prior must be one of {PRIORS}, got {prior!r}")
        if not 0.0 <= explore <= 1.0:
            raise ValueError(f"lookahead explore must lie in [0, 1], got {explore}")
        if reply < 0:
            raise ValueError(f"lookahead reply must be at least 0, got {reply}")
        self.value = value
        self.explore = explore
        self.reply = reply
        self._replied_turn: tuple[int, int] | None = None
        self._replied: dict = {}
        self.width = width
        self.prior = prior

    # -- afterstates --------------------------------------------------------------------------
    def _after_turn(self, game: HasteBockGame, moved: HasteBockGame, p: int, kind: int, in_hand: bool,
                    tile: int, viewer: int | None = None) -> tuple[np.ndarray | None, float]:
        """Record (or, when the turn ends the game, exact worth) of ``p``'s turn seen from
        ``viewer`` (default ``p``): ``moved`` holds the board after the move, ``kind`` the card
        (still in ``game``'s hand if ``in_hand``)."""
        viewer = p if viewer is None else viewer
        gained, new = turn_points(moved, p, kind % 3 + 1 + tile)
        scores = [s + g for s, g in zip(game.points, gained)]
        hands = [h[:] for h in game.hands]
        if in_hand:
            hands[p][kind] -= 1
        tiles = [t[:] for t in game.tiles]
        if tile:
            tiles[p][tile - 1] -= 1
        nxt = -1 if new >= D.PEN_2 else next_card_seat(hands, new, p)
        if nxt < 0:
            return None, ended_worth(game, scores, hands, tiles, viewer)
        return record(moved.pos, moved.facing, new, scores, hands, tiles, nxt, viewer), 0.0

    def _worths(self, options: list) -> list[float]:
        """The 1-ply worth of every option: the value of its record, or its exact worth."""
        recs = [o[2] for o in options if o[2] is not None]
        worths = iter(self.value.worth(np.stack(recs)) if recs else [])
        return [float(next(worths)) if o[2] is not None else o[3] for o in options]

    def _pick(self, options: list, game: HasteBockGame | None = None) -> int:
        """Best action of ``(strong value, action, record or None, exact worth, plan)`` options;
        with ``explore`` > 0, at that rate a uniformly drawn option instead (self-play data that
        also shows what the other plans lead to). With ``reply`` > 0 and the ``game`` given, the
        ``reply`` options of best 1-ply worth are re-rated by the next player's answer
        (:meth:`_replied_worth`)."""
        if self.explore and self.rng.random() < self.explore:
            return options[int(self.rng.integers(len(options)))][1]
        keys = self._keys(options)
        if not self.reply or game is None or len(options) == 1:
            return options[max(range(len(options)), key=keys.__getitem__)][1]
        candidates = sorted(range(len(options)), key=keys.__getitem__, reverse=True)[: self.reply]
        replied = {i: self._replied_worth(game, options[i]) for i in candidates}
        best = max(candidates, key=lambda i: (replied[i], *keys[i]))
        return options[best][1]

    def _keys(self, options: list) -> list[tuple[float, float, int]]:
        """The order of options: 1-ply worth, then strong's value, then the lower action."""
        return [(w, o[0], -o[1]) for w, o in zip(self._worths(options), options)]

    def _best(self, options: list) -> tuple:
        """The option of the best :meth:`_keys` (no exploration: the search's own choices)."""
        keys = self._keys(options)
        return options[max(range(len(options)), key=keys.__getitem__)]

    def _turn_options(self, game: HasteBockGame, plans: list[tuple[float, int, int]], in_hand: bool) -> list:
        """Every ``(strong value, first action, record or None, exact worth, plan)`` of these plans
        × the time tiles; ``plan`` is ``(moved, kind, tile, actions)``: the board after the move,
        the card, the tile and the actions that play the rest of the turn from this decision."""
        p = game.player
        asks_tile = bool(sum(game.tiles[p]))  # HB-22/23: a tile decision follows the card
        options = []
        for strong_value, action, move in plans:
            kind = (action - DISCARD_BASE if action >= DISCARD_BASE else action) if in_hand else game.card_kind
            if move < 0:
                moved = light_copy(game)
            else:
                t = ACTION_TYPE[move - MOVE_BASE]
                moved = self._moved(game, t, move - TYPE_BASE[t])
            steps = (action,) if move < 0 or not in_hand else (action, move)
            for tile in tile_options(game, p):
                rec, exact = self._after_turn(game, moved, p, kind, in_hand, tile)
                actions = steps + (TILE_BASE + tile,) if asks_tile else steps
                options.append((strong_value, action, rec, exact, (moved, kind, tile, actions)))
        return options

    # -- the next player's answer (reply > 0) -------------------------------------------------
    def _replied_worth(self, game: HasteBockGame, option: tuple) -> float:
        """The worth of ``option`` for the player to move once the next player has answered it.

        The rest of the turn is played on copies of the game. A copy never rolls from the real
        generator: when the turn ends on a panic space (HB-9 (4)) every die face is played, each
        with weight 1/6, and the mover's panic ram is chosen by the 1-ply value. Then the next
        player plays the plan of its own best 1-ply worth (every plan of its turn, no prior), and
        the option is worth the mover's value of that afterstate. When the game ends first, the
        worth is exact; when the mover itself moves next, the 1-ply value of the position."""
        if option[2] is None:
            return option[3]
        me = game.player
        first = self._played(game, option, 0)
        # the answer is a function of the afterstate record and what it leaves out (the facing
        # it is turned by, the HB-16/17 bans on the next player): the card, move and tile
        # decisions of a turn rate many of the same plans, so their worths are kept for the turn
        key = (option[2].tobytes(), first.facing, first.no_trough, first.no_herd)
        if self._replied_turn != (game.turn, me):
            self._replied_turn, self._replied = (game.turn, me), {}
        if key not in self._replied:
            rolled = first.time != game.time and first.time in first.panic_spaces
            faces = range(1, len(D.DIE_FACES)) if rolled else ()
            outcomes = [first] + [self._played(game, option, face) for face in faces]
            self._replied[key] = float(np.mean([self._answered_worth(c, me) for c in outcomes]))
        return self._replied[key]

    def _played(self, game: HasteBockGame, option: tuple, face: int) -> HasteBockGame:
        """A copy of ``game`` with the rest of ``option``'s turn played, a panic roll showing
        ``face`` and the mover's ram, if any, chosen by the 1-ply value."""
        me = game.player
        copy = game.clone()
        copy.rng = _FixedRoll(face)
        for action in option[4][3]:
            copy.apply(action)
        if copy.pending == PANIC and copy.player == me:
            copy.apply(self._best(self._panic_options(copy))[1])
        return copy

    def _answered_worth(self, game: HasteBockGame, me: int) -> float:
        """``me``'s worth after the player to move in ``game`` plays its best plan (see
        :meth:`_replied_worth`)."""
        if game.is_over:
            return exact_worth(game, me)
        if game.player == me or game.pending != CARD:
            return float(self.value.worth(game_record(game, me, me)[None])[0])
        legal = game.legal_actions()
        discard = legal[0] >= DISCARD_BASE
        kinds = [a - DISCARD_BASE if discard else a for a in legal]
        answers = self._turn_options(game, self._every_plan(game, kinds, discard), True)
        moved, kind, tile, _ = self._best(answers)[4]
        rec, exact = self._after_turn(game, moved, game.player, kind, True, tile, viewer=me)
        return exact if rec is None else float(self.value.worth(rec[None])[0])

    def _panic_options(self, game: HasteBockGame) -> list:
        """The ``(0, ram action, record or None, exact worth, None)`` options of a pending panic ram."""
        p = game.player
        legal = game.legal_actions()
        if next_card_seat(game.hands, game.time, p) < 0:  # the last card was played: a ram moves no score
            worth = ended_worth(game, game.points, game.hands, game.tiles, p)
            return [(0.0, a, None, worth, None) for a in legal]
        options = []
        for a in legal:
            g = light_copy(game)
            m = a - PANIC_BASE
            g._ram(m >> 6, (m >> 3) & 7, (m & 7) + 1)
            options.append((0.0, a, game_record(g, p, p), 0.0, None))
        return options

    def _top(self, plans: list) -> list:
        return sorted(plans, key=lambda plan: (-plan[0], plan[1], plan[2]))[: self.width]

    @staticmethod
    def _every_plan(game: HasteBockGame, kinds: list[int], discard: bool) -> list[tuple[float, int, int]]:
        """``(0, card action, move action)`` of every card × legal move (move -1 for a discard):
        the candidates of ``prior="none"``, unranked."""
        if discard:
            return [(0.0, DISCARD_BASE + kind, -1) for kind in kinds]
        occupancy = game._occupancy()
        moves: dict[int, list[int]] = {}
        plans = []
        for kind in kinds:
            t = kind // 3
            if t not in moves:
                moves[t] = game._type_moves(t, occupancy)
            plans += [(0.0, kind, TYPE_BASE[t] + m) for m in moves[t]]
        return plans

    def check_fits(self, env: Any, observation: Any = None) -> None:
        """A value fitted for another player count or other rules must not play (the game runner
        and the command lines ask before the first move)."""
        game: HasteBockGame = env.game
        if game.num_agents != self.value.num_players:
            raise ValueError(f"this afterstate value was fitted for {self.value.num_players} players; "
                             f"the game has {game.num_agents}")
        if game.phase2_rows != "occupied" or game.rule_data != D.DEFAULT_RULE_DATA:
            raise ValueError("this afterstate value was fitted on the default rules (phase2_rows='occupied', "
                             "no rule_data changes); the game uses others")

    def act(self, env: Any, agent: str) -> int:
        game: HasteBockGame = env.game
        self.check_fits(env)
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        p = game.player
        if game.pending == CARD:
            discard = legal[0] >= DISCARD_BASE
            kinds = [a - DISCARD_BASE if discard else a for a in legal]
            if self.prior == "none":
                return self._pick(self._turn_options(game, self._every_plan(game, kinds, discard), True), game)
            return self._pick(self._turn_options(game, self._top(self._plans(game, kinds, discard)), True), game)
        if game.pending == MOVE:
            if self.prior == "none":
                return self._pick(self._turn_options(game, [(0.0, a, a) for a in legal], False), game)
            scored = self.action_values(game, legal) or []
            plans = self._top([(v, a, a) for v, a in scored])
            return self._pick(self._turn_options(game, plans, False), game)
        if game.pending == TILE:
            moved = light_copy(game)
            options = []
            for a in legal:
                rec, exact = self._after_turn(game, moved, p, game.card_kind, False, a - TILE_BASE)
                options.append((0.0, a, rec, exact, (moved, game.card_kind, a - TILE_BASE, (a,))))
            return self._pick(options, game)
        if game.pending == PANIC:
            return self._pick(self._panic_options(game))
        return self.choose(legal)


def parse_spec(parameter: str | None, game: str, seed: int | None) -> LookaheadAgent:
    """``path.pt``, optionally followed by ``:width=K`` and ``:prior=strong|none`` (the registry's
    ``lookahead:`` parameter), and ``:explore=E``."""
    if game != GAME:
        raise ValueError(f"the lookahead player is for {GAME}, not {game!r}")
    if not parameter:
        raise ValueError("lookahead needs a value file: lookahead:path/to/value.pt")
    path, settings = spec_settings(parameter)
    width, prior, explore, reply = DEFAULT_WIDTH, "strong", 0.0, 0
    for setting, key, raw in settings:
        if key == "width" and raw.isdigit():
            width = int(raw)
        elif key == "reply" and raw.isdigit():
            reply = int(raw)
        elif key == "prior" and raw in PRIORS:
            prior = raw
        elif key == "explore" and is_share(raw):
            explore = float(raw)
        else:
            raise ValueError(f"unknown lookahead setting {setting!r}; use width=K, prior=strong|none, explore=E "
                             "(0 <= E <= 1) or reply=R")
    return LookaheadAgent(AfterstateValue.from_file(resolve_agent_file(path)), width=width, seed=seed, prior=prior,
                          explore=explore, reply=reply)
