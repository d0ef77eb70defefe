"""A Gymnasium single-agent view of any meadowzoo game, for self-play training.

The learner holds one seat (drawn per episode unless fixed); every other seat is played inside
:meth:`SelfPlayEnv.step` by opponents drawn from an :class:`~meadowzoo.training.pool.OpponentPool`
(random, heuristics, search players, frozen snapshots of the learner). Unlike the well-known
PettingZoo + SB3 connect-four wrapper:

* observation, reward, termination and truncation are always the learner's, including a loss that
  happens on an opponent's move (the learner receives its final reward in the step that led to the
  end, whoever made the last move);
* rewards are the env's final rank rewards of the learner's seat (+1 first … −1 last), never an
  opponent's; 0 on every non-final step; on a ``max_turns`` truncation 0
  (``truncation_scoring="draw"``, the default) or the rank reward of the learner's place in the
  standing at the cut (``truncation_scoring="standing"``, :mod:`meadowzoo.envs.core.standing`) —
  the learning signal of games that random play rarely finishes (Hase und Igel);
* the learner's action mask is exposed as ``action_masks()`` for sb3-contrib's MaskablePPO, and as
  ``info["action_mask"]`` (bool, a copy) after every reset and step;
* a masked (illegal) action is handled as ``illegal_action`` says: ``"lose"`` (the default, as
  PettingZoo's ``TerminateIllegalWrapper``): the game is left untouched, the episode ends
  (``terminated``) with the last-place reward −1 for the learner (0 for the other seats in
  ``info["final_rewards"]``), and ``info["illegal_action"]`` names the action and the legal ones;
  ``"raise"``: ``ValueError`` naming the action and the legal ones, and nothing changes (the
  episode goes on). So anything that samples the action space (``check_env`` of Gymnasium and
  Stable-Baselines3, collectors without masks) runs; masking learners never see the penalty. An
  action that is not an index of the action space at all raises ``ValueError`` in either mode.

Spaces: ``observation_space`` is the game's ``observation`` Box (the learner's egocentric view),
followed, with ``advice="strong"``, by the strong heuristic's advice block on the learner's
decision (:mod:`meadowzoo.agents.advice`; for :class:`meadowzoo.agents.advised_policy.AdvisedPolicy`);
``action_space`` the game's ``Discrete``. ``info`` carries ``action_mask``, ``seat`` and, at the
end, ``final_rewards`` of every seat. At the end of an episode the mask is all zero (no decision).

Options: ``opponents`` (agent specs, comma-separated, or an ``OpponentPool``; default ``random``),
``seat`` (the learner's seat; default drawn per episode), ``advice``, ``illegal_action``
(``"lose"`` or ``"raise"``), ``render_mode``, and the game's env options (``num_players``,
``max_turns``, ``truncation_scoring`` …, see each game's env module).

Seeding: ``reset(seed=…)`` seeds the view's Gymnasium generator, which draws the env's seed, the
learner's seat, every opponent from the pool and the opponent's seed, in that order (the order
training records rely on); the opponents then play through the game runner's loop
(:mod:`meadowzoo.training.runner`).

Replay: every episode keeps a record, :meth:`SelfPlayEnv.episode_record` (JSON: the generator's
state after the reset's seeding, the pool's snapshot files then, the reset options and the
learner's actions since), and :meth:`SelfPlayEnv.replay_episode` rebuilds that episode exactly,
opponents and their generators included, by playing it again. Training checkpoints keep these
records, so a resumed run goes on with the very games it was playing (a curve identical to an
uninterrupted run's).

Registered with Gymnasium under each game's ``gym_id`` (its plug-in), e.g. ``meadowzoo/HaseUndIgel-v0``,
``meadowzoo/HasteBock-v0`` and ``meadowzoo/VolleWolle-v0`` (after ``import meadowzoo``):
``gymnasium.make("meadowzoo/HaseUndIgel-v0", opponents="random,greedy", num_players=2)``.
"""

from __future__ import annotations

import copy
from typing import Any

import gymnasium
import numpy as np

from meadowzoo.agents.advice import advice_size, check_advice, env_advice
from meadowzoo.envs.registry import game_module
from meadowzoo.training.pool import OpponentPool
from meadowzoo.training.runner import advance


#: how :meth:`SelfPlayEnv.step` handles a masked action, the default first (see the module docstring)
ILLEGAL_ACTION_MODES = ("lose", "raise")


def action_index(action: Any, num_actions: int) -> int:
    """``action`` as an index of an action space of ``num_actions``, else ``ValueError`` (whatever
    the illegal-action mode: it is no action at all, a caller's bug, not a move)."""
    if isinstance(action, np.ndarray) and action.size == 1:  # e.g. a vectorised sample, shape (1,)
        action = action.reshape(())[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise ValueError(f"action must be an integer index of the action space, got {action!r}")
    if not 0 <= action < num_actions:
        raise ValueError(f"action {action} out of range 0..{num_actions - 1}")
    return int(action)
#: the learner's reward when it loses by an illegal action: the rank reward of the last place
ILLEGAL_ACTION_REWARD = -1.0
#: the keys ``reset(options=…)`` takes
RESET_OPTIONS = ("seat", "snapshot")


def checked_seat(seat: Any, players: int, name: str = "seat") -> int:
    """``seat`` as a seat index 0..players-1 (a Python or numpy integer, never a bool), else ``ValueError``."""
    if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < players:
        raise ValueError(f"{name} must be an integer seat in 0..{players - 1}, got {seat!r}")
    return int(seat)


class SelfPlayEnv(gymnasium.Env):
    """One learner seat against opponents from a pool; see the module docstring."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        game: str,
        opponents: str | list[str] | OpponentPool = "random",
        seat: int | None = None,
        render_mode: str | None = None,
        advice: str | None = None,
        illegal_action: str = "lose",
        **env_options: Any,
    ) -> None:
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, got {illegal_action!r}")
        self.illegal_action = illegal_action
        self.game_name = game
        self.raw = game_module(game).raw_env(render_mode=render_mode, **env_options)
        self.render_mode = render_mode
        self.agents = self.raw.possible_agents
        self.fixed_seat = None if seat is None else checked_seat(seat, len(self.agents))
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
        self._forfeit: str | None = None  # why the learner lost by an illegal action, if it did
        self._needs_reset = True  # before the first reset, and after a reset that failed
        self._record: dict | None = None  # the current episode's, for replay_episode

    # ---- episode ---------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        options = {} if options is None else options
        if not isinstance(options, dict) or set(options) - set(RESET_OPTIONS):
            raise ValueError(f"reset options must be a dict with keys among {RESET_OPTIONS}, got {options!r}")
        chosen_seat = checked_seat(options["seat"], len(self.agents), "options['seat']") if "seat" in options else None
        super().reset(seed=seed)
        rng = self.np_random
        self._record = {"rng": copy.deepcopy(rng.bit_generator.state), "pool": self.pool.snapshot_paths(),
                        "options": {key: int(value) if key == "seat" else value for key, value in options.items()},
                        "actions": []}
        self._needs_reset = True  # until this reset has gone through (a bad snapshot stops it below)
        self.raw.reset(seed=int(rng.integers(2**31)))
        if "snapshot" in options:  # start from a given position (tests, curricula)
            self.raw.restore(options["snapshot"])
        seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(len(self.agents)))
        if chosen_seat is not None:
            seat = chosen_seat
        self.learner = self.agents[seat]
        self._forfeit = None
        self.opponents = {}
        for agent in self.agents:
            if agent != self.learner:
                opponent = self.pool.sample(rng)
                opponent.seed(int(rng.integers(2**31)))
                opponent.reset()
                self.opponents[agent] = opponent
        self._play_opponents()
        self._needs_reset = False
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self._needs_reset:
            raise RuntimeError("call reset() first (and again after a reset that failed)")
        if self._finished():
            raise RuntimeError("the episode is over; call reset()")
        action = self._index(action)
        legal = self._learner_mask[action]  # the mask of this decision, built by _info()
        message = None if legal else self.raw._illegal_message(self.learner, action, self.raw.legal_actions())
        if not legal and self.illegal_action == "raise":
            raise ValueError(message)
        self._record["actions"].append(action)  # whatever it does to the episode, a replay does again
        if not legal:
            self._forfeit = message
            return self._observation(), ILLEGAL_ACTION_REWARD, True, False, self._info()
        self.raw.step(action)
        self._play_opponents()
        terminated = all(self.raw.terminations.values())
        truncated = not terminated and all(self.raw.truncations.values())
        # the env's rewards of the end: the final ranks, or a truncation's (0, or the standing's)
        reward = float(self.raw.rewards[self.learner]) if terminated or truncated else 0.0
        return self._observation(), reward, terminated, truncated, self._info()

    def _index(self, action: Any) -> int:
        return action_index(action, int(self.action_space.n))

    def _play_opponents(self) -> None:
        """Let the opponents decide until it is the learner's decision or the game is over (the
        game runner's loop, :func:`meadowzoo.training.runner.advance`)."""
        advance(self.raw, self.opponents, until=self.learner)

    def _finished(self) -> bool:
        if self._forfeit is not None:
            return True
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
        if self._learner_mask is None:
            return self.raw.action_mask(self.learner).astype(bool)
        return self._learner_mask.copy()

    # ---- replay (exact resumption of training) ---------------------------------------------------
    def episode_record(self) -> dict:
        """The current episode's record (JSON-serialisable; see the module docstring)."""
        if self._record is None:
            raise RuntimeError("call reset() first: no episode yet")
        return copy.deepcopy(self._record)

    def replay_episode(self, record: dict, env: gymnasium.Env | None = None) -> np.ndarray:
        """Rebuild the episode of ``record`` (:meth:`episode_record`) exactly: the generator's state,
        the pool's snapshots as they were at its reset (files that must still exist; the pool is
        set back afterwards), the reset, then the learner's actions. Plays through ``env``, a
        wrapper of this env such as SB3's ``Monitor``, so that it counts the steps as they
        happened (default: this env). Returns the observation after the last action.
        ``ValueError`` for a malformed record or one this episode's actions do not fit."""
        if not isinstance(record, dict) or set(record) != {"rng", "pool", "options", "actions"}:
            raise ValueError("an episode record is a dict with keys rng, pool, options, actions")
        actions, pool, options = record["actions"], record["pool"], record["options"]
        if not isinstance(actions, list) or not all(isinstance(a, int) and not isinstance(a, bool) for a in actions):
            raise ValueError("an episode record's actions must be a list of integers")
        if not isinstance(pool, list) or not all(isinstance(path, str) for path in pool):
            raise ValueError("an episode record's pool must be a list of snapshot paths")
        if not isinstance(options, dict):
            raise ValueError("an episode record's options must be a dict")
        env = self if env is None else env
        generator, after = copy.deepcopy(self.np_random.bit_generator.state), self.pool.snapshot_paths()
        try:
            try:
                self.np_random.bit_generator.state = record["rng"]
            except (TypeError, ValueError, KeyError) as error:
                raise ValueError(f"an episode record's rng is no state of this env's generator: {error}") from None
            self.pool.set_snapshots(pool)
            observation, _ = env.reset(options=options)  # no seed: the generator state set above
        except Exception:
            self.np_random.bit_generator.state = generator
            raise
        finally:
            self.pool.set_snapshots(after)
        for action in actions:
            if self._finished():
                raise ValueError("an episode record's actions go on after its episode ended")
            observation, *_ = env.step(action)
        return observation

    def add_snapshot_to_pool(self, path: str) -> None:
        """Add a frozen learner policy to this env's opponent pool (called through VecEnvs)."""
        self.pool.add_snapshot(path)

    def _info(self) -> dict:
        if self._forfeit is None:
            self._learner_mask = self.raw.action_mask(self.learner).astype(bool)
        else:  # the episode is over: no decision
            self._learner_mask = np.zeros(self.action_space.n, dtype=bool)
        info = {"action_mask": self._learner_mask.copy(), "seat": self.agents.index(self.learner)}
        if self._forfeit is not None:
            info["illegal_action"] = self._forfeit
            info["final_rewards"] = {agent: ILLEGAL_ACTION_REWARD if agent == self.learner else 0.0
                                     for agent in self.agents}
        elif self._finished():  # the rules' final rewards (a restored finished game paid them before)
            raw = self.raw
            info["final_rewards"] = raw.expected_rewards(raw.game, self.agents, raw.max_turns, raw.truncation_scoring)
        return info

    def render(self) -> Any:
        return self.raw.render()
