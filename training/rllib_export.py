"""Export an RLlib PPO module trained by :mod:`meadowzoo.training.rllib_selfplay` to a policy file.

The module (RLlib's action-masking PPO module with ``vf_share_layers=False``, tanh activations and
no head layers) has exactly the layout of sb3-contrib's ``MaskableActorCriticPolicy`` with
``net_arch={"pi": hidden, "vf": hidden}``, so its weights are renamed, not converted, into a
``meadowzoo-policy-v1`` file (:func:`meadowzoo.agents.policy.write_policy`), which every tool that
plays ``policy:FILE`` loads (tournaments, ``play``, self-play snapshots):

==========================================  ======================================
RLlib module                                sb3-contrib policy
==========================================  ======================================
``encoder.actor_encoder.net.mlp.{i}.*``     ``mlp_extractor.policy_net.{i}.*``
``encoder.critic_encoder.net.mlp.{i}.*``    ``mlp_extractor.value_net.{i}.*``
``pi.net.mlp.0.*``                          ``action_net.*``
``vf.net.mlp.0.*``                          ``value_net.*``
==========================================  ======================================

Masking agrees too: RLlib adds ``log(mask)`` (clamped) to the logits, sb3-contrib replaces masked
logits by a large negative number, so both put (numerically) all probability on legal actions and
the same legal action is the most probable.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np

from meadowzoo.agents.policy import write_policy

_RENAMES = [
    (re.compile(r"^encoder\.actor_encoder\.net\.mlp\.(\d+)\.(weight|bias)$"), r"mlp_extractor.policy_net.\1.\2"),
    (re.compile(r"^encoder\.critic_encoder\.net\.mlp\.(\d+)\.(weight|bias)$"), r"mlp_extractor.value_net.\1.\2"),
    (re.compile(r"^pi\.net\.mlp\.0\.(weight|bias)$"), r"action_net.\1"),
    (re.compile(r"^vf\.net\.mlp\.0\.(weight|bias)$"), r"value_net.\1"),
]

#: buffers of the heads that are settings, not weights (a clip constant for continuous actions)
_CONSTANT = ".log_std_clip_param_const"


def sb3_state_dict(module_state: dict) -> dict:
    """The module's weights under sb3-contrib's names; a clear error for any other layout."""
    out = {}
    for name, value in module_state.items():
        if name.endswith(_CONSTANT):
            continue
        for pattern, replacement in _RENAMES:
            if pattern.match(name):
                out[pattern.sub(replacement, name)] = np.asarray(value)
                break
        else:
            raise ValueError(f"cannot export RLlib weight {name!r}: the module must be a PPO MLP with "
                             "separate policy and value towers (vf_share_layers=False) and no head layers")
    return out


def _hidden(state: dict, prefix: str) -> list[int]:
    layers = sorted(int(k.split(".")[2]) for k in state if k.startswith(prefix) and k.endswith("weight"))
    return [int(state[f"{prefix}.{i}.weight"].shape[0]) for i in layers]


def export_module_weights(module_state: dict, path: str | Path, game: str, env_options: dict,
                          note: str = "") -> Path:
    """Write the weights of one PPO module (a ``{name: array}`` state) as a policy file."""
    state = sb3_state_dict(module_state)
    pi, vf = _hidden(state, "mlp_extractor.policy_net"), _hidden(state, "mlp_extractor.value_net")
    return write_policy(path, game=game, env_options=env_options, note=note,
                        observation_size=state["mlp_extractor.policy_net.0.weight"].shape[1],
                        num_actions=state["action_net.weight"].shape[0], net_arch={"pi": pi, "vf": vf},
                        activation="Tanh", state_dict=state)


def export_policy(algorithm: Any, path: str | Path, game: str, env_options: dict, module_id: str = "main",
                  note: str = "") -> Path:
    """Export the trained module ``module_id`` of an RLlib ``algorithm`` (its learner's weights)."""
    weights = algorithm.learner_group.get_weights(module_ids=[module_id])[module_id]
    return export_module_weights(weights, path, game, env_options, note=note)
