"""meadowzoo's games as RLlib multi-agent environments (RLlib's current API stack).

:class:`MeadowzooMultiAgentEnv` wraps a game's PettingZoo AEC env for self-play with RLlib's
``MultiAgentEnv`` API. Each episode has one *learner* seat and ``num_players - 1`` opponent
seats; every opponent seat is either played by RLlib (a frozen snapshot of the learner, chosen by
the agent-to-module mapping of :mod:`meadowzoo.training.rllib_selfplay`) or, with probability
``fixed_share``, by one of the ``fixed_opponents`` (meadowzoo agent specs such as ``greedy``,
``strong``, ``random``, ``mcts:50``; :func:`meadowzoo.agents.make_agent`), which this env plays
itself through the game runner (:func:`meadowzoo.training.runner.advance`) between RLlib's steps.

Agent ids are roles, not seats: ``"learner"`` and ``"opponent_1"`` … ``"opponent_{n-1}"`` (the
opponents in seat order after the learner's seat); the learner's seat is drawn per episode, so it
plays every seat. Only the agents that RLlib plays appear in the episode.

Observation of an RLlib agent: ``{"observations": the game's observation Box (float32,
egocentric), "action_mask": Box(0, 1, (num_actions,), float32)}``. PettingZoo's key is
``observation``; the action-masking module (:mod:`meadowzoo.training.rllib_module`, as RLlib's example one) reads
``observations`` and a float mask, so the adapter renames the key and converts the int8 mask.
Only the agent to move gets an observation (a turn-based game); its action is a ``Discrete``
index. A masked (illegal) one is handled as ``illegal_action`` says, as in
:mod:`meadowzoo.training.selfplay`: ``"raise"`` (the default): ``ValueError`` naming the action and
the legal ones, and nothing changes; ``"lose"`` (for learners that sample without the mask): the
game is left untouched and the episode ends (every RLlib agent of it terminated, ``"__all__"``
set) with the last-place reward −1 for the mover and 0 for the others, and the mover's info names
the action (``infos[agent]["illegal_action"]``). An action that is no index of the action space
raises in either mode.

Rewards: each RLlib agent receives the env's rewards of its seat (the game's final rank rewards,
+1 first … −1 last, 0 before the end; on truncation at ``max_turns`` 0 for all, or with the env
option ``truncation_scoring="standing"`` the rank rewards of the standing at the cut), whoever made
the move that produced them, in the step that produced them. At the end every RLlib agent of the
episode is terminated (or truncated) and ``"__all__"`` is set. A terminated agent gets no final
observation; a truncated one (a game cut at ``max_turns``) gets its last observation, from which
RLlib bootstraps its value (RLlib refuses a truncation without one), with an all-zero mask.

Seeding: ``reset(seed=s)`` seeds the adapter's generator, which draws, in this order, the game's
seed, the learner's seat, and for every other seat whether a fixed opponent plays it and which;
the fixed opponents are seeded from the game's seed (:func:`meadowzoo.training.runner.seat_seeds`).
``reset()`` without a seed continues the generator.

``env_config`` keys: ``game`` (required), ``fixed_opponents`` (comma-separated specs or a list;
default none), ``fixed_share`` (default 0.5; 1.0 = only fixed opponents), ``learner_seat``
(default: drawn), ``illegal_action`` (``"raise"`` or ``"lose"``, see above) and the game's env
options (``num_players``, ``max_turns`` …).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from meadowzoo.agents import make_agent
from meadowzoo.envs.registry import GAMES, game_module
from meadowzoo.training.runner import advance, seat_seeds
from meadowzoo.training.selfplay import ILLEGAL_ACTION_REWARD, action_index, checked_seat

ILLEGAL_ACTION_MODES = ("raise", "lose")

LEARNER = "learner"


def opponent_ids(players: int) -> list[str]:
    return [f"opponent_{i}" for i in range(1, players)]


def rllib_observation(observation: dict) -> dict:
    """PettingZoo's ``{"observation", "action_mask"}`` as RLlib's ``{"observations", "action_mask"}``."""
    return {"observations": observation["observation"],
            "action_mask": observation["action_mask"].astype(np.float32)}


class MeadowzooMultiAgentEnv(MultiAgentEnv):
    """One meadowzoo game as an RLlib ``MultiAgentEnv``; see the module docstring."""

    def __init__(self, config: dict | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        self.game_name = config.pop("game", None)
        if self.game_name not in GAMES:
            raise ValueError(f"env_config needs a game, one of {sorted(GAMES)}; got {self.game_name!r}")
        fixed = config.pop("fixed_opponents", None) or []
        self.fixed = [s for s in (fixed.split(",") if isinstance(fixed, str) else fixed) if s]
        for spec in self.fixed:
            make_agent(spec, self.game_name)  # unknown names fail here, not mid-training
        self.fixed_share = float(config.pop("fixed_share", 0.5 if self.fixed else 0.0))
        if not 0.0 <= self.fixed_share <= 1.0:
            raise ValueError(f"fixed_share must be in [0, 1], got {self.fixed_share}")
        if self.fixed_share > 0 and not self.fixed:
            raise ValueError("fixed_share > 0 needs fixed_opponents (e.g. 'greedy,random')")
        self.learner_seat = config.pop("learner_seat", None)
        self.illegal_action = config.pop("illegal_action", "raise")
        if self.illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, got {self.illegal_action!r}")
        self.raw = game_module(self.game_name).raw_env(**config)
        self.env_options = config
        players = len(self.raw.possible_agents)
        if self.learner_seat is not None:
            self.learner_seat = checked_seat(self.learner_seat, players, "learner_seat")
        self.possible_agents = [LEARNER, *opponent_ids(players)]
        self.agents = []
        inner = self.raw.observation_space(self.raw.possible_agents[0])["observation"]
        space = gymnasium.spaces.Dict({
            "observations": inner,
            "action_mask": gymnasium.spaces.Box(0.0, 1.0, (self.raw.num_actions,), np.float32),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, gymnasium.spaces.Discrete(self.raw.num_actions))
        self._rng = np.random.default_rng()
        self._role: dict[str, str] = {}  # seat -> RLlib agent id, for the seats RLlib plays
        self._fixed_players: dict[str, Any] = {}
        self._owed: dict[str, float] = {}  # rewards earned and not yet handed to RLlib
        self._seen: set[str] = set()  # RLlib agents that have had an observation this episode
        self._forfeited = False  # the episode ended on an illegal action ("lose")

    # ---- episode -------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        rng = self._rng
        game_seed = int(rng.integers(2**63))
        seats = self.raw.possible_agents
        first = int(rng.integers(len(seats))) if self.learner_seat is None else int(self.learner_seat)
        order = [seats[(first + k) % len(seats)] for k in range(len(seats))]  # learner, then the others
        self._role, self._fixed_players = {order[0]: LEARNER}, {}
        specs = {}
        for k, seat in enumerate(order[1:], start=1):
            if self.fixed and rng.random() < self.fixed_share:
                specs[seat] = self.fixed[int(rng.integers(len(self.fixed)))]
            else:
                self._role[seat] = f"opponent_{k}"
        self.raw.reset(seed=game_seed)
        seeds = dict(zip(seats, seat_seeds(game_seed, len(seats))))
        for seat, spec in specs.items():
            player = make_agent(spec, self.game_name, seed=int(seeds[seat]))
            player.reset()
            self._fixed_players[seat] = player
        self.agents = sorted(self._role.values(), key=self.possible_agents.index)
        self._owed = dict.fromkeys(self.agents, 0.0)
        self._seen = set()
        self._forfeited = False
        self._play_fixed()
        observations, _, _, _ = self._emit()
        return observations, {}

    def step(self, action_dict: dict) -> tuple[dict, dict, dict, dict, dict]:
        if self._forfeited:
            raise RuntimeError("the episode ended on an illegal action; call reset()")
        seat = self.raw.agent_selection
        agent = self._role.get(seat)
        if agent is None or set(action_dict) != {agent}:
            raise ValueError(f"it is {agent or seat}'s move; got actions for {sorted(action_dict)}")
        action = action_index(action_dict[agent], self.raw.num_actions)
        if self.illegal_action == "lose":
            legal = self.raw.legal_actions()
            if action not in legal:
                return self._forfeit(agent, self.raw._illegal_message(seat, action, legal))
        self.raw.step(action)  # refuses an illegal action itself (ValueError, nothing changes): "raise"
        self._collect()
        self._play_fixed()
        observations, rewards, terminated, truncated = self._emit()
        return observations, rewards, terminated, truncated, {}

    # ---- inside ----------------------------------------------------------------------------------
    def _forfeit(self, mover: str, message: str) -> tuple[dict, dict, dict, dict, dict]:
        """``illegal_action="lose"``: the episode ends, −1 for the mover, 0 for the others."""
        rewards = {agent: ILLEGAL_ACTION_REWARD if agent == mover else 0.0 for agent in self._seen}
        terminateds = {"__all__": True, **dict.fromkeys(self._seen, True)}
        truncateds = {"__all__": False, **dict.fromkeys(self._seen, False)}
        self.agents = []
        self._forfeited = True
        return {}, rewards, terminateds, truncateds, {mover: {"illegal_action": message}}

    def _collect(self, *_: Any) -> None:
        """Add the rewards of the env's last step to what each RLlib agent is owed."""
        for seat, agent in self._role.items():
            self._owed[agent] += float(self.raw.rewards.get(seat, 0.0))

    def _play_fixed(self) -> None:
        """Let the fixed opponents move until a seat RLlib plays is to move or the game is over."""
        advance(self.raw, self._fixed_players, until=self._role.keys(), after=self._collect)

    def _over(self) -> tuple[bool, bool]:
        seat = self.raw.agent_selection
        return bool(self.raw.terminations[seat]), bool(self.raw.truncations[seat])

    def _emit(self) -> tuple[dict, dict, dict, dict]:
        terminated, truncated = self._over()
        observations = {}
        if not (terminated or truncated):
            seat = self.raw.agent_selection
            agent = self._role[seat]
            observations[agent] = rllib_observation(self.raw.observe(seat))
            self._seen.add(agent)
        elif truncated and not terminated:
            # RLlib bootstraps a truncated agent's value from its last observation and refuses a
            # truncation without one; nothing is legal in a cut game, so its mask is all zero
            for seat, agent in self._role.items():
                if agent in self._seen:
                    observations[agent] = rllib_observation(self.raw.observe(seat))
        # RLlib accepts rewards only for agents that have had an observation in the episode
        rewards = {agent: self._owed[agent] for agent in self._seen}
        for agent in self._seen:
            self._owed[agent] = 0.0
        done = terminated or truncated
        terminateds = {"__all__": terminated, **({a: True for a in self._seen} if terminated else {})}
        truncateds = {"__all__": truncated and not terminated,
                      **({a: True for a in self._seen} if truncated and not terminated else {})}
        if done:
            self.agents = []
        return observations, rewards, terminateds, truncateds
