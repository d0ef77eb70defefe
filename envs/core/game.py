"""The forward-model contract every meadowzoo game implements.

A *game* is the pure rules engine of one board game: a state, the legal actions of the player whose
decision is pending, ``apply`` and the final outcome. It knows nothing about PettingZoo, observation
tensors, rendering or what an observer has memoised; the AEC adapter
(:mod:`meadowzoo.envs.core.aec`) wraps it and keeps every observation cache itself.

The contract, the same for every game (``envs/<game>/rules.py``):

Naming
    The rules class is ``<Title>Game`` (``HaseUndIgelGame``, ``HasteBockGame``,
    ``VolleWolleGame``); its AEC adapter is ``<Title>Env`` in ``envs/<game>/env.py``.

Construction
    ``<Title>Game(num_players, *, rng=None, **options)`` builds a game at its first decision (set-up
    and every automatic opening step done). ``options`` are the game options of the env, under the
    same names; an impossible configuration raises ``ValueError``. ``rng`` (a
    ``numpy.random.Generator``; a fresh unseeded one if omitted) is the game's only source of
    chance. A game is otherwise only made by :meth:`Game.clone` and :meth:`Game.from_dict` (and by
    position helpers of a game's own tests).

The decision
    * Players are numbered ``0 .. num_agents-1`` in seat order, which is turn order.
    * ``current_agent`` is the player whose decision is pending (``-1`` once the game is over);
      ``is_over`` says whether the game has ended by its rules.
    * ``pending`` is the kind of the pending decision, an index into the class's
      :attr:`Game.DECISIONS` names, whose last entry is ``"over"`` (the value once the game ended).
    * Everything that needs no decision (forced moves, payouts, automatic bookkeeping) is resolved
      inside ``apply`` so that the game always rests at a decision or at the end.
    * ``turn`` is the number of player turns begun so far, automatic turns included (a turn may hold
      several decisions of its player: a card and its move, a roll and its picks). The adapter
      truncates at ``max_turns`` by it.

Legal actions
    ``legal_actions()`` returns a **new** sorted list of the legal action indices of
    ``current_agent`` (empty once over) at every call: the caller owns it and may change it.
    ``apply(action)`` raises :class:`IllegalActionError` (a ``ValueError``) for an out-of-range or
    illegal action and changes nothing; ``apply_legal(action)`` is the adapter's unchecked path
    for an action it has already checked against its mask.

Outcome
    ``places()`` gives every player's final place, 0 = first; equal numbers are shared places.
    ``teams()`` says which players share a result. ``scores()`` gives every player's points by the
    rules as if the game ended now (a new list), or ``None`` for a game ranked without points
    (Hase und Igel, a race).

Chance, copies and snapshots
    Chance (dice, shuffles) is drawn only from the game's own generator ``rng``; its state is part
    of the snapshot, so ``from_dict(to_dict())`` continues identically and ``clone()`` is an
    independent copy that draws the same future. ``to_dict()`` is plain JSON data with the fields
    ``pending`` (the decision's name) and ``turn`` in every game; ``from_dict`` validates every
    field and raises ``ValueError`` naming the bad one. ``upgrade(data, version)`` converts a game
    dict written by an older snapshot format (see :data:`meadowzoo.envs.core.aec.SNAPSHOT_VERSION`).
    ``resample_hidden(observer, rng)`` redraws what ``observer`` cannot know (search players).

Text
    ``action_to_string`` names every action index; ``string_to_action`` is its inverse.

Observation caches (memo tables, change detection) belong to the adapter. The rules keep no
counter or version number for an observer's benefit; where an adapter memoises by identity, the
game documents which of its lists it replaces rather than changes in place.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from operator import attrgetter
from typing import Any

import numpy as np


class IllegalActionError(ValueError):
    """An action that is out of range or not legal in the current state."""


class Game(ABC):
    """Abstract forward model. Subclasses hold their state in plain Python containers."""

    #: short registry name, e.g. ``"hase_und_igel"``
    name: str = ""
    #: number of players (AEC agents)
    num_agents: int
    #: size of the ``Discrete`` action space
    num_actions: int
    #: names of the decision kinds ``pending`` indexes; the last one is ``"over"``
    DECISIONS: tuple[str, ...] = ()
    #: a subclass that keeps its state in ``__slots__`` names them here too (see _shallow_copy)
    _SLOTS: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "_SLOTS" in cls.__dict__:  # one C call reads every slot's value, as a tuple
            cls._slot_values = attrgetter(*cls._SLOTS)

    def _shallow_copy(self) -> "Game":
        """A new game of this class sharing every slot's value with this one (``clone`` then
        copies what must not be shared)."""
        twin = object.__new__(type(self))
        for name, value in zip(self._SLOTS, self._slot_values(self)):
            setattr(twin, name, value)
        return twin

    # ---- the decision -------------------------------------------------------------------------
    @property
    @abstractmethod
    def current_agent(self) -> int:
        """Player whose decision is pending, ``-1`` when the game is over."""

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """True once the game has ended by its rules."""

    # ``pending`` (int) and ``turn`` (int) are attributes or properties of every game: the number of
    # the pending decision's kind in DECISIONS, and the player turns begun so far (see above).
    pending: int
    turn: int

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """A new sorted list of the legal action indices of ``current_agent`` (empty when the game
        is over); the caller may keep and change it."""

    @abstractmethod
    def apply(self, action: int) -> None:
        """Carry out ``action`` for ``current_agent``; raises :class:`IllegalActionError`."""

    def apply_legal(self, action: int) -> None:
        """:meth:`apply` for an action the caller has already found in :meth:`legal_actions` (the
        AEC adapter checks every action against its mask first). Games whose ``apply`` pays for
        its own check override this with the unchecked path."""
        self.apply(action)

    # ---- outcome ------------------------------------------------------------------------------
    @abstractmethod
    def places(self) -> list[int]:
        """Final place of each player (0 = first; equal values share a place)."""

    def scores(self) -> list[int] | None:
        """Every player's points by the rules as if the game ended now (a new list); ``None`` for a
        game ranked without points."""
        return None

    def teams(self) -> list[int]:
        """Team id of each player; by default every player is its own team."""
        return list(range(self.num_agents))

    # ---- text ---------------------------------------------------------------------------------
    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """A readable, typeable name of an action index (valid for every index)."""

    def string_to_action(self, text: str) -> int:
        """Inverse of :meth:`action_to_string`; also accepts a decimal index."""
        key = " ".join(str(text).strip().lower().split())
        table = self._string_table()
        if key in table:
            return table[key]
        if key.lstrip("-").isascii() and key.lstrip("-").isdigit():  # "٣" is a digit, not an index
            index = int(key)
            if 0 <= index < self.num_actions:
                return index
        raise ValueError(f"unknown action {text!r} for {self.name}")

    def _string_table(self) -> dict[str, int]:
        cache = type(self).__dict__.get("_string_cache")
        key = self.num_actions, self._string_table_key()
        if cache is None:
            cache = {}
            setattr(type(self), "_string_cache", cache)
        if key not in cache:
            cache[key] = {
                " ".join(self.action_to_string(a).lower().split()): a for a in range(self.num_actions)
            }
        return cache[key]

    def _string_table_key(self) -> Any:
        """What, besides ``num_actions``, changes action names (e.g. the variant)."""
        return None

    # ---- copying and snapshots ----------------------------------------------------------------
    @abstractmethod
    def clone(self) -> "Game":
        """An independent copy (its generator too)."""

    @abstractmethod
    def to_dict(self) -> dict:
        """A JSON-serialisable snapshot of the whole state, generator included."""

    @classmethod
    @abstractmethod
    def from_dict(cls, data: dict) -> "Game":
        """Rebuild a game from :meth:`to_dict`; raises ``ValueError`` naming a bad field."""

    @classmethod
    def upgrade(cls, data: Any, version: int) -> Any:
        """``data``, a game dict written in snapshot format ``version`` (older than the current
        one), in the current shape. Renamed fields are renamed here; anything malformed is left
        for :meth:`from_dict` to reject. The default changes nothing."""
        return data

    def resample_hidden(self, observer: int, rng: np.random.Generator) -> None:
        """Redraw everything ``observer`` cannot know, consistently with what it has seen.

        Used by search players (determinization). Games without hidden information keep the
        default, which only reseeds future chance so a search never peeks at the real dice.
        """
        self.rng = np.random.default_rng(rng.integers(2**63))
