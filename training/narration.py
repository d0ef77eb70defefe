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

from dataclasses import dataclass, field
from typing import Any

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


def _context(game: Any) -> str:
    """What the pending decision is about, where the action's name does not say it."""
    if game.name == "haste_bock" and type(game).DECISIONS[game.pending] == "panic":
        from meadowzoo.envs.haste_bock import data

        return f"die: {data.DIE_FACES[game.die]}"
    return ""


# ---- explanations of the special decisions ----------------------------------------------------------
def _haste_bock(game: Any, decision: str, legal: list[int]) -> str | None:
    from meadowzoo.envs.haste_bock import data
    from meadowzoo.envs.haste_bock.rules import DISCARD_BASE, MOVE_BASE

    if decision == "panic":
        face = data.DIE_FACES[game.die]
        sheep = {"black": "Thea (the black sheep)", "white": "any sheep, Thea included"}.get(face, f"a {face} sheep")
        opening = game.time == 0
        why = ("the opening panic: before the first turn every player rolls and rams (HB-8)" if opening else
               "the time marker stopped on a panic space (* on the track), so the die was rolled (HB-9)")
        return (f"PANIC RAM: {why}. The die shows {face}: you must ram with {sheep}, whoever owns it. "
                f"The menu lists every possible ram: 'panic ram <sheep> <direction> target <k>' means that "
                f"sheep runs along the direction and the k-th sheep on its line moves one square on; the sheep "
                f"in between and the rammer close up behind it (HB-13). It scores nothing and moves no time.")
    if decision == "card" and legal and DISCARD_BASE <= legal[0] < MOVE_BASE:
        return ("No action card of yours has a possible move: discard one without effect; its time still "
                "counts (HB-11).")
    if decision == "tile":
        return ("Time tile: add one of your tiles to the card's time (2 players: you must, HB-23; 3 players: "
                "you may, and each unused tile costs 2 points at the end, HB-22).")
    return None


def _volle_wolle(game: Any, decision: str, legal: list[int]) -> str | None:
    if decision == "bid":
        return ("BID (VW-7): choose your betting card in secret; all bids are revealed once everybody has bid. "
                "The highest bid acts first (VW-8) and must then roll at least its bid with the d12, d10 and d8 "
                "(three attempts, VW-9). 26+ needs and costs one wool. The last in order does not roll and takes "
                "the cards left over (VW-12).")
    if decision == "roll":
        return (f"ROLL, attempt {game.attempt} of 3 (VW-9/10): 'claim' takes the success now (won cards: 3, 2 "
                f"or 1 at attempt 1, 2, 3), paying with your top card's bonus and wool if needed; 'keep <die>' "
                f"sets that die aside and rerolls the others; 'decline' (attempt 3) accepts failure: no cards, "
                f"one wool (VW-11).")
    if decision == "black":
        return ("BLACK SHEEP (VW-11): you failed below 14 and the display holds black sheep. Spend wool to reach "
                "14 ('avoid black sheep') or take every black sheep of the display.")
    if decision == "pick":
        return (f"PICK (VW-10/14): take {game.picks} more card(s) of the display, one at a time; the last one you "
                f"take becomes the top of your herd, whose modifier and sheep number count from now on.")
    return None


def _hase_und_igel(game: Any, decision: str, legal: list[int]) -> str | None:
    from meadowzoo.envs.hase_und_igel import data

    card = data.CARD_KINDS[game.last_card].replace("_", " ") if game.last_card >= 0 else "?"
    if decision == "card_carrots":
        return (f"HARE CARD '{card}': you may take 10 carrots, give 10 (only with at least 10) or pass "
                f"(HUI-22, HUI-25).")
    if decision == "extra_move":
        return (f"HARE CARD '{card}' (HUI-23): one more normal move of the same runner (forward, or back to the "
                f"nearest hedgehog), or pass.")
    if decision == "stuck":
        return ("STUCK (two-runner variant, HUI-30): neither of your runners can act; choose which one returns "
                "to Start.")
    return None


EXPLAINERS = {"haste_bock": _haste_bock, "volle_wolle": _volle_wolle, "hase_und_igel": _hase_und_igel}


def explain(env: Any) -> str | None:
    """What the pending decision of ``env`` is, for a person (``None`` for an ordinary one)."""
    game = env.game
    legal = env.legal_actions()
    explainer = EXPLAINERS.get(game.name)
    text = explainer(game, type(game).DECISIONS[game.pending], legal) if explainer else None
    if len(legal) == 1:
        forced = f"FORCED: '{env.action_to_string(legal[0])}' is your only legal action."
        text = f"{text}\n{forced}" if text else forced
    return text
