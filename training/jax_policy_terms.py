"""The policy's terms of the PPO loss: the log-probability of the action taken and the entropy of
the masked policy, from the actor's masked logits (illegal actions at ``MASKED``, see
:mod:`meadowzoo.training.jax_network`).

Two ways to the same function (the trainer's ``loss_gradient`` setting):

* ``"autodiff"``: ``jax.nn.log_softmax`` and the entropy ``-Σ p log p`` over the legal actions,
  differentiated by JAX. What every run recorded before session 28 computed.
* ``"fused"``: the forward pass keeps the softmax ``p`` and ``Σ p s`` (``s = z - max z``: the
  logits ``z`` shifted), and a hand-written gradient needs one elementwise pass over the logits:

  - ``log p[a] = z[a] - logsumexp(z)``, gradient ``onehot(a) - p``;
  - ``H = logsumexp(z) - Σ p z``, gradient ``-p (z - Σ p z)``;

  both computed from ``s`` (``z - Σ p z = s - Σ p s``), as ``log_softmax`` does.

  Autodiff's gradient of ``log_softmax`` and of the entropy runs several passes over the
  ``(batch, actions)`` logits, forward and backward; with Haste Bock?'s 996 actions they were about
  a sixth of the PPO epochs' time, and the fused form makes its epochs about 12% faster.
  Illegal actions have ``p == 0`` exactly (``exp(-1e9 - max)`` underflows), so they add nothing
  to either sum or gradient, as the legal-only sum of ``"autodiff"``.

The two agree to float32 rounding, not bit for bit, so a run replays exactly only with the setting
it was recorded with (:data:`meadowzoo.training.jax_config.LEGACY_SETTINGS`).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from meadowzoo.training.jax_config import LOSS_GRADIENTS


def policy_terms(logits: jax.Array, mask: jax.Array, action: jax.Array, gradient: str) -> tuple[jax.Array, jax.Array]:
    """``(log_prob, entropy)``, one of each per row: the log-probability of ``action`` (shape
    ``(batch,)``) under the softmax of ``logits`` (``(batch, actions)``, illegal ones already
    masked), and the entropy over the legal actions (``mask``). ``gradient``: one of
    :data:`LOSS_GRADIENTS`."""
    if gradient == "fused":
        return fused_policy_terms(logits, action)
    if gradient != "autodiff":
        raise ValueError(f"gradient must be one of {LOSS_GRADIENTS}, got {gradient!r}")
    log_probs = jax.nn.log_softmax(logits)
    log_prob = jnp.take_along_axis(log_probs, action[:, None], axis=1)[:, 0]
    entropy = -jnp.where(mask, jnp.exp(log_probs) * log_probs, 0.0).sum(-1)
    return log_prob, entropy


@jax.custom_vjp
def fused_policy_terms(logits: jax.Array, action: jax.Array) -> tuple[jax.Array, jax.Array]:
    """:func:`policy_terms` with the hand-written gradient (see the module's docstring); ``logits``
    masked, so no mask is needed."""
    return _forward(logits, action)[0]


def _forward(logits, action):
    # shifted logits s = z - max z: the differences below are then of small numbers (for the
    # likely actions s is near 0), which keeps float32 rounding at autodiff's level with peaked logits
    shifted = logits - logits.max(-1, keepdims=True)
    weights = jnp.exp(shifted)
    total = weights.sum(-1, keepdims=True)
    p = weights / total
    log_total = jnp.log(total[:, 0])
    mean_shifted = (p * shifted).sum(-1)  # Σ p s = Σ p z - max z
    log_prob = jnp.take_along_axis(shifted, action[:, None], axis=1)[:, 0] - log_total
    entropy = log_total - mean_shifted
    return (log_prob, entropy), (p, shifted, mean_shifted, action)


def _backward(residuals, cotangents):
    p, shifted, mean_shifted, action = residuals
    d_log_prob, d_entropy = cotangents
    taken = jax.nn.one_hot(action, shifted.shape[-1], dtype=shifted.dtype)
    d_logits = (d_log_prob[:, None] * (taken - p)
                - d_entropy[:, None] * p * (shifted - mean_shifted[:, None]))  # z - Σ p z = s - Σ p s
    return d_logits, None  # the action is an integer: no gradient


fused_policy_terms.defvjp(_forward, _backward)
