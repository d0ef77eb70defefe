"""Trained policies as players, stored weights-only.

A policy file (``*.pt``) is a plain dictionary written by :func:`save_policy` and read with
``torch.load(..., weights_only=True)``: tensors plus JSON-like metadata (game, env options, network
layout, observation and action sizes). No pickled code is ever executed when loading; the network
is rebuilt from the metadata as a sb3-contrib ``MaskableActorCriticPolicy`` (or its
:class:`~meadowzoo.agents.advised_policy.AdvisedPolicy` subclass) and the weights are copied in.

An *advised* policy (metadata ``advice``, e.g. ``"strong"``) reads the observation followed by the
heuristic's advice block (:mod:`meadowzoo.agents.advice`): its action logits are the MLP's plus learned
weights times the advice's gap and choice blocks, so it starts as the heuristic and learns where to
depart from it. :class:`PolicyAgent` computes the advice itself at play time from the game it sees.

:class:`PolicyAgent` plays the most probable legal action (``deterministic=True``) or samples from
the masked distribution with the agent's own generator.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from meadowzoo.agents.advice import check_advice, env_advice
from meadowzoo.agents.base import Agent

FORMAT = "meadowzoo-policy-v1"


def save_policy(model: Any, path: str | Path, game: str, env_options: dict, note: str = "",
                advice: str | None = None) -> Path:
    """Write the policy of a MaskablePPO ``model`` weights-only to ``path`` (``advice``: the
    heuristic whose advice block the observation ends with, if any)."""
    policy = model.policy
    net_arch = policy.net_arch
    return write_policy(
        path, game=game, env_options=env_options, advice=advice, note=note,
        observation_size=int(policy.observation_space.shape[0]), num_actions=int(policy.action_space.n),
        net_arch={"pi": list(net_arch["pi"]), "vf": list(net_arch["vf"])} if isinstance(net_arch, dict)
        else list(net_arch),
        activation=policy.activation_fn.__name__, state_dict=policy.state_dict())


def write_policy(path: str | Path, *, game: str, env_options: dict, observation_size: int, num_actions: int,
                 net_arch: dict | list, activation: str, state_dict: dict, note: str = "",
                 advice: str | None = None) -> Path:
    """Write a ``meadowzoo-policy-v1`` file: the ``state_dict`` of a ``MaskableActorCriticPolicy``
    (or ``AdvisedPolicy``) with this layout, from SB3 or from another trainer's matching network
    (:mod:`meadowzoo.training.rllib_export`)."""
    import torch

    payload = {
        "format": FORMAT,
        "game": game,
        "env_options": dict(env_options),
        "advice": advice,
        "observation_size": int(observation_size),
        "num_actions": int(num_actions),
        "net_arch": net_arch,
        "activation": activation,
        "note": note,
        "state_dict": {k: torch.as_tensor(v).detach().cpu().clone() for k, v in state_dict.items()},
    }
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(payload, path)
    return path


def load_policy(path: str | Path) -> Any:
    """Rebuild the policy network from a weights-only file (no code is unpickled)."""
    import torch
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    payload = torch.load(Path(path), map_location="cpu", weights_only=True)
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise ValueError(f"{path}: not a meadowzoo policy file")
    activation = {"Tanh": torch.nn.Tanh, "ReLU": torch.nn.ReLU}.get(payload["activation"])
    if activation is None:
        raise ValueError(f"{path}: unsupported activation {payload['activation']!r}")
    observation_space = spaces.Box(-np.inf, np.inf, shape=(payload["observation_size"],), dtype=np.float32)
    action_space = spaces.Discrete(payload["num_actions"])
    policy_class = MaskableActorCriticPolicy
    if payload.get("advice") is not None:
        from meadowzoo.agents.advised_policy import AdvisedPolicy

        try:
            check_advice(payload["advice"])
        except ValueError as error:
            raise ValueError(f"{path}: {error}") from None
        policy_class = AdvisedPolicy
    policy = policy_class(observation_space, action_space, lambda _: 0.0, net_arch=payload["net_arch"],
                          activation_fn=activation)
    policy.load_state_dict(payload["state_dict"])
    policy.set_training_mode(False)
    policy.meadowzoo = {k: v for k, v in payload.items() if k != "state_dict"}
    return policy


class PolicyAgent(Agent):
    """Plays a trained policy on its own observation and mask."""

    name = "policy"

    def __init__(self, policy: Any, deterministic: bool = True, seed: int | None = None, name: str | None = None):
        super().__init__(seed)
        self.policy = policy
        self.deterministic = deterministic
        if name:
            self.name = name

    @classmethod
    def from_file(cls, path: str | Path, game: str | None = None, **kwargs: Any) -> "PolicyAgent":
        policy = load_policy(path)
        if game is not None and policy.meadowzoo["game"] != game:
            raise ValueError(f"{path} is a policy for {policy.meadowzoo['game']}, not {game}")
        return cls(policy, name=f"policy:{Path(path).name}", **kwargs)

    def act(self, env: Any, agent: str) -> int:
        import torch

        observation = env.observe(agent)
        mask = observation["action_mask"].astype(bool)
        features = observation["observation"]
        advice = self.policy.meadowzoo.get("advice") if hasattr(self.policy, "meadowzoo") else None
        if advice is not None:
            features = np.concatenate([features, env_advice(advice, env, self.rng)])
        with torch.no_grad():
            obs = torch.as_tensor(features[None])
            distribution = self.policy.get_distribution(obs, action_masks=mask[None])
            probs = distribution.distribution.probs[0].numpy()
        if self.deterministic:
            return int(np.argmax(np.where(mask, probs, -1.0)))
        probs = np.where(mask, probs, 0.0)
        return int(self.rng.choice(len(probs), p=probs / probs.sum()))
