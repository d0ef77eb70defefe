"""A person at the terminal as a player.

At each of its decisions the player sees the text board (the env's ``ansi`` rendering), the
numbered list of legal actions by their readable names, and types either a number from that list
or an action's name (as ``env.string_to_action`` reads it, case and spacing free). Anything else —
an unknown name, an illegal action, a number off the list — is answered with a short message and
the question is asked again. ``quit`` (or ``q``, ``exit``, or the end of input) stops the game
with :class:`HumanQuit`, a ``SystemExit`` that command lines end on cleanly (exit status 0 after
``quit``, 1 when the input ended before the game: a script's piped moves ran out).

A *narrator* (``narrator=``, or set later as ``agent.narrator``; :mod:`meadowzoo.training.play`
gives every human seat its game's :class:`meadowzoo.training.narration.MoveLog`) adds, before each
decision, every other player's moves since the person's last decision (``since_last(agent)``
-> lines) and, after the board, what a special decision is (``explain(env)`` -> text or None).

The input and output streams are injectable, so tests drive the player with ``io.StringIO``.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from meadowzoo.agents.base import Agent

QUIT_WORDS = ("quit", "q", "exit")


class HumanQuit(SystemExit):
    """The person asked to stop the game (``input_ended``: the input ran out before the game did,
    which a command line reports with exit status 1, unlike a ``quit``)."""

    def __init__(self, message: str, input_ended: bool = False) -> None:
        super().__init__(message)
        self.input_ended = input_ended


class HumanAgent(Agent):
    """Asks a person on ``stdin`` / ``stdout`` (or the given streams) for every decision."""

    name = "human"

    def __init__(self, seed: int | None = None, input_stream: TextIO | None = None,
                 output_stream: TextIO | None = None, show_board: bool = True, narrator: Any = None) -> None:
        super().__init__(seed)
        self.input = input_stream
        self.output = output_stream
        self.show_board = show_board
        self.narrator = narrator

    def _write(self, text: str) -> None:
        print(text, file=self.output or sys.stdout, flush=True)

    def act(self, env: Any, agent: str) -> int:
        legal = env.legal_actions()
        if self.narrator is not None:
            moves = self.narrator.since_last(agent)
            self._write(f"\n=== {agent}: since your last decision ===" if moves else f"\n=== {agent} ===")
            for line in moves:
                self._write(line)
        if self.show_board:
            self._write(env._render_ansi())
        explanation = self.narrator.explain(env) if self.narrator is not None else None
        if explanation:
            self._write(explanation)
        self._write(f"\n{agent}, your move:")
        for i, action in enumerate(legal):
            self._write(f"  {i}: {env.action_to_string(action)}")
        while True:
            self._write("choose a number or type an action ('quit' to stop):")
            line = (self.input or sys.stdin).readline()
            if not line:
                raise HumanQuit("input ended", input_ended=True)
            answer = line.strip()
            if answer.lower() in QUIT_WORDS:
                raise HumanQuit("the player quit")
            action, problem = self.parse(env, answer, legal)
            if problem is None:
                return action
            self._write(problem)

    @staticmethod
    def parse(env: Any, answer: str, legal: list[int]) -> tuple[int, str | None]:
        """The action an answer names, or an explanation of why it names none."""
        if not answer:
            return -1, "please type something"
        if answer.isdigit():
            index = int(answer)
            if index < len(legal):
                return legal[index], None
            return -1, f"{index} is not on the list (0..{len(legal) - 1})"
        try:
            action = env.string_to_action(answer)
        except ValueError:
            return -1, f"unknown action {answer!r}"
        if action not in legal:
            return -1, f"{env.action_to_string(action)!r} is not legal now"
        return action, None
