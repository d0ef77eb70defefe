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

import hashlib
import os

from pathlib import Path
from typing import Any

import numpy as np

from meadowzoo.agents import mlp_policy
from meadowzoo.agents.advice import advice_size, check_advice, env_advice
from meadowzoo.agents.afterstate_value import FORMAT as AFTERSTATE_FORMAT
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
    payload["weights_sha256"] = weights_sha256(payload["state_dict"])
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # written beside and renamed over: a kill during the save never leaves a truncated policy file
    partial = path.with_name(f".{path.name}.partial")
    torch.save(payload, partial)
    os.replace(partial, path)
    return path


def weights_sha256(state_dict: dict) -> str:
    """A digest of the weights themselves (names, shapes, bytes), stored in the file and checked on
    load: torch reads flipped bytes inside a tensor without complaint."""
    digest = hashlib.sha256()
    for name in sorted(state_dict):
        tensor = state_dict[name].detach().cpu().contiguous()
        digest.update(f"{name}:{tuple(tensor.shape)}:{tensor.dtype}".encode())
        digest.update(tensor.numpy().tobytes())
    return digest.hexdigest()


#: metadata fields of a policy file and their types
_FIELDS = {"game": str, "env_options": dict, "observation_size": int, "num_actions": int,
           "net_arch": (list, dict), "activation": str, "state_dict": dict}


def load_policy(path: str | Path) -> Any:
    """Rebuild the policy network from a weights-only file (no code is unpickled), dispatched on
    the file's ``format``: this module's torch files, or :mod:`meadowzoo.agents.mlp_policy`'s numpy
    networks (played without torch). Every problem —
    not a torch file, a corrupt or tampered one, wrong fields, weights that do not fit the network
    — is a ``ValueError`` naming the file."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no policy file {path}")
    kind = mlp_policy.file_format(path)
    if kind in mlp_policy.FORMATS:  # a portable numpy network (the JAX trainer's export)
        return mlp_policy.load_mlp_policy(path)
    if kind is not None:
        raise ValueError(f"{path}: unknown policy file format {kind!r}")
    import torch
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from meadowzoo.agents.shipped import verify_recorded_sha256

    verify_recorded_sha256(path)
    try:
        payload = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # truncated zip, pickled code, not a torch file at all …
        raise ValueError(f"{path}: not a readable meadowzoo policy file ({type(error).__name__}: {error})") from None
    if isinstance(payload, dict) and payload.get("format") == AFTERSTATE_FORMAT:
        raise ValueError(f"{path} is an afterstate value file, not a policy: play it with lookahead:{path}")
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise ValueError(f"{path}: not a meadowzoo policy file")
    for field, kind in _FIELDS.items():
        if not isinstance(payload.get(field), kind) or isinstance(payload.get(field), bool):
            raise ValueError(f"{path}: policy file field {field!r} is missing or malformed")
    if "weights_sha256" in payload and weights_sha256(payload["state_dict"]) != payload["weights_sha256"]:
        raise ValueError(f"{path}: the weights do not match their recorded digest (the file is corrupt)")
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
    try:
        policy.load_state_dict(payload["state_dict"])
    except RuntimeError as error:
        raise ValueError(f"{path}: the weights do not fit the network the file describes ({error})") from None
    policy.set_training_mode(False)
    policy.meadowzoo = {k: v for k, v in payload.items() if k != "state_dict"}
    return policy


def check_game(meta: dict, source: Any, game: str) -> None:
    """A network (its file's metadata ``meta``) made for another game is refused."""
    if meta["game"] != game:
        raise ValueError(f"{source} is a policy for {meta['game']}, not {game}")


def check_network_fits(meta: dict, source: Any, env: Any, input_size: int) -> None:
    """A network trained for another player count, or reading inputs of another size than
    ``input_size`` (this game's observation, plus any advice), must not play or guide silently."""
    trained, seats = meta["env_options"].get("num_players"), len(env.possible_agents)
    if trained is not None and trained != seats:
        raise ValueError(f"{source} was trained for {trained} players; this game has {seats}")
    if input_size != meta["observation_size"]:
        raise ValueError(f"{source} expects observations of size {meta['observation_size']}; "
                         f"this game's are {input_size}")


def load_network(path: str | Path) -> mlp_policy.MlpPolicy:
    """The actor-critic network of any policy file as an :class:`~meadowzoo.agents.mlp_policy.MlpPolicy`
    (whose forward pass also runs on ``jax.numpy``): the JAX trainer's files as they are, a plain SB3
    policy converted (:func:`~meadowzoo.agents.mlp_policy.from_sb3`; advised ones refused)."""
    policy = load_policy(path)
    if isinstance(policy, mlp_policy.MlpPolicy):
        return policy
    return mlp_policy.from_sb3(policy, str(path))


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
        if game is not None:
            check_game(policy.meadowzoo, path, game)
        agent = cls(policy, name=f"policy:{Path(path).name}", **kwargs)
        agent.source = str(path)
        return agent

    source = "a policy"

    def check_fits(self, env: Any, observation: np.ndarray) -> None:
        """A policy trained for another player count (or options) must not play on silently."""
        meta = getattr(self.policy, "meadowzoo", None)
        if meta is None:
            return
        advice = advice_size(meta["num_actions"]) if meta.get("advice") else 0
        check_network_fits(meta, self.source, env, len(observation) + advice)

    def act(self, env: Any, agent: str) -> int:
        observation = env.observe(agent)
        self.check_fits(env, observation["observation"])
        if isinstance(self.policy, mlp_policy.MlpPolicy):
            return mlp_policy.play(self.policy, self, env, agent, self.deterministic)
        import torch

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
