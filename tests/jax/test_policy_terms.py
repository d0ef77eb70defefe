"""The PPO loss's policy terms (training/jax_policy_terms.py): the fused log-probability and entropy
with their hand-written gradient against JAX's autodiff of ``log_softmax``; the trainer's
``loss_gradient`` setting (checked, recorded, on the command line, older runs replay with
``autodiff``); and the PPO epochs' minibatches, gathered one at a time, equal to permuting the whole
rollout first."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("flax")
pytest.importorskip("optax")

import jax.numpy as jnp  # noqa: E402

import meadowzoo.jax  # noqa: E402
from meadowzoo.training.jax_config import as_recorded, jax_config_for  # noqa: E402
from meadowzoo.training.jax_network import MASKED  # noqa: E402
from meadowzoo.training.jax_policy_terms import fused_policy_terms, policy_terms  # noqa: E402
from meadowzoo.training.jax_ppo import SelfPlayPPO  # noqa: E402

SMALL = dict(num_envs=16, num_steps=16, num_minibatches=2, opponent_slots=4, population=4)


def masked_batch(seed: int, rows: int, actions: int, scale: float, legal_share: float):
    """Raw logits, a mask with at least one legal action per row (row 0: a single one, row 1:
    all), an action drawn among the legal ones, and per-row cotangent weights."""
    rng = np.random.default_rng(seed)
    raw = (scale * rng.standard_normal((rows, actions))).astype(np.float32)
    mask = rng.random((rows, actions)) < legal_share
    mask[np.arange(rows), rng.integers(0, actions, rows)] = True
    mask[0] = False
    mask[0, actions // 2] = True
    mask[1] = True
    action = np.array([rng.choice(np.flatnonzero(row)) for row in mask], dtype=np.int32)
    weights = rng.standard_normal((2, rows)).astype(np.float32)
    return jnp.asarray(raw), jnp.asarray(mask), jnp.asarray(action), jnp.asarray(weights)


def loss_of(gradient: str, mask, action, weights):
    def loss(raw):
        logits = jnp.where(mask, raw, MASKED)
        log_prob, entropy = policy_terms(logits, mask, action, gradient)
        return (weights[0] * log_prob).sum() + (weights[1] * entropy).sum()
    return loss


@pytest.mark.parametrize("actions", [27, 139, 996])  # Volle Wolle, Hase und Igel, Haste Bock?
@pytest.mark.parametrize("scale,legal_share", [(0.01, 0.5), (3.0, 0.05), (30.0, 0.3)],
                         ids=["near uniform", "few legal", "peaked"])
def test_fused_terms_and_gradient_equal_autodiffs(actions, scale, legal_share):
    raw, mask, action, weights = masked_batch(actions, 64, actions, scale, legal_share)
    logits = jnp.where(mask, raw, MASKED)
    fused = policy_terms(logits, mask, action, "fused")
    reference = policy_terms(logits, mask, action, "autodiff")
    for got, want in zip(fused, reference):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=2e-5)
    # the entropy of the single-legal row is 0, of the all-legal near-uniform row close to log n
    assert abs(float(fused[1][0])) < 1e-6
    if scale < 0.1:
        assert abs(float(fused[1][1]) - np.log(actions)) < 1e-3
    grad_fused = np.asarray(jax.grad(loss_of("fused", mask, action, weights))(raw))
    grad_autodiff = np.asarray(jax.grad(loss_of("autodiff", mask, action, weights))(raw))
    # both against the exact gradient in float64: the fused one is at least as accurate as autodiff's
    # (with peaked logits p (z - Σ p z) cancels, and both carry float32 errors of ~1e-5 there)
    exact = exact_gradient(raw, mask, action, weights)
    error_fused, error_autodiff = np.abs(grad_fused - exact).max(), np.abs(grad_autodiff - exact).max()
    assert error_fused <= max(2 * error_autodiff, 1e-6), (error_fused, error_autodiff)
    np.testing.assert_allclose(grad_fused, grad_autodiff, rtol=1e-4, atol=1e-6 * (1 + scale))
    assert not np.any(grad_fused[~np.asarray(mask)])  # illegal actions get no gradient
    assert np.abs(grad_fused).max() > 1e-3  # and the legal ones do


def exact_gradient(raw, mask, action, weights) -> np.ndarray:
    """d/d raw of Σ w0 log p[a] + w1 H over the legal actions, in float64 (from the definitions:
    log p[a] = z[a] - logsumexp(z), H = -Σ p log p)."""
    z = np.where(np.asarray(mask), np.asarray(raw, np.float64), -np.inf)
    p = np.exp(z - z.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    log_p = np.where(p > 0, np.log(np.where(p > 0, p, 1.0)), 0.0)
    entropy = -(p * log_p).sum(-1, keepdims=True)
    taken = np.eye(z.shape[1])[np.asarray(action)]
    w = np.asarray(weights, np.float64)
    return w[0][:, None] * (taken - p) - w[1][:, None] * p * (log_p + entropy)


def test_gradient_matches_finite_differences():
    """An independent check of the hand-written gradient (not only against autodiff's): central
    differences in float64 arithmetic of the float32 function, a few coordinates."""
    raw, mask, action, weights = masked_batch(5, 4, 12, 1.0, 0.6)
    loss = loss_of("fused", mask, action, weights)
    grad = np.asarray(jax.grad(loss)(raw))
    step = 1e-2
    for row, col in zip(*np.nonzero(np.asarray(mask))):
        bump = jnp.zeros_like(raw).at[row, col].set(step)
        numeric = (float(loss(raw + bump)) - float(loss(raw - bump))) / (2 * step)
        assert abs(numeric - grad[row, col]) < 2e-3 * max(1.0, abs(numeric)), (row, col)


def test_a_row_with_no_legal_action_stays_finite():
    """A step that is not the learner's (weight 0 in the loss) may hold a game with an empty mask:
    its terms must stay finite so that 0 × term is 0."""
    logits = jnp.full((2, 5), MASKED).at[1].set(jnp.arange(5.0))
    action = jnp.array([0, 3], jnp.int32)
    values = fused_policy_terms(logits, action)
    assert all(np.isfinite(np.asarray(v)).all() for v in values)
    grad = jax.grad(lambda z: (jnp.array([0.0, 1.0]) * sum(fused_policy_terms(z, action))).sum())(logits)
    assert np.isfinite(np.asarray(grad)).all() and not np.asarray(grad)[0].any()


def test_setting_is_checked_recorded_and_on_the_command_line():
    from meadowzoo.training import train_jax

    with pytest.raises(ValueError, match="loss_gradient"):
        jax_config_for("haste_bock", loss_gradient="manual")
    with pytest.raises(ValueError, match="gradient"):
        policy_terms(jnp.zeros((1, 3)), jnp.ones((1, 3), bool), jnp.zeros(1, jnp.int32), "numeric")
    assert jax_config_for("haste_bock").loss_gradient == "fused"
    args = train_jax.parse_args(["--game", "haste_bock", "--loss-gradient", "autodiff"])
    assert train_jax.settings(args).as_dict()["loss_gradient"] == "autodiff"
    assert as_recorded({"hidden": [128, 128]})["loss_gradient"] == "autodiff"  # runs before the setting


def test_the_setting_is_used_and_reproducible():
    env = meadowzoo.jax.make("volle_wolle", num_players=2)
    runs = {}
    for gradient in ("fused", "autodiff"):
        trainer = SelfPlayPPO(env, jax_config_for("volle_wolle", **SMALL, loss_gradient=gradient))
        for _ in range(2 if gradient == "fused" else 1):  # the same seed twice: the same update
            runner, metrics = trainer.update(trainer.setup(0))
            runs.setdefault(gradient, []).append((jax.tree_util.tree_leaves(jax.device_get(runner.params)),
                                                  jax.device_get(metrics)))
    (first, m_first), (again, _) = runs["fused"]
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    other, m_other = runs["autodiff"][0]
    assert any(not np.array_equal(a, b) for a, b in zip(first, other))  # the other gradient is used …
    for a, b in zip(first, other):  # … and it is the same function's: one update apart only by rounding
        np.testing.assert_allclose(a, b, atol=1e-4)
    for name in ("policy_loss", "value_loss", "entropy", "approx_kl"):
        np.testing.assert_allclose(m_first[name], m_other[name], rtol=1e-4, atol=1e-6)


def test_minibatches_are_the_rows_of_one_permutation_of_the_rollout():
    """``_epochs`` gathers each minibatch's rows by itself; the result equals, bit for bit, the
    formulation that permutes the whole rollout and splits it (the trainer's before session 28)."""
    import optax

    trainer = SelfPlayPPO(meadowzoo.jax.make("volle_wolle", num_players=2),
                          jax_config_for("volle_wolle", **SMALL, update_epochs=2))
    cfg, net = trainer.config, trainer.network
    size = trainer.local_envs * cfg.num_steps
    keys = jax.random.split(jax.random.PRNGKey(3), 4)
    observation = jax.random.uniform(keys[0], (size, net.observation_size))
    mask = jax.random.uniform(keys[1], (size, net.num_actions)) < 0.6
    mask = mask.at[:, 0].set(True)
    action = jnp.zeros(size, jnp.int32)
    advantages = jax.random.normal(keys[2], (size,))
    flat = (observation, mask, action, jnp.full(size, -1.0), jnp.zeros(size), advantages, advantages,
            jnp.arange(size) % 5 > 0)
    params = trainer.setup(0).params
    opt_state = trainer.optimizer.init(params)

    def permuted_first(params, opt_state, key):
        per_batch = size // cfg.num_minibatches

        def minibatch(state, batch):
            params, opt_state = state
            grads, losses = jax.grad(trainer._loss, has_aux=True)(params, batch)
            updates, opt_state = trainer.optimizer.update(grads, opt_state, params)
            return (optax.apply_updates(params, updates), opt_state), losses

        def epoch(state, epoch_key):
            order = jax.random.permutation(epoch_key, size)
            batches = jax.tree_util.tree_map(
                lambda x: x[order].reshape((cfg.num_minibatches, per_batch) + x.shape[1:]), flat)
            return jax.lax.scan(minibatch, state, batches)

        return jax.lax.scan(epoch, (params, opt_state), jax.random.split(key, cfg.update_epochs))

    got = jax.jit(lambda p, o, k: trainer._epochs(p, o, flat, k))(params, opt_state, keys[3])
    want = jax.jit(permuted_first)(params, opt_state, keys[3])
    for a, b in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want), strict=True):
        np.testing.assert_array_equal(a, b)
    assert any(not np.array_equal(a, b) for a, b in zip(jax.tree_util.tree_leaves(got[0][0]),
                                                         jax.tree_util.tree_leaves(params)))  # it trained
