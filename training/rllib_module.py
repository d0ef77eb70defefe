"""The RLModule meadowzoo's RLlib scripts train: RLlib's default PPO torch module with the action
mask applied to its logits (needs the ``ray`` extra).

Why our own: RLlib ships an action-masking module only as an example
(``ray.rllib.examples.rl_modules.classes.action_masking_rlm``), built on ``PPOTorchRLModule``,
which Ray 2.60 deprecates ("will raise an error in the future"). This module is the same idea on
the supported base, :class:`DefaultPPOTorchRLModule`, so a Ray release that moves or drops the
example does not break training or the exported weights' layout.

Input: the observation of :class:`~meadowzoo.training.rllib_env.MeadowzooMultiAgentEnv`, a dict
``{"observations": Box, "action_mask": Box(0, 1, (num_actions,))}``. The encoder, policy head and
value head are RLlib's, built for the ``"observations"`` Box alone (so the weights are named and
shaped as the default PPO module's, which :mod:`meadowzoo.training.rllib_export` relies on).

Output: the policy head's logits with every masked action's logit set to the float32 minimum (as
RLlib's example does), so its probability is exactly zero while every logit stays a finite number:
torch's ``Categorical`` guards ``-inf`` itself, but an entropy or KL written from the logits by hand
(``p · log_softmax``) would turn ``0 · -inf`` into NaN. Values are the value head's, unmasked.
"""

from __future__ import annotations

import gymnasium as gym
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns

#: the keys of the env's observation dict
OBSERVATIONS, ACTION_MASK = "observations", "action_mask"


def check_masked_space(space) -> None:
    """Refuse, with the expected layout named, an observation space that is not the dict this
    module reads."""
    if not isinstance(space, gym.spaces.Dict) or set(space.spaces) != {OBSERVATIONS, ACTION_MASK}:
        raise ValueError(f"MaskedPPOTorchRLModule needs a Dict observation space with exactly the keys "
                         f"{OBSERVATIONS!r} (a Box) and {ACTION_MASK!r} (a Box of 0/1 per action), got {space!r}")
    if not isinstance(space[ACTION_MASK], gym.spaces.Box) or len(space[ACTION_MASK].shape) != 1:
        raise ValueError(f"{ACTION_MASK!r} must be a flat Box, one entry per action, got {space[ACTION_MASK]!r}")


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO module (MLP encoder, policy and value heads) whose logits obey the
    action mask of the observation (see the module docstring)."""

    def __init__(self, *, observation_space=None, action_space=None, **kwargs):
        check_masked_space(observation_space)
        if observation_space[ACTION_MASK].shape != (action_space.n,):
            raise ValueError(f"the action mask has shape {observation_space[ACTION_MASK].shape}, "
                             f"the action space {action_space.n} actions")
        self._space_with_mask = observation_space
        # the networks are built for the observations alone
        super().__init__(observation_space=observation_space[OBSERVATIONS], action_space=action_space, **kwargs)

    def setup(self):
        super().setup()
        # ... but RLlib's connectors batch what the env returns by the module's space: the dict
        self.observation_space = self._space_with_mask

    def _forward(self, batch, **kwargs):
        mask, batch = _split_observation(batch)
        return _mask_logits(super()._forward(batch, **kwargs), mask)

    def _forward_train(self, batch, **kwargs):
        mask, batch = _split_observation(batch)
        return _mask_logits(super()._forward_train(batch, **kwargs), mask)

    def compute_values(self, batch, embeddings=None):
        _, batch = _split_observation(batch)
        return super().compute_values(batch, embeddings)


def _split_observation(batch: dict) -> tuple:
    """``(mask, batch with the observations alone under Columns.OBS)``: a shallow copy, the
    caller's batch stays as it was (RLlib passes the same batch to the value pass and the
    training pass)."""
    observation = batch[Columns.OBS]
    if not isinstance(observation, dict) or ACTION_MASK not in observation or OBSERVATIONS not in observation:
        raise ValueError(f"MaskedPPOTorchRLModule needs the observation dict {{{OBSERVATIONS!r}, {ACTION_MASK!r}}} "
                         f"under {Columns.OBS!r}, got {type(observation).__name__}")
    return observation[ACTION_MASK], {**batch, Columns.OBS: observation[OBSERVATIONS]}


def _mask_logits(output: dict, mask) -> dict:
    logits = output[Columns.ACTION_DIST_INPUTS]
    floor = torch.finfo(logits.dtype).min
    output[Columns.ACTION_DIST_INPUTS] = torch.where(mask.to(torch.bool), logits, torch.full_like(logits, floor))
    return output
