"""The actor-critic network of the compiled trainer (flax) and its export to the portable format.

Two MLPs of the same hidden widths over the player's observation: the actor gives one logit per
action (illegal ones masked to ``-1e9`` before sampling), the critic one value. Parameters are
``{"actor": {"0": {"kernel", "bias"}, …}, "critic": {…}}``, layer ``i`` named ``str(i)``, the last
one the output; :func:`export_arrays` maps them one to one onto the arrays of
:mod:`meadowzoo.agents.mlp_policy` (``actor/<i>/kernel`` …), whose numpy forward pass is the same
function.
"""

from __future__ import annotations

import math

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np

MASKED = -1e9  # logit of an illegal action (as agents.mlp_policy)


class MLP(nn.Module):
    hidden: tuple[int, ...]
    outputs: int
    activation: str
    output_scale: float

    @nn.compact
    def __call__(self, x: jax.Array) -> jax.Array:
        act = nn.tanh if self.activation == "tanh" else nn.relu
        for i, width in enumerate(self.hidden):
            x = act(nn.Dense(width, kernel_init=nn.initializers.orthogonal(math.sqrt(2)), name=str(i))(x))
        return nn.Dense(self.outputs, kernel_init=nn.initializers.orthogonal(self.output_scale),
                        name=str(len(self.hidden)))(x)


class ActorCritic:
    """The two MLPs; :meth:`init` makes parameters, the other methods are pure functions of them."""

    def __init__(self, observation_size: int, num_actions: int, hidden: tuple[int, ...], activation: str) -> None:
        self.observation_size, self.num_actions = observation_size, num_actions
        self.hidden, self.activation = tuple(hidden), activation
        # small initial logits: the first policy is close to uniform over the legal actions
        self.actor = MLP(self.hidden, num_actions, activation, 0.01)
        self.critic = MLP(self.hidden, 1, activation, 1.0)

    def init(self, key: jax.Array) -> dict:
        k_actor, k_critic = jax.random.split(key)
        dummy = jnp.zeros((self.observation_size,), jnp.float32)
        return {"actor": self.actor.init(k_actor, dummy)["params"],
                "critic": self.critic.init(k_critic, dummy)["params"]}

    def logits(self, actor_params: dict, observation: jax.Array, mask: jax.Array) -> jax.Array:
        return jnp.where(mask, self.actor.apply({"params": actor_params}, observation), MASKED)

    def value(self, critic_params: dict, observation: jax.Array) -> jax.Array:
        return self.critic.apply({"params": critic_params}, observation)[..., 0]


def export_arrays(params: dict) -> dict[str, np.ndarray]:
    """The parameters as the named float32 arrays of a portable policy file."""
    return {f"{part}/{layer}/{name}": np.asarray(array, dtype=np.float32)
            for part in ("actor", "critic")
            for layer, weights in params[part].items()
            for name, array in weights.items()}
