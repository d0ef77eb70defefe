"""The PettingZoo AEC adapter shared by every meadowzoo game.

A game module supplies a :class:`~meadowzoo.envs.core.game.Game` (the rules) and subclasses
:class:`MeadowEnv` (``<Title>Env``) with: its rules class (:attr:`MeadowEnv.game_class`, built as
``game_class(rng=rng, **options)``), how to encode an observation from one seat
(:meth:`MeadowEnv._encode`, with the layout declared in :mod:`meadowzoo.envs.core.observation`),
and how to render. Observation caches live in the subclass, never in the game. Everything else
lives here once:

* agents ``player_0 … player_{n-1}``, ``agent_selection`` = the game's pending decision;
* observations ``{"observation": float32 vector, "action_mask": int8 vector}``; the mask is all
  zero for every agent but the one to move;
* rewards only at the end, by final rank (:mod:`meadowzoo.envs.core.rewards`); a ``max_turns`` truncation
  ends the game with reward 0 for everybody (``truncation_scoring="draw"``, the default) or with the
  rank rewards of the standing at the cut (``truncation_scoring="standing"``,
  :mod:`meadowzoo.envs.core.standing`), given in the truncating step;
* an illegal or malformed action raises ``ValueError`` naming the action and the legal ones, and
  leaves the game untouched (``env()`` adds PettingZoo's illegal-move termination on top);
* ``legal_actions()``: a new list at every call (the caller owns it);
* ``snapshot()`` / ``restore()`` (validated JSON, older formats upgraded) and ``clone()``;
  ``reset(options={"snapshot": ...})`` starts from a snapshot (other reset options are ignored,
  as PettingZoo's API test expects);
* ``action_to_string`` / ``string_to_action``.
"""

from __future__ import annotations

import copy
import math
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from meadowzoo.envs.core.game import Game
from meadowzoo.envs.core.observation import Layout
from meadowzoo.envs.core.options import check_int
from meadowzoo.envs.core.snapshot import same_json
from meadowzoo.envs.core.rewards import rank_rewards
from meadowzoo.envs.core.standing import check_truncation_scoring, standing_rewards

#: format of :meth:`MeadowEnv.snapshot`. 2: every game dict names its pending decision ``pending``
#: (a string) and its turn count ``turn`` (player turns begun). Version 1 snapshots still load:
#: each game's :meth:`~meadowzoo.envs.core.game.Game.upgrade` renames their fields.
SNAPSHOT_VERSION = 2
READABLE_SNAPSHOT_VERSIONS = (1, 2)
#: the fields of :meth:`MeadowEnv.snapshot`
SNAPSHOT_FIELDS = frozenset({"format", "version", "env", "options", "max_turns", "truncation_scoring", "game",
                             "agents", "cumulative_rewards", "last_action"})
#: how far a snapshot's cumulative rewards may lie from the exact rank rewards (float32 rounding)
REWARD_TOLERANCE = 1e-6
#: the options every env takes besides its game's (handled by :class:`MeadowEnv` itself)
ENV_SETTINGS = ("render_mode", "max_turns", "truncation_scoring")


def unknown_options(unknown: Any, game_options: Any) -> ValueError:
    """The error for constructor options an env does not take, naming every option it does."""
    known = sorted({*game_options, *ENV_SETTINGS})
    hint = ""
    if "max_cycles" in unknown:  # PettingZoo's length limit elsewhere (MPE, butterfly) counts rounds
        hint = "; the length limit here is max_turns, counted in player turns (not rounds of all agents)"
    return ValueError(f"unknown option(s) {sorted(unknown)}; this env takes {known}{hint}")


#: the keys :meth:`MeadowEnv.reset` takes in ``options``: ``snapshot`` starts from a
#: :meth:`~MeadowEnv.snapshot` instead of a new deal (as ``reset()`` then ``restore()``)
RESET_OPTIONS = ("snapshot",)


#: the largest ``max_turns`` (a snapshot's ``max_turns`` must lie in 1..MAX_TURNS too)
MAX_TURNS = 10**9
INT8 = np.dtype(np.int8)
FLOAT32 = np.dtype(np.float32)


class MeadowEnv(AECEnv, EzPickle):
    """Base raw env. Subclasses set ``metadata`` and implement the abstract hooks below."""

    metadata: dict[str, Any] = {
        "name": "meadowzoo_base",
        "render_modes": ["ansi", "rgb_array", "human"],
        "is_parallelizable": False,
        "render_fps": 2,
    }

    #: default truncation limit in player turns; subclasses override per game
    default_max_turns = 1000

    def __init__(self, render_mode: str | None = None, max_turns: int | None = None,
                 truncation_scoring: str = "draw", **options: Any):
        EzPickle.__init__(self, render_mode=render_mode, max_turns=max_turns,
                          truncation_scoring=truncation_scoring, **options)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r} not supported; choose from {self.metadata['render_modes']}"
            )
        self.render_mode = render_mode
        self.max_turns = self.default_max_turns if max_turns is None else check_int("max_turns", max_turns, 1, MAX_TURNS)
        #: how a max_turns cut is scored (:mod:`meadowzoo.envs.core.standing`); like max_turns an
        #: env setting, not a rule: kept in snapshots beside it
        self.truncation_scoring = check_truncation_scoring(truncation_scoring)
        # restore() takes a snapshot's max_turns and scoring for its game; reset() brings back these
        self._settings = (self.max_turns, self.truncation_scoring)
        self.options = self._check_options(dict(options))
        probe = self._new_game(np.random.default_rng(0))
        self.num_actions = probe.num_actions
        self.possible_agents = [f"player_{i}" for i in range(probe.num_agents)]
        self._agent_index = {a: i for i, a in enumerate(self.possible_agents)}
        size = self._observation_size(probe)
        if size != self.observation_layout.size(probe):  # the encoder and its declaration disagree
            raise RuntimeError(f"{type(self).__name__}: observation size {size} differs from its declared layout's "
                               f"{self.observation_layout.size(probe)}")
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(size,), dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(self.num_actions,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._action_spaces = {agent: spaces.Discrete(self.num_actions) for agent in self.possible_agents}
        self.game: Game = probe
        # no game yet: no agents and empty tables until reset() (the methods that need a game say so)
        self.agents: list[str] = []
        self.rewards, self._cumulative_rewards, self.terminations, self.truncations, self.infos = {}, {}, {}, {}, {}
        self._seed_rng = np.random.default_rng()
        self.last_action: tuple[str, int] | None = None
        self._needs_reset = True

    # ---- hooks for subclasses -------------------------------------------------------------------
    def _check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Validate game options; raise ``ValueError`` for impossible configurations."""
        return options

    #: the rules class this env adapts (a :class:`Game` subclass)
    game_class: type[Game]
    #: the declared observation (:class:`~meadowzoo.envs.core.observation.Layout`): block offsets,
    #: the docstring table and the reference encoder the fast :meth:`_encode` is tested against
    observation_layout: Layout

    def _game_options(self) -> dict[str, Any]:
        """Keyword arguments of ``game_class`` besides ``rng``: by default the env's options."""
        return self.options

    def _new_game(self, rng: np.random.Generator) -> Game:
        return self.game_class(rng=rng, **self._game_options())

    def _game_from_dict(self, data: Any) -> Game:
        """The game of a snapshot's ``game`` field (already upgraded to the current format);
        subclasses add checks that it fits this env's options."""
        return self.game_class.from_dict(data)

    def _observation_size(self, game: Game) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def _encode(self, game: Game, seat: int) -> np.ndarray:  # pragma: no cover - abstract
        """Observation vector of ``seat`` (float32, shape ``(_observation_size,)``)."""
        raise NotImplementedError

    def _render_ansi(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def _render_rgb(self) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    # ---- spaces ---------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    # ---- the AEC cycle --------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game, dealt from ``seed`` (else from the env's seed generator). ``options`` may
        hold ``snapshot`` (:data:`RESET_OPTIONS`): the game then continues from that snapshot, as
        after ``restore()``; a snapshot ``restore()`` refuses raises its ``ValueError`` and leaves
        the env needing a reset. Other keys are ignored, as PettingZoo's API test requires (it
        resets with ``options={"options": 1}``); ``options`` that is not a dict is a ``ValueError``."""
        if options is not None and not isinstance(options, dict):
            raise ValueError(f"reset options must be None or a dict, got {options!r}")
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        game_rng = np.random.default_rng(self._seed_rng.integers(2**63))
        self.max_turns, self.truncation_scoring = self._settings  # a restored snapshot's were for its game only
        self._start(self._new_game(game_rng))
        if options and "snapshot" in options:
            try:
                self.restore(options["snapshot"])
            except ValueError:
                self._needs_reset = True  # the caller asked for the snapshot's game, not the one just dealt
                raise
        if self.render_mode == "human":
            self.render()

    def _start(self, game: Game) -> None:
        """Install ``game`` and the bookkeeping of a game in progress."""
        self.game = game
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.last_action = None
        self._needs_reset = False
        self._refresh()
        self._settle()

    def _refresh(self) -> None:
        """Forget the legal actions cached for the previous state."""
        # the legal actions of the current state once known: a list, or any sequence a subclass
        # caches (Volle Wolle: a tuple of its table); step only tests membership and names them
        self._legal: list[int] | tuple[int, ...] | None = None

    def legal_actions(self) -> list[int]:
        """Legal actions of ``agent_selection`` (empty once the game is over or cut by
        ``max_turns``): a new list at every call, which the caller may change."""
        if self._needs_reset:
            raise RuntimeError(before_reset("legal_actions"))
        if self._legal is None:
            self._legal = self.game.legal_actions() if not self.game.is_over and not self._cut() else []
        return list(self._legal)

    def _cut(self) -> bool:
        """Whether ``max_turns`` has cut the game (the truncation flags go once the agents leave,
        so the masks ask the turn count)."""
        return self.game.turn >= self.max_turns

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """int8 mask over the action space for ``agent`` (zero unless it is to move)."""
        if self._needs_reset:
            raise RuntimeError(before_reset("action_mask"))
        return self._mask(self._agent_index[self.agent_selection if agent is None else agent])

    def _mask(self, seat: int) -> np.ndarray:
        mask = bytearray(self.num_actions)  # cheaper to fill than a numpy array
        if seat == self.game.current_agent and self.game.turn < self.max_turns:
            legal = self._legal
            if legal is None:
                legal = self._legal = self.game.legal_actions()  # not over: it is this seat's turn
            for action in legal:
                mask[action] = 1
        return np.frombuffer(mask, INT8)

    def observe(self, agent: str) -> dict:
        """Observation of ``agent``: a fresh dict of fresh arrays (callers may modify them)."""
        if self._needs_reset:
            raise RuntimeError(before_reset("observe"))
        seat = self._agent_index[agent]
        return {"observation": self._encode(self.game, seat), "action_mask": self._mask(seat)}

    def last(self, observe: bool = True) -> tuple:
        """As :meth:`pettingzoo.AECEnv.last`, read in one go (it runs once per step of every loop)."""
        if self._needs_reset:
            raise RuntimeError(before_reset("last"))
        agent = self.agent_selection
        try:
            reward = self._cumulative_rewards[agent]
        except KeyError:  # only once every agent has left (a free try on the common path)
            raise RuntimeError(self._left_message("last")) from None
        # observe(agent), inlined (a Python call fewer on every step of every loop)
        if observe:
            seat = self._agent_index[agent]
            observation = {"observation": self._encode(self.game, seat), "action_mask": self._mask(seat)}
        else:
            observation = None
        return observation, reward, self.terminations[agent], self.truncations[agent], self.infos[agent]

    def _left_message(self, method: str) -> str:
        if not self.agents:
            return f"every agent has left the finished game: call reset() before {method}()"
        return f"agent_selection {self.agent_selection!r} is not in agents {self.agents}"

    def agent_iter(self, max_iter: int = 2**63):
        """As :meth:`pettingzoo.AECEnv.agent_iter`: an iterable (each ``iter()`` starts afresh) of the
        agent to act until no agent is left, at most ``max_iter`` times. Its iterator is a
        generator, which costs less per step than PettingZoo's iterator object (a Python
        ``__next__`` call)."""
        if self._needs_reset:
            raise RuntimeError(before_reset("agent_iter"))
        return _AgentIterable(self, max_iter)

    def step(self, action: Any) -> None:
        if self._needs_reset:
            raise RuntimeError(before_reset("step"))
        agent = self.agent_selection
        try:
            over = self.terminations[agent] or self.truncations[agent]
        except KeyError:  # only once every agent has left (a free try on the common path)
            raise RuntimeError(self._left_message("step")) from None
        if over:
            self._was_dead_step(action)
            return
        legal = self._legal
        if legal is None:
            legal = self._legal = self.game.legal_actions() if not self.game.is_over else []
        if type(action) is not int:  # the common case skips the checks below
            action = integer_action(action, f"; legal actions of {agent}: {list(legal)}")
        if action not in legal:
            raise ValueError(self._illegal_message(agent, action, legal))
        self._cumulative_rewards[agent] = 0.0
        game = self.game
        game.apply_legal(action)  # checked just above
        self.last_action = (agent, action)
        self._legal = None
        if game.is_over or game.turn >= self.max_turns:
            self._settle()
        else:  # the common case, inlined: the next decision
            self.agent_selection = self.possible_agents[game.current_agent]
        # None first: comparing None with a string misses the interpreter's fast path
        if self.render_mode is not None and self.render_mode == "human":
            self.render()

    def _settle(self) -> None:
        """After a change of state: whose turn, and whether the game ended or is truncated."""
        game = self.game
        if game.is_over:
            rewards = rank_rewards(game.places(), game.teams())
            for agent, reward in zip(self.possible_agents, rewards):
                self.rewards[agent] = reward
                self._cumulative_rewards[agent] += reward
                self.terminations[agent] = True
            self.agent_selection = self.possible_agents[0]
        elif game.turn >= self.max_turns:
            self.truncations = dict.fromkeys(self.agents, True)
            if self.truncation_scoring == "standing":
                for agent, reward in zip(self.possible_agents, standing_rewards(game)):
                    self.rewards[agent] = reward
                    self._cumulative_rewards[agent] += reward
            self.agent_selection = self.possible_agents[game.current_agent]
        else:
            self.agent_selection = self.possible_agents[game.current_agent]

    def _illegal_message(self, agent: str, action: int, legal: list[int]) -> str:
        if 0 <= action < self.num_actions:
            what = f"illegal action {action} ({self.game.action_to_string(action)})"
        else:
            what = f"action {action} out of range 0..{self.num_actions - 1}"
        named = ", ".join(f"{a} ({self.game.action_to_string(a)})" for a in legal)
        return f"{what} for {agent}; legal actions: [{named}]"

    # ---- text -----------------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        """The name of an action index (an integer: Python or numpy, never bool or float)."""
        action = integer_action(action)
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action {action} out of range 0..{self.num_actions - 1}")
        return self.game.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        """Inverse of :meth:`action_to_string` (a name, any case and spacing, or an index in ASCII
        digits)."""
        if not isinstance(text, str):
            raise ValueError(f"string_to_action takes a string, got {text!r} ({type(text).__name__})")
        return self.game.string_to_action(text)

    # ---- snapshots and copies -------------------------------------------------------------------
    def snapshot(self) -> dict:
        """JSON-serialisable state of the env: game, bookkeeping and options.

        Fields: ``format`` (``"meadowzoo"``), ``version``, ``env`` (the env name), ``options``
        (the constructor options), ``max_turns``, ``truncation_scoring`` (written only when it is
        not the default ``"draw"``, so that snapshots of default envs keep their form), ``game``
        (the rules state, see the game's
        ``to_dict``), ``agents`` (agents still in the episode), ``cumulative_rewards``,
        ``last_action`` (``[agent, action]`` or ``null``).
        """
        if self._needs_reset:
            raise RuntimeError(before_reset("snapshot"))
        live = not self.game.is_over and not self._cut()
        expected = self.expected_rewards(self.game, self.agents, self.max_turns, self.truncation_scoring)
        if (live and self.agents != self.possible_agents) or any(
                abs(self._cumulative_rewards.get(a, 0.0) - expected[a]) > REWARD_TOLERANCE for a in self.agents):
            # what restore() would refuse: say so now, not when the snapshot is loaded
            raise ValueError(
                f"no snapshot of this state: its rewards {self._cumulative_rewards} are not the rules' "
                f"({expected}); a wrapper ended the game (PettingZoo's TerminateIllegalWrapper after an "
                "illegal move?). Pickling and copy.deepcopy still work.")
        return self.snapshot_of(self.game.to_dict(), self.agents, self._cumulative_rewards, self.last_action)

    def expected_rewards(self, game: Game, agents: list[str], max_turns: int, truncation_scoring: str) -> dict[str, float]:
        """The cumulative rewards the rules give ``agents`` in ``game``'s state: 0 while the game
        runs, the rank rewards once it ended (until the agent leaves), 0 or the standing's rewards
        once ``max_turns`` cut it (``truncation_scoring``)."""
        if game.is_over:
            final = rank_rewards(game.places(), game.teams())
        elif game.turn >= max_turns and truncation_scoring == "standing":
            final = standing_rewards(game)
        else:
            final = [0.0] * game.num_agents
        return {a: final[self._agent_index[a]] for a in agents}

    def snapshot_of(self, game: dict, agents: list[str], cumulative_rewards: dict[str, float],
                    last_action: tuple[str, int] | None = None) -> dict:
        """A :meth:`snapshot` of this env's options holding the given game state (a game's
        ``to_dict()``) and bookkeeping; the JAX engines convert their states with it."""
        snapshot = {
            "format": "meadowzoo",
            "version": SNAPSHOT_VERSION,
            "env": self.metadata["name"],
            "options": copy.deepcopy(self.options),
            "max_turns": self.max_turns,
            "game": game,
            "agents": list(agents),
            "cumulative_rewards": {a: float(r) for a, r in cumulative_rewards.items()},
            "last_action": list(last_action) if last_action else None,
        }
        if self.truncation_scoring != "draw":
            snapshot["truncation_scoring"] = self.truncation_scoring
        return snapshot

    def restore(self, snapshot: dict) -> None:
        """Load a :meth:`snapshot`. A malformed one raises ``ValueError`` and changes nothing. The
        snapshot's ``max_turns`` and ``truncation_scoring`` hold for its game; :meth:`reset` goes
        back to the constructor's."""
        if not isinstance(snapshot, dict):
            raise ValueError("snapshot must be a dict")
        unknown = set(snapshot) - SNAPSHOT_FIELDS
        if unknown:
            raise ValueError(f"snapshot has unknown fields {sorted(unknown, key=str)}")
        for field, expected in (("format", "meadowzoo"), ("env", self.metadata["name"])):
            if snapshot.get(field) != expected:
                raise ValueError(f"snapshot field {field!r} must be {expected!r}, got {snapshot.get(field)!r}")
        version = snapshot.get("version")
        if type(version) is not int or version not in READABLE_SNAPSHOT_VERSIONS:
            raise ValueError(f"snapshot field 'version' must be one of {READABLE_SNAPSHOT_VERSIONS}, got {version!r}")
        if not same_json(snapshot.get("options"), self.options):  # types too: True is no 1
            raise ValueError(f"snapshot field 'options' {snapshot.get('options')!r} does not match this env's {self.options!r}")
        max_turns = snapshot.get("max_turns")
        if isinstance(max_turns, bool) or not isinstance(max_turns, int) or not 1 <= max_turns <= MAX_TURNS:
            raise ValueError(f"snapshot field 'max_turns' must be an integer in 1..{MAX_TURNS}, got {max_turns!r}")
        try:  # absent: "draw" (the default, and the only scoring before the field existed)
            truncation_scoring = check_truncation_scoring(snapshot.get("truncation_scoring", "draw"))
        except ValueError as error:
            raise ValueError(f"snapshot field {error}") from None
        game = self._restored_game(snapshot.get("game"), version)
        if game.num_agents != len(self.possible_agents) or game.num_actions != self.num_actions:
            raise ValueError("snapshot field 'game' does not fit this env's configuration")
        agents = snapshot.get("agents")
        if not isinstance(agents, list) or not all(isinstance(a, str) for a in agents) or (
            agents != [a for a in self.possible_agents if a in agents]
        ):
            raise ValueError(f"snapshot field 'agents' must list distinct agents of this env in seat order, "
                             f"got {agents!r}")
        live = not game.is_over and game.turn < max_turns
        if live and agents != self.possible_agents:  # agents leave only once the game has ended
            raise ValueError(f"snapshot field 'agents' must list every agent while the game runs, got {agents!r}")
        rewards = snapshot.get("cumulative_rewards")
        if not isinstance(rewards, dict) or set(rewards) != set(agents) or not all(
            type(v) in (int, float) and math.isfinite(v) for v in rewards.values()
        ):
            raise ValueError("snapshot field 'cumulative_rewards' must map each listed agent to a finite number")
        # rewards come only at the end (expected_rewards); anything else is a state no game
        # reaches. Within REWARD_TOLERANCE (the JAX engines' float32 rewards) the exact rewards are
        # installed.
        expected = self.expected_rewards(game, agents, max_turns, truncation_scoring)
        if any(abs(rewards[a] - expected[a]) > REWARD_TOLERANCE for a in agents):
            raise ValueError(f"snapshot field 'cumulative_rewards' {rewards} does not fit the game's state "
                             f"(expected {expected})")
        if "last_action" not in snapshot:  # null is a value (no action yet): the field must be there
            raise ValueError("snapshot field 'last_action' is missing")
        last = snapshot["last_action"]
        if last is not None and not (
            isinstance(last, list) and len(last) == 2 and isinstance(last[0], str) and last[0] in self._agent_index
            and type(last[1]) is int and 0 <= last[1] < self.num_actions
        ):
            raise ValueError(f"snapshot field 'last_action' must be null or [agent, action], got {last!r}")
        # validated: now install (nothing above touched self)
        self.max_turns = max_turns
        self.truncation_scoring = truncation_scoring
        self._start(game)
        self.agents = list(agents)
        for name in ("rewards", "terminations", "truncations", "infos"):
            table = getattr(self, name)
            for agent in list(table):
                if agent not in self.agents:
                    del table[agent]
        # the rewards of the step that ended the game were paid by that step: a restored env has
        # taken no step (its cumulative rewards still hold what last() has to report)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict(expected)
        if self.agents and self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]
        self.last_action = (last[0], last[1]) if last else None

    def _restored_game(self, data: Any, version: int) -> Game:
        """The game of a snapshot's ``game`` field; whatever is wrong with it raises ``ValueError``
        (a check a game lacks must not surface as a TypeError or KeyError)."""
        try:
            if version != SNAPSHOT_VERSION:
                data = self.game_class.upgrade(data, version)
            game = self._game_from_dict(data)
            unknown = set(data) - set(game.to_dict())  # a field the game would silently drop
            if unknown:
                raise ValueError(f"snapshot field 'game' has unknown fields {sorted(unknown, key=str)}")
            return game
        except ValueError:
            raise
        except (TypeError, KeyError, IndexError, AttributeError, OverflowError, RecursionError) as error:
            raise ValueError(f"snapshot field 'game' is malformed ({type(error).__name__}: {error})") from None

    def clone(self) -> "MeadowEnv":
        """An independent raw env in the same state (render mode and options kept)."""
        if self._needs_reset:
            raise RuntimeError(before_reset("clone"))
        twin = object.__new__(type(self))  # not copy.copy: EzPickle would rebuild a fresh env
        twin.__dict__.update(self.__dict__)
        twin.game = self.game.clone()
        twin.agents = list(self.agents)
        twin.rewards = dict(self.rewards)
        twin._cumulative_rewards = dict(self._cumulative_rewards)
        twin.terminations = dict(self.terminations)
        twin.truncations = dict(self.truncations)
        twin.infos = {a: dict(i) for a, i in self.infos.items()}
        twin._seed_rng = copy.deepcopy(self._seed_rng)
        twin._refresh()
        return twin

    # ---- pickling: keep the game, not only the constructor arguments ------------------------------
    def __getstate__(self) -> dict:
        state = EzPickle.__getstate__(self)
        # the game and the bookkeeping as they are, not a snapshot: a wrapper may have ended the
        # game (PettingZoo's TerminateIllegalWrapper after an illegal move), which no snapshot
        # holds; and the seed generator, so that a copy's next reset() deals what the original's would
        state["meadowzoo_state"] = None if self._needs_reset else {
            "game": self.game.to_dict(), "max_turns": self.max_turns, "truncation_scoring": self.truncation_scoring,
            "agents": list(self.agents), "agent_selection": self.agent_selection, "last_action": self.last_action,
            "rewards": dict(self.rewards), "cumulative_rewards": dict(self._cumulative_rewards),
            "terminations": dict(self.terminations), "truncations": dict(self.truncations),
            "infos": copy.deepcopy(self.infos)}
        state["meadowzoo_seed_rng"] = self._seed_rng.bit_generator.state
        return state

    def __setstate__(self, state: dict) -> None:
        snapshot = state.pop("meadowzoo_snapshot", None)  # pickles of versions before meadowzoo_state
        saved = state.pop("meadowzoo_state", None)
        seed_rng = state.pop("meadowzoo_seed_rng", None)
        EzPickle.__setstate__(self, state)
        if snapshot is not None:
            self.restore(snapshot)
        if saved is not None:
            self.max_turns, self.truncation_scoring = saved["max_turns"], saved["truncation_scoring"]
            self._start(self._restored_game(saved["game"], SNAPSHOT_VERSION))
            self.agents = list(saved["agents"])
            self.rewards, self._cumulative_rewards = dict(saved["rewards"]), dict(saved["cumulative_rewards"])
            self.terminations, self.truncations = dict(saved["terminations"]), dict(saved["truncations"])
            self.infos = saved["infos"]
            self.agent_selection, self.last_action = saved["agent_selection"], saved["last_action"]
        if seed_rng is not None:
            self._seed_rng.bit_generator.state = seed_rng

    # ---- rendering ------------------------------------------------------------------------------
    def render(self) -> Any:
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self._needs_reset:
            raise RuntimeError(before_reset("render"))
        if self.render_mode == "ansi":
            return self._render_ansi()
        if self.render_mode == "rgb_array":
            return self._render_rgb()
        print(self._render_ansi())  # "human": the text board on the terminal
        return None

    def close(self) -> None:
        pass


def before_reset(method: str) -> str:
    """The error message of a method called before the first ``reset()``."""
    return f"call reset() before {method}()"


def integer_action(action: Any, context: str = "") -> int:
    """``action`` as an ``int``: Python and numpy integers pass, ``bool`` and everything else
    (floats, strings, arrays, None) raise ``ValueError``."""
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise ValueError(f"action must be an integer, got {action!r}{context}")
    return int(action)


class _AgentIterable:
    __slots__ = ("env", "max_iter")

    def __init__(self, env: MeadowEnv, max_iter: int) -> None:
        self.env = env
        self.max_iter = max_iter

    def __iter__(self):
        env, left = self.env, self.max_iter
        if left >= 2**63:  # the default, never reached: no count (arithmetic on an int that big is slow)
            while env.agents:
                yield env.agent_selection
            return
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


# ---- wrapped env ---------------------------------------------------------------------------------
# PettingZoo's wrappers reach every attribute of the raw env through a chain of ``__getattr__``
# calls, one per wrapper layer; an AEC step reads a dozen such attributes, which costs more than our
# whole game step. These subclasses keep the wrappers' behaviour exactly and only forward the hot
# bookkeeping attributes straight to the raw env.
_HOT_ATTRIBUTES = ("agents", "agent_selection", "terminations", "truncations", "rewards", "infos",
                   "_cumulative_rewards")


def _forward(name: str, needs_reset: bool) -> property:
    def get(self):
        if needs_reset and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)

    def set_(self, value):
        setattr(self._raw, name, value)

    return property(get, set_)


def _checked_step(wrapper: type):
    """``wrapper.step`` refusing a malformed action (``True``, ``1.5``) or one outside the action
    space with the raw env's ValueError, before PettingZoo indexes the mask with it or asserts
    (an ``AssertionError``, gone under ``python -O``; ``None`` passes: finished agents)."""
    step = wrapper.step

    def checked(self, action):
        if action is not None:
            if type(action) is not int:
                action = integer_action(action)
            raw = self._raw
            if not 0 <= action < raw.num_actions and not raw._needs_reset and raw.agents:
                raise ValueError(f"action {action} is outside the action space 0..{raw.num_actions - 1}")
        return step(self, action)

    return checked


def _fast(wrapper: type, needs_reset: bool = False) -> type:
    namespace = {name: _forward(name, needs_reset and not name.startswith("_")) for name in _HOT_ATTRIBUTES}
    namespace["step"] = _checked_step(wrapper)

    def __init__(self, env, *args, **kwargs):
        object.__setattr__(self, "_raw", env.unwrapped)
        wrapper.__init__(self, env, *args, **kwargs)

    namespace["__init__"] = __init__
    return type(wrapper.__name__, (wrapper,), namespace)


TerminateIllegalWrapper = _fast(wrappers.TerminateIllegalWrapper)
AssertOutOfBoundsWrapper = _fast(wrappers.AssertOutOfBoundsWrapper)
OrderEnforcingWrapper = _fast(wrappers.OrderEnforcingWrapper, needs_reset=True)


def wrap(raw: MeadowEnv) -> AECEnv:
    """PettingZoo's standard wrappers, as in the classic environments: an illegal move ends the
    game with −1 for the mover, actions are checked against the space, call order is enforced."""
    env = TerminateIllegalWrapper(raw, illegal_reward=-1)
    env = AssertOutOfBoundsWrapper(env)
    return OrderEnforcingWrapper(env)
