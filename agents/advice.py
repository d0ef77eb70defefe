"""Advice features: a heuristic's opinion of every action, appended to a policy's observation.

A small network trained on a 2-core budget does not rediscover what the strong heuristics compute
by lookahead (Hase und Igel's turns-to-go table over a one-turn search, Haste Bock?'s whole-turn
plans over ~1000 actions). So an *advised* policy reads the strong player's scores as input
features and learns where to follow and where to depart from them (by imitating a search player
that beats the heuristic, then by self-play PPO).

Layout (``advice_features``), for a game with ``n`` actions, ``2 n`` float32 values:

* ``[0, n)`` — *gap*: for every action the heuristic scored, ``(score − best score) / scale``
  clipped to ``[−CLIP, 0]`` (0 for the best action, negative for worse ones); 0 for actions it did
  not score (illegal ones, or decisions it has no opinion on);
* ``[n, 2n)`` — *choice*: 1 for the actions the heuristic would pick (its best-scored actions, or
  the only legal action), 0 elsewhere; all 0 where it has no opinion.

``scale`` puts one unit at a meaningful difference per game (its plug-in's ``search.advice_scale``). The scores come
from :func:`meadowzoo.agents.guides.action_scores` on the game the deciding player sees; the Hase und Igel
lookahead resamples the unseen deck with the generator passed in, so the features read no hidden
state. :class:`meadowzoo.agents.advised_policy.AdvisedPolicy` adds the two blocks to its action logits with learned
weights, so an advised policy starts out as the heuristic and learns corrections.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from meadowzoo.agents.guides import action_scores
from meadowzoo.envs.registry import plugin

#: advice sources a policy may be trained with (the heuristic whose scores are appended)
ADVICE_KINDS = ("strong",)

#: gaps are clipped here: beyond it an action is simply bad
CLIP = 5.0


def check_advice(kind: str) -> str:
    """``kind`` if it names an advice source, else a ValueError naming the known ones."""
    if kind not in ADVICE_KINDS:
        raise ValueError(f"unknown advice {kind!r}; choose from {', '.join(ADVICE_KINDS)}")
    return kind


def advice_size(num_actions: int) -> int:
    """Length of the advice block for a game with ``num_actions`` actions."""
    return 2 * num_actions


def advice_features(kind: str, game: Any, legal: list[int], num_actions: int,
                    rng: np.random.Generator) -> np.ndarray:
    """The ``kind`` heuristic's advice on the pending decision of ``game`` (see the module doc)."""
    check_advice(kind)
    out = np.zeros(2 * num_actions, dtype=np.float32)
    if not legal:
        return out
    if len(legal) == 1:
        out[num_actions + legal[0]] = 1.0
        return out
    scores = action_scores(kind, game, legal, rng)
    if not scores:
        return out
    best = max(scores.values())
    scale = plugin(game.name).search.advice_scale
    for action, score in scores.items():
        out[action] = max(-CLIP, (score - best) / scale)
        if score >= best - 1e-9:
            out[num_actions + action] = 1.0
    return out


def env_advice(kind: str, env: Any, rng: np.random.Generator) -> np.ndarray:
    """Advice for the agent to move in a raw meadowzoo env (zeros once the game is over)."""
    num_actions = int(env.action_space(env.possible_agents[0]).n)
    agent = env.agent_selection
    if env.terminations[agent] or env.truncations[agent]:
        return np.zeros(2 * num_actions, dtype=np.float32)
    return advice_features(kind, env.game, list(env.legal_actions()), num_actions, rng)
