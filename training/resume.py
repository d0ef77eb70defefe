"""Exact resumption of Stable-Baselines3 training from a checkpoint.

A checkpoint taken between two rollouts (after an update, before the next rollout) holds, besides
the network, the optimizer and the generators (:mod:`meadowzoo.training.checkpoints`), what SB3
keeps of its envs between rollouts: every env's current episode as a replayable record
(:meth:`meadowzoo.training.selfplay.SelfPlayEnv.episode_record`), which episodes have just begun
(``_last_episode_starts``) and the recent episodes' returns and lengths that SB3 logs
(``ep_info_buffer``). Resuming replays each record in its env process, so the run goes on with the
very games, opponents and generator states it had: the same weights, the same curve as a run that
was never stopped (tested). A checkpoint without records (older runs), or one made with another
number of env processes, resumes with fresh games instead, as before.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np
from stable_baselines3.common.monitor import Monitor


class ReplayMonitor(Monitor):
    """SB3's ``Monitor`` of a :class:`~meadowzoo.training.selfplay.SelfPlayEnv` that replays
    episodes through itself, so that its episode lengths and returns count the replayed steps."""

    def replay_episode(self, record: dict) -> tuple[np.ndarray | None, str | None]:
        """``(observation, None)`` after replaying ``record``, or ``(None, what went wrong)``: an
        exception would end the env process of an SB3 ``SubprocVecEnv`` (its worker catches none)."""
        try:
            return self.unwrapped.replay_episode(record, env=self), None
        except Exception as error:  # a tampered record, a snapshot file gone: reported, never fatal here
            return None, f"{type(error).__name__}: {error}"


def env_state(model) -> dict[str, Any] | None:
    """What a checkpoint keeps of ``model``'s envs between two rollouts (JSON-serialisable), or
    None before the first rollout."""
    if model._last_obs is None or model._last_episode_starts is None:
        return None
    return {"records": model.get_env().env_method("episode_record"),
            "last_episode_starts": [bool(x) for x in model._last_episode_starts],
            "ep_info_buffer": [dict(info) for info in (model.ep_info_buffer or [])]}


def restore_env_state(model, saved: dict[str, Any] | None) -> str:
    """Replay ``saved`` (:func:`env_state`) into ``model``'s envs and set SB3's between-rollout
    fields. Returns what was done, for the run's log. Without records, or with records of another
    number of envs, it changes nothing (SB3 starts fresh games); a record that fails to replay
    raises ``ValueError`` (the caller then lets SB3 reset every env: ``_last_obs = None``)."""
    vec = model.get_env()
    if saved is None:
        return "the checkpoint holds no env records (an older run): the envs start fresh games"
    records = saved.get("records") if isinstance(saved, dict) else None
    if not isinstance(records, list):
        raise ValueError("the checkpoint's env records are malformed")
    if len(records) != vec.num_envs:
        return (f"the checkpoint was made with {len(records)} env processes, this run has {vec.num_envs}: "
                "the envs start fresh games (the curve will differ from an uninterrupted run's)")
    starts, infos = saved.get("last_episode_starts"), saved.get("ep_info_buffer")
    if not isinstance(starts, list) or len(starts) != vec.num_envs or not isinstance(infos, list):
        raise ValueError("the checkpoint's env records are malformed")
    replayed = [vec.env_method("replay_episode", record, indices=[i])[0] for i, record in enumerate(records)]
    for index, (_, error) in enumerate(replayed):
        if error is not None:
            raise ValueError(f"env {index}: {error}")
    model._last_obs = np.stack([observation for observation, _ in replayed])
    model._last_episode_starts = np.asarray(starts, dtype=bool)
    model.ep_info_buffer = deque(infos, maxlen=model._stats_window_size)
    model.ep_success_buffer = deque(maxlen=model._stats_window_size)  # SB3 makes both or neither (no is_success here)
    return f"replayed the {vec.num_envs} envs' games in progress"
