"""What a person playing at the terminal is told before each of their decisions.

:mod:`meadowzoo.training.play` keeps a :class:`MoveLog` of the game (through the game runner's
hooks) and gives it to every ``human`` seat (:class:`meadowzoo.agents.human.HumanAgent`). Before a
decision the person sees

1. every move made since their own last decision, in words: who made it, its decision kind where
   that says more than the action's name (``panic ram (die: red)``), the action's name
   (``env.action_to_string``) and what the game did by itself afterwards (cards drawn, payouts:
   the game's event log, through its browser view's ``events``). A move that is secret for now
   (a Volle Wolle bid before the bids are revealed) is shown as such, by the view's
   ``secret``/``revealed``, and in full once revealed;
2. the board;
3. what a special decision is (:func:`explain`): Haste Bock?'s panic ram, Volle Wolle's bid,
   roll, black-sheep and pick decisions, Hase und Igel's hare-card choices, and a forced move (a
   single legal action).

The explanations cite the rule ids of the games' specifications (``docs/rules/``).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from meadowzoo.envs.registry import plugin
from meadowzoo.training.web import views


@dataclass
class LoggedMove:
    agent: str
    decision: str  # the decision kind's name (the game's DECISIONS)
    action: int
    name: str  # the action's readable name
    context: str  # what the decision was about, where it matters (the rolled die)
    secret: Any  # views.secret_key: hidden from the other seats until revealed
    events: list[str] = field(default_factory=list)  # what the game did by itself afterwards


class MoveLog:
    """Every move of one game with what the game did after it; see the module docstring."""

    def __init__(self, env: Any, labels: dict[str, str] | None = None) -> None:
        self.env = env
        self.labels = labels or {}  # seat name -> what plays it ("strong", "human")
        self.moves: list[LoggedMove] = []
        self._pending: tuple[str, str, Any] | None = None

    # the game runner's hooks (meadowzoo.training.runner.advance)
    def before(self, agent: str) -> None:
        game = self.env.game
        self._pending = (type(game).DECISIONS[game.pending], _context(game), None)

    def after(self, agent: str, action: int) -> None:
        decision, context, _ = self._pending or ("", "", None)
        # the secret key is taken in the position the move leads to: it names the round of a bid,
        # which a bid never changes (the reveal after the last bid is what ends the secret)
        self.moves.append(LoggedMove(agent, decision, int(action), self.env.action_to_string(int(action)), context,
                                     self._secret(action), views.automatic_events(self.env)))
        self._pending = None

    def _secret(self, action: int) -> Any:
        try:
            return views.secret_key(self.env, int(action))
        except ValueError:  # a game without a browser view: every move is public
            return None

    def who(self, agent: str) -> str:
        label = self.labels.get(agent)
        return f"{agent} ({label})" if label else agent

    def since_last(self, agent: str) -> list[str]:
        """The lines describing every move after ``agent``'s last one (what followed its own last
        move too), as ``agent`` may know them now."""
        last = max((i for i, move in enumerate(self.moves) if move.agent == agent), default=-1)
        lines = []
        if last >= 0 and self.moves[last].events:
            lines += [f"  after your move: {event}" for event in self.moves[last].events]
        for move in self.moves[last + 1:]:
            lines.append(f"  {self.who(move.agent)}: {self.describe(move, agent)}")
            lines += [f"      {event}" for event in move.events]
        return lines

    def explain(self, env: Any) -> str | None:
        return explain(env)

    def describe(self, move: LoggedMove, viewer: str) -> str:
        if move.secret is not None and move.agent != viewer and not views.is_revealed(self.env, move.secret):
            return f"{move.decision} (secret until revealed)"
        what = move.name
        if move.context:
            what = f"{what} ({move.context})"
        return what


def _narration(game: Any):
    """The game's narration module (its plug-in's ``narration``), or ``None``."""
    module = plugin(game.name).narration
    return importlib.import_module(module) if module else None


def _context(game: Any) -> str:
    """What the pending decision is about, where the action's name does not say it."""
    narration = _narration(game)
    return narration.context(game) if narration is not None and hasattr(narration, "context") else ""


# ---- explanations of the special decisions (each game's plug-in narration module) ----------------


def explain(env: Any) -> str | None:
    """What the pending decision of ``env`` is, for a person (``None`` for an ordinary one)."""
    game = env.game
    legal = env.legal_actions()
    narration = _narration(game)
    text = narration.explain(game, type(game).DECISIONS[game.pending], legal) if narration is not None else None
    if len(legal) == 1:
        forced = f"FORCED: '{env.action_to_string(legal[0])}' is your only legal action."
        text = f"{text}\n{forced}" if text else forced
    return text
