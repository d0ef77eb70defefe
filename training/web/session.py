"""One game in progress on the server: the env, who sits where, the moves so far.

Human seats act through :meth:`GameSession.act` (from HTTP requests); every agent seat is played by
the session's own worker thread, which thinks on a *clone* of the env without holding the game's
lock, so pages keep updating while an agent thinks and one game's agent never blocks another game.
Each human seat has a secret token: its page (and only its page) gets that seat's private view.

Every change of state bumps ``version`` and wakes the requests waiting for it (long polling).
A rejected request raises :class:`RequestError` before anything changes.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from meadowzoo.envs import plugin
from meadowzoo.training.runner import final_scores, start
from meadowzoo.training.web import views

HUMAN = "human"
#: moves listed on a page (the newest); a whole Hase und Igel game can hold a thousand
HISTORY = 200
SAVED_FORMAT = "meadowzoo-game"


class RequestError(ValueError):
    """A request the server refuses; ``status`` is the HTTP status it answers with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Move:
    n: int  # 1-based move number
    seat: int
    action: int
    name: str
    events: list[str] = field(default_factory=list)  # what the game did by itself afterwards
    secret: Any = None  # see views.secret_key: hidden from the other seats until revealed


class GameSession:
    def __init__(self, game_id: str, game: str, specs: list[str], seed: int, options: dict | None = None,
                 agent_delay: float = 0.0) -> None:
        self.id = game_id
        self.game = game
        self.title = plugin(game).title
        self.specs = list(specs)
        self.seed = seed
        self.options = dict(options or {})
        self.agent_delay = agent_delay
        # seeded as a tournament game with this seed would be (the one game runner's scheme)
        self.env, players = start(game, specs, seed, self.options)
        self.agents = [None if spec == HUMAN else players[seat] for spec, seat in zip(specs, self.env.possible_agents)]
        self.tokens = [secrets.token_urlsafe(16) if spec == HUMAN else None for spec in specs]
        self.moves: list[Move] = []
        self.version = 0
        self.error: str | None = None
        self.closed = False
        self.created = time.time()
        self.changed = self.created  # when the game last changed (a move, an error), for idle games
        self.cond = threading.Condition()
        self.worker = threading.Thread(target=self._play_agents, name=f"agents-{game_id}", daemon=True)
        self.worker.start()

    # ---- state ------------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        env = self.env
        return all(env.terminations.values()) or all(env.truncations.values())

    def _to_move(self) -> int:
        return -1 if self.over or self.error else self.env.game.current_agent

    def summary(self) -> dict:
        with self.cond:
            return {"id": self.id, "game": self.game, "title": self.title, "agents": self.specs,
                    "moves": len(self.moves), "over": self.over, "to_move": self._to_move(),
                    "human_seats": [i for i, t in enumerate(self.tokens) if t]}

    def check_seat(self, seat: Any, token: Any) -> int | None:
        """The seat a request speaks for (``None``: a spectator); its token must match."""
        if seat is None:
            return None
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.specs):
            raise RequestError(f"seat must be an integer 0..{len(self.specs) - 1}, got {seat!r}")
        if self.tokens[seat] is None:
            raise RequestError(f"seat {seat} is played by the agent {self.specs[seat]!r}, not by a person", 403)
        # compared as UTF-8 bytes: compare_digest refuses str with non-ASCII characters (a TypeError)
        if not isinstance(token, str) or not secrets.compare_digest(token.encode(), self.tokens[seat].encode()):
            raise RequestError(f"wrong or missing token for seat {seat}", 403)
        return seat

    def state(self, seat: int | None) -> dict:
        """What ``seat`` (already checked) sees now."""
        with self.cond:
            return self._state(seat)

    def wait(self, since: int, timeout: float) -> None:
        """Block until the version differs from ``since`` (or ``timeout`` seconds passed)."""
        with self.cond:
            self.cond.wait_for(lambda: self.version != since or self.closed, timeout)

    def _state(self, seat: int | None) -> dict:
        env = self.env
        view, svg = views.picture(env, seat)
        to_move = self._to_move()
        legal = views.legal_moves(env, seat) if seat is not None and seat == to_move else []
        return {
            "id": self.id, "game": self.game, "title": self.title, "version": self.version, "seat": seat,
            "seats": [{"seat": i, "agent": spec} for i, spec in enumerate(self.specs)],
            "to_move": to_move, "over": self.over, "error": self.error,
            "view": view, "svg": svg, "legal": legal, "history": self._history(seat),
            "result": self._result() if self.over else None, "moves": len(self.moves),
        }

    def _history(self, seat: int | None) -> list[dict]:
        """The newest moves as ``seat`` may know them; ``new`` marks those since its last move."""
        last_own = max((m.n for m in self.moves if m.seat == seat), default=0)
        out = []
        for move in self.moves[-HISTORY:]:
            hidden = move.secret is not None and move.seat != seat and not views.is_revealed(self.env, move.secret)
            text = "a secret move (shown once revealed)" if hidden else move.name
            out.append({"n": move.n, "seat": move.seat, "text": f"player_{move.seat}: {text}",
                        "events": move.events, "new": move.n > last_own and move.seat != seat})
        return out

    def _result(self) -> dict:
        env, game = self.env, self.env.game
        return {"places": game.places() if game.is_over else None,
                "rewards": [float(env._cumulative_rewards[a]) for a in env.possible_agents],
                "scores": final_scores(game), "truncated": not game.is_over}

    def record(self) -> dict:
        """The finished game as a saved record (seed, agents, every action): replayable, and
        given out only once the game is over (the seed fixes every hidden card)."""
        with self.cond:
            if not self.over:
                raise RequestError("the game is not over: its record (seed and moves) would reveal hidden "
                                   "information", 409)
            return {"format": SAVED_FORMAT, "version": 1, "game": self.game, "options": self.options, "seed": self.seed,
                    "agents": self.specs, "actions": [m.action for m in self.moves], **self._result()}

    # ---- moves ------------------------------------------------------------------------------------
    def act(self, seat: int, action: Any, version: Any = None) -> dict:
        """A human seat's move (``seat`` already checked): an action index or its name."""
        with self.cond:
            if version is not None and version != self.version:
                raise RequestError(f"the game moved on (version {self.version}, the request was made at {version!r}); "
                                   "reload and choose again", 409)
            if self.over or self.error:
                raise RequestError("the game is over" if self.over else f"the game stopped: {self.error}", 409)
            if seat != self.env.game.current_agent:
                raise RequestError(f"it is not seat {seat}'s turn: player_{self.env.game.current_agent} is to move", 409)
            legal = {int(a) for a in np.flatnonzero(self.env.action_mask(self.env.possible_agents[seat]))}
            if isinstance(action, str):
                try:
                    action = self.env.string_to_action(action)
                except ValueError as error:
                    raise RequestError(str(error)) from None
            if isinstance(action, bool) or not isinstance(action, int):
                raise RequestError(f"action must be an action index or an action name, got {action!r}")
            if action not in legal:
                what = (f"action {action} ({self.env.action_to_string(action)})" if 0 <= action < self.env.num_actions
                        else f"action {action} (out of range 0..{self.env.num_actions - 1})")
                named = ", ".join(f"{a} ({self.env.action_to_string(a)})" for a in sorted(legal))
                raise RequestError(f"{what} is not legal now; legal actions: [{named}]", 409)
            self._apply(seat, action)
            return self._state(seat)

    def _apply(self, seat: int, action: int) -> None:
        env = self.env
        move = Move(len(self.moves) + 1, seat, action, env.action_to_string(action), secret=views.secret_key(env, action))
        env.step(action)
        move.events = views.automatic_events(env)
        self.moves.append(move)
        self.version += 1
        self.changed = time.time()
        self.cond.notify_all()

    def _play_agents(self) -> None:
        """The worker thread: plays every agent seat's decisions until the game ends or closes."""
        while True:
            with self.cond:
                self.cond.wait_for(lambda: self.closed or self._to_move() < 0 or self.agents[self._to_move()])
                if self.closed or self._to_move() < 0:  # closed, over or stopped: nothing left to play
                    return
                seat, version = self._to_move(), self.version
                twin = self.env.clone()  # the agent thinks on its own copy, without the lock
            if self.agent_delay:
                time.sleep(self.agent_delay)
            try:
                action = int(self.agents[seat].act(twin, twin.possible_agents[seat]))
            except BaseException as error:  # an agent's failure (a SystemExit too) stops this game only, with a message
                with self.cond:
                    self.error = f"agent {self.specs[seat]!r} at seat {seat} failed: {error!r}"
                    self.version += 1
                    self.cond.notify_all()
                return
            with self.cond:
                if self.closed:
                    return
                if self.version == version:
                    try:
                        self._apply(seat, action)
                    except ValueError as error:  # an illegal move: the env refused it, nothing changed
                        self.error = f"agent {self.specs[seat]!r} at seat {seat} failed: {error}"
                        self.version += 1
                        self.cond.notify_all()
                        return

    def close(self) -> None:
        with self.cond:
            self.closed = True
            self.cond.notify_all()
