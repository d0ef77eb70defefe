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
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from meadowzoo.agents.heuristics.haste_bock import StrongHasteBock, light_copy, tile_options, turn_points
from meadowzoo.agents.shipped import resolve_agent_file, verify_recorded_sha256
from meadowzoo.envs.haste_bock import data as D
from meadowzoo.envs.haste_bock.afterstate import (
    GAME, INPUT_SIZE, SLOTS, dense, game_record, next_card_seat, outcomes, record,
)
from meadowzoo.envs.haste_bock.rules import (
    ACTION_TYPE, CARD, DISCARD_BASE, MOVE, MOVE_BASE, PANIC, PANIC_BASE, TILE, TILE_BASE, TYPE_BASE, HasteBockGame,
)

FORMAT = "meadowzoo-afterstate-value-v1"
DEFAULT_WIDTH = 8
#: where the candidate plans come from: strong's ``width`` best, or every plan (no heuristic)
PRIORS = ("strong", "none")


class AfterstateValue:
    """The fitted MLP: afterstate records -> chance of finishing ahead of each slot."""

    def __init__(self, weights: list[tuple[np.ndarray, np.ndarray]], num_players: int, meta: dict) -> None:
        if weights[0][0].shape[1] != INPUT_SIZE:
            raise ValueError(f"value net reads {weights[0][0].shape[1]} inputs, the encoding has {INPUT_SIZE}")
        self.weights = weights
        self.num_players = num_players
        self.meta = meta

    @classmethod
    def from_file(cls, path: str | Path) -> "AfterstateValue":
        import torch

        verify_recorded_sha256(path)
        try:
            payload = torch.load(Path(path), map_location="cpu", weights_only=True)
        except FileNotFoundError:
            raise
        except Exception as err:  # not a torch file, or one holding more than tensors and plain data
            raise ValueError(f"{path} is not a meadowzoo afterstate value file ({FORMAT}): {err}") from err
        if not isinstance(payload, dict) or payload.get("format") != FORMAT:
            raise ValueError(f"{path} is not a meadowzoo afterstate value file ({FORMAT})")
        try:
            state = payload["state_dict"]
            weights = [(state[f"layers.{2 * i}.weight"].numpy(), state[f"layers.{2 * i}.bias"].numpy())
                       for i in range(len(payload["hidden"]) + 1)]
            num_players = int(payload["num_players"])
        except (KeyError, TypeError, AttributeError) as err:
            raise ValueError(f"{path}: malformed afterstate value file ({err!r} missing or wrong)") from err
        return cls(weights, num_players, {k: v for k, v in payload.items() if k != "state_dict"})

    def beats(self, records: np.ndarray) -> np.ndarray:
        """``(batch, SLOTS)`` chances that the viewer finishes ahead of slot k (slot 0: 0.5)."""
        x = dense(records, self.num_players)
        for i, (w, b) in enumerate(self.weights):
            x = x @ w.T + b
            if i < len(self.weights) - 1:
                x = np.maximum(x, 0.0)
        out = np.full((len(x), SLOTS), 0.5, dtype=np.float32)
        out[:, 1:] = 1.0 / (1.0 + np.exp(-x[:, : SLOTS - 1]))
        return out

    def worth(self, records: np.ndarray) -> np.ndarray:
        """Expected number of players the viewer finishes ahead of (ties count half)."""
        return self.beats(records)[:, 1:self.num_players].sum(axis=1)


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


class LookaheadAgent(StrongHasteBock):
    """strong's ``width`` best plans (``prior="strong"``) or every plan (``prior="none"``), the one
    with the best learned afterstate value played."""

    name = "lookahead"

    def __init__(self, value: AfterstateValue, width: int = DEFAULT_WIDTH, seed: int | None = None,
                 prior: str = "strong", explore: float = 0.0) -> None:
        super().__init__(seed)
        if width < 1:
            raise ValueError(f"width must be at least 1, got {width}")
        if prior not in PRIORS:
            raise ValueError(f"lookahead prior must be one of {PRIORS}, got {prior!r}")
        if not 0.0 <= explore <= 1.0:
            raise ValueError(f"lookahead explore must lie in [0, 1], got {explore}")
        self.value = value
        self.explore = explore
        self.width = width
        self.prior = prior

    # -- afterstates --------------------------------------------------------------------------
    def _after_turn(self, game: HasteBockGame, moved: HasteBockGame, p: int, kind: int, in_hand: bool,
                    tile: int) -> tuple[np.ndarray | None, float]:
        """Record (or, when the turn ends the game, exact worth) of ``p``'s turn: ``moved`` holds
        the board after the move, ``kind`` the card (still in ``game``'s hand if ``in_hand``)."""
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
            return None, ended_worth(game, scores, hands, tiles, p)
        return record(moved.pos, moved.facing, new, scores, hands, tiles, nxt, p), 0.0

    def _pick(self, options: list[tuple[float, int, np.ndarray | None, float]]) -> int:
        """Best action of ``(strong value, action, record or None, exact worth)`` options; with
        ``explore`` > 0, at that rate a uniformly drawn option instead (self-play data that also
        shows what the other plans lead to)."""
        if self.explore and self.rng.random() < self.explore:
            return options[int(self.rng.integers(len(options)))][1]
        recs = [o[2] for o in options if o[2] is not None]
        worths = iter(self.value.worth(np.stack(recs)) if recs else [])
        scored = [(float(next(worths)) if rec is not None else exact, strong, -a) for strong, a, rec, exact in options]
        best = max(range(len(options)), key=lambda i: scored[i])
        return options[best][1]

    def _turn_options(self, game: HasteBockGame, plans: list[tuple[float, int, int]], in_hand: bool) -> list:
        p = game.player
        options = []
        for strong_value, action, move in plans:
            kind = (action - DISCARD_BASE if action >= DISCARD_BASE else action) if in_hand else game.card_kind
            if move < 0:
                moved = light_copy(game)
            else:
                t = ACTION_TYPE[move - MOVE_BASE]
                moved = self._moved(game, t, move - TYPE_BASE[t])
            for tile in tile_options(game, p):
                rec, exact = self._after_turn(game, moved, p, kind, in_hand, tile)
                options.append((strong_value, action, rec, exact))
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

    def act(self, env: Any, agent: str) -> int:
        game: HasteBockGame = env.game
        if game.num_agents != self.value.num_players:
            raise ValueError(f"this afterstate value was fitted for {self.value.num_players} players; "
                             f"the game has {game.num_agents}")
        if game.phase2_rows != "occupied" or game.rule_data != D.DEFAULT_RULE_DATA:
            raise ValueError("this afterstate value was fitted on the default rules (phase2_rows='occupied', "
                             "no rule_data changes); the game uses others")
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        p = game.player
        if game.pending == CARD:
            discard = legal[0] >= DISCARD_BASE
            kinds = [a - DISCARD_BASE if discard else a for a in legal]
            if self.prior == "none":
                return self._pick(self._turn_options(game, self._every_plan(game, kinds, discard), True))
            return self._pick(self._turn_options(game, self._top(self._plans(game, kinds, discard)), True))
        if game.pending == MOVE:
            if self.prior == "none":
                return self._pick(self._turn_options(game, [(0.0, a, a) for a in legal], False))
            scored = self.action_values(game, legal) or []
            plans = self._top([(v, a, a) for v, a in scored])
            return self._pick(self._turn_options(game, plans, False))
        if game.pending == TILE:
            moved = light_copy(game)
            options = []
            for a in legal:
                rec, exact = self._after_turn(game, moved, p, game.card_kind, False, a - TILE_BASE)
                options.append((0.0, a, rec, exact))
            return self._pick(options)
        if game.pending == PANIC:
            options = []
            nxt = next_card_seat(game.hands, game.time, p)
            if nxt < 0:  # the last card was played: a ram moves no score, the result stands
                worth = ended_worth(game, game.points, game.hands, game.tiles, p)
                return self._pick([(0.0, a, None, worth) for a in legal])
            for a in legal:
                g = light_copy(game)
                m = a - PANIC_BASE
                g._ram(m >> 6, (m >> 3) & 7, (m & 7) + 1)
                options.append((0.0, a, game_record(g, p, p), 0.0))
            return self._pick(options)
        return self.choose(legal)


def parse_spec(parameter: str | None, game: str, seed: int | None) -> LookaheadAgent:
    """``path.pt``, optionally followed by ``:width=K`` and ``:prior=strong|none`` (the registry's
    ``lookahead:`` parameter), and ``:explore=E``."""
    if game != GAME:
        raise ValueError(f"the lookahead player is for {GAME}, not {game!r}")
    if not parameter:
        raise ValueError("lookahead needs a value file: lookahead:path/to/value.pt")
    path, *settings = parameter.split(":")
    width, prior, explore = DEFAULT_WIDTH, "strong", 0.0
    for setting in settings:
        key, _, raw = setting.partition("=")
        if key == "width" and raw.isdigit():
            width = int(raw)
        elif key == "prior" and raw in PRIORS:
            prior = raw
        elif key == "explore" and _is_share(raw):
            explore = float(raw)
        else:
            raise ValueError(f"unknown lookahead setting {setting!r}; use width=K, prior=strong|none or explore=E "
                             "(0 <= E <= 1)")
    return LookaheadAgent(AfterstateValue.from_file(resolve_agent_file(path)), width=width, seed=seed, prior=prior,
                          explore=explore)


def _is_share(text: str) -> bool:
    try:
        return 0.0 <= float(text) <= 1.0
    except ValueError:
        return False
