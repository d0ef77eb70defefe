"""The advised MaskablePPO policy: an MLP whose action logits also read a heuristic's advice.

The observation ends with the advice block of :mod:`meadowzoo.agents.advice` (``2 n`` values: the gap of
every action's heuristic score to the best, then the heuristic's choice). The actor is the usual
MLP on the whole observation; the logits are

    linear(MLP(observation)) + w_gap * gap + w_choice * choice

with two learned weights, started so that the heuristic's choice is clearly the likeliest action.
A network of a few hundred units cannot learn to copy a one-hot choice over ~1000 actions
(Haste Bock?) through its hidden layer; passing the advice straight to the logits makes
"follow the heuristic" the starting point and leaves the MLP to learn the corrections.
The critic is the usual MLP on the whole observation (advice included).
"""

from __future__ import annotations

from typing import Any

import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import MlpExtractor

from meadowzoo.agents.advice import advice_size

#: starting weights of the gap and choice blocks in the logits
INITIAL_ADVICE_WEIGHTS = (1.0, 3.0)


class AdvisedExtractor(MlpExtractor):
    """The usual actor and critic MLPs; the actor's latent carries the advice block behind it."""

    def __init__(self, feature_dim: int, size: int, **kwargs: Any) -> None:
        super().__init__(feature_dim, **kwargs)
        self.advice_size = size
        self.mlp_dim_pi = self.latent_dim_pi
        self.latent_dim_pi = self.mlp_dim_pi + size

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        return torch.cat([self.policy_net(features), features[:, -self.advice_size:]], dim=1)


class AdvisedHead(torch.nn.Module):
    """Action logits from the actor's latent: linear(MLP part) + weights · (gap, choice)."""

    def __init__(self, mlp_dim: int, num_actions: int) -> None:
        super().__init__()
        self.mlp_dim = mlp_dim
        self.num_actions = num_actions
        self.linear = torch.nn.Linear(mlp_dim, num_actions)
        self.advice_weights = torch.nn.Parameter(torch.tensor(INITIAL_ADVICE_WEIGHTS))

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        mlp, n = self.mlp_dim, self.num_actions
        gap = latent[:, mlp:mlp + n]
        choice = latent[:, mlp + n:mlp + 2 * n]
        return self.linear(latent[:, :mlp]) + self.advice_weights[0] * gap + self.advice_weights[1] * choice


class AdvisedPolicy(MaskableActorCriticPolicy):
    """MaskablePPO policy whose observation ends with the advice block of its action space."""

    def _build_mlp_extractor(self) -> None:
        size = advice_size(int(self.action_space.n))
        self.mlp_extractor = AdvisedExtractor(self.features_dim, size, net_arch=self.net_arch,
                                              activation_fn=self.activation_fn, device=self.device)

    def _build(self, lr_schedule) -> None:
        super()._build(lr_schedule)
        # replace the plain linear action head (and rebuild the optimiser over the new parameters)
        self.action_net = AdvisedHead(self.mlp_extractor.mlp_dim_pi, int(self.action_space.n))
        if self.ortho_init:
            self.init_weights(self.action_net.linear, gain=0.01)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)
