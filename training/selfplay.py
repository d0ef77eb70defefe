"""A Gymnasium single-agent view of any meadowzoo game, for self-play training.

The learner holds one seat (drawn per episode unless fixed); every other seat is played inside
:meth:`SelfPlayEnv.step` by opponents drawn from an :class:`~meadowzoo.training.pool.OpponentPool`
(random, heuristics, search players, frozen snapshots of the learner). Unlike the well-known
PettingZoo + SB3 connect-four wrapper:

* observation, reward, termination and truncation are always the learner's, including a loss that
  happens on an opponent's move (the learner receives its final reward in the step that led to the
  end, whoever made the last move);
* rewards are the env's final rank rewards of the learner's seat (+1 first … −1 last), never an
  opponent's; 0 on truncation and on every non-final step;
* the learner's action mask is exposed as ``action_masks()`` for sb3-contrib's MaskablePPO.

Spaces: ``observation_space`` is the game's ``observation`` Box (the learner's egocentric view),
followed, with ``advice="strong"``, by the strong heuristic's advice block on the learner's
decision (:mod:`meadowzoo.agents.advice`; for :class:`meadowzoo.agents.advised_policy.AdvisedPolicy`);
``action_space`` the game's ``Discrete``. ``info`` carries ``action_mask``, ``seat`` and, at the
end, ``final_rewards`` of every seat.

Seeding: ``reset(seed=…)`` seeds the view's Gymnasium generator, which draws the env's seed, the
learner's seat, every opponent from the pool and the opponent's seed, in that order (the order
training records rely on); the opponents then play through the game runner's loop
(:mod:`meadowzoo.training.runner`).

Registered with Gymnasium under each game's ``gym_id`` (its plug-in), e.g. ``meadowzoo/HaseUndIgel-v0``,
``meadowzoo/HasteBock-v0`` and ``meadowzoo/VolleWolle-v0`` (after ``import meadowzoo``):
``gymnasium.make("meadowzoo/HaseUndIgel-v0", opponents="random,greedy", num_players=2)``.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from meadowzoo.agents.advice import advice_size, check_advice, env_advice
from meadowzoo.envs.registry import game_module
from meadowzoo.training.pool import OpponentPool
from meadowzoo.training.runner import advance


class SelfPlayEnv(gymnasium.Env):
    """One learner seat against opponents from a pool; see the module docstring."""

    metadata = {"render_modes": ["ansi", "rgb_array"]}

    def __init__(
        self,
        game: str,
        opponents: str | list[str] | OpponentPool = "random",
        seat: int | None = None,
        render_mode: str | None = None,
        advice: str | None = None,
        **env_options: Any,
    ) -> None:
        self.game_name = game
        self.raw = game_module(game).raw_env(render_mode=render_mode, **env_options)
        self.render_mode = render_mode
        self.agents = self.raw.possible_agents
        if seat is not None and not 0 <= seat < len(self.agents):
            raise ValueError(f"seat must be in 0..{len(self.agents) - 1}, got {seat}")
        self.fixed_seat = seat
        self.pool = opponents if isinstance(opponents, OpponentPool) else OpponentPool(game, opponents)
        first = self.agents[0]
        self.observation_space = self.raw.observation_space(first)["observation"]
        self.action_space = self.raw.action_space(first)
        self.advice = advice
        if advice is not None:
            check_advice(advice)
            base = self.observation_space
            extra = advice_size(int(self.action_space.n))
            self.observation_space = gymnasium.spaces.Box(
                np.concatenate([base.low, np.full(extra, -np.inf, np.float32)]),
                np.concatenate([base.high, np.full(extra, np.inf, np.float32)]), dtype=np.float32)
        self.learner = first
        self.opponents: dict[str, Any] = {}
        self._learner_mask: np.ndarray | None = None  # built once per decision by _info()

    # ---- episode ---------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        rng = self.np_random
        self.raw.reset(seed=int(rng.integers(2**31)))
        if options and "snapshot" in options:  # start from a given position (tests, curricula)
            self.raw.restore(options["snapshot"])
        seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(len(self.agents)))
        if options and "seat" in options:
            seat = int(options["seat"])
        self.learner = self.agents[seat]
        self.opponents = {}
        for agent in self.agents:
            if agent != self.learner:
                opponent = self.pool.sample(rng)
                opponent.seed(int(rng.integers(2**31)))
                opponent.reset()
                self.opponents[agent] = opponent
        self._play_opponents()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self._finished():
            raise RuntimeError("the episode is over; call reset()")
        self.raw.step(int(action))
        self._play_opponents()
        terminated = all(self.raw.terminations.values())
        truncated = not terminated and all(self.raw.truncations.values())
        reward = float(self.raw.rewards[self.learner]) if terminated else 0.0
        return self._observation(), reward, terminated, truncated, self._info()

    def _play_opponents(self) -> None:
        """Let the opponents decide until it is the learner's decision or the game is over (the
        game runner's loop, :func:`meadowzoo.training.runner.advance`)."""
        advance(self.raw, self.opponents, until=self.learner)

    def _finished(self) -> bool:
        agent = self.raw.agent_selection
        return self.raw.terminations[agent] or self.raw.truncations[agent]

    # ---- views -----------------------------------------------------------------------------------
    def _observation(self) -> np.ndarray:
        observation = self.raw.observe(self.learner)["observation"]
        if self.advice is None:
            return observation
        # the advice is on the learner's decision; at the end of the game it is all zeros
        return np.concatenate([observation, env_advice(self.advice, self.raw, self.np_random)])

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions (sb3-contrib's MaskablePPO calls this)."""
        # the mask of the current decision, built once by _info() after every reset and step
        mask = self._learner_mask if self._learner_mask is not None else self.raw.action_mask(self.learner)
        return mask.astype(bool)

    def add_snapshot_to_pool(self, path: str) -> None:
        """Add a frozen learner policy to this env's opponent pool (called through VecEnvs)."""
        self.pool.add_snapshot(path)

    def _info(self) -> dict:
        self._learner_mask = self.raw.action_mask(self.learner)
        info = {"action_mask": self._learner_mask.copy(), "seat": self.agents.index(self.learner)}
        if self._finished():
            info["final_rewards"] = dict(self.raw.rewards)
        return info

    def render(self) -> Any:
        return self.raw.render()
