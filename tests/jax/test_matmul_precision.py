"""The compiled trainer's bfloat16 matrix products (training/jax_network.py ``matmul_dtype``):
inputs rounded to bfloat16, float32 sums, gradients products of the same kind; parameters, their
initial values and the exported network unchanged; the setting checked, recorded and on the
command line."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("flax")

import jax.numpy as jnp  # noqa: E402

import meadowzoo.jax  # noqa: E402
from meadowzoo.training.jax_config import as_recorded, jax_config_for  # noqa: E402
from meadowzoo.training.jax_network import ActorCritic, bf16_matmul, matmul, row_major_transpose  # noqa: E402
from meadowzoo.training.jax_ppo import SelfPlayPPO  # noqa: E402


def rounded(a) -> np.ndarray:
    """``a`` rounded to bfloat16 and back, as float64 for an exact reference product."""
    return np.asarray(jnp.asarray(a, jnp.float32).astype(jnp.bfloat16).astype(jnp.float32), np.float64)


@pytest.fixture(scope="module")
def operands():
    k = jax.random.split(jax.random.PRNGKey(0), 3)
    x = jax.random.normal(k[0], (48, 70))
    w = jax.random.normal(k[1], (70, 30)) * 0.2
    g = jax.random.normal(k[2], (48, 30))
    return x, w, g


def test_row_major_transpose_is_the_transpose():
    a = jnp.arange(35.0).reshape(5, 7)
    np.testing.assert_array_equal(np.asarray(jax.jit(row_major_transpose)(a)), np.asarray(a).T)


def test_product_rounds_its_inputs_and_sums_in_float32(operands):
    x, w, _ = operands
    ours = np.asarray(jax.jit(bf16_matmul)(x, w))
    assert ours.dtype == np.float32
    np.testing.assert_allclose(ours, rounded(x) @ rounded(w), rtol=1e-5, atol=1e-5)
    exact = np.asarray(x, np.float64) @ np.asarray(w, np.float64)
    error = np.abs(ours - exact).max()
    assert 1e-4 < error < 0.05 * np.abs(exact).max()  # bfloat16's rounding, no more
    np.testing.assert_array_equal(np.asarray(matmul(x, w, "float32")), np.asarray(x @ w))


def test_gradients_are_products_of_the_rounded_values(operands):
    """d/dx = g·wᵀ and d/dw = xᵀ·g, each from bfloat16-rounded factors with float32 sums."""
    x, w, g = operands
    grad_x, grad_w = jax.jit(jax.grad(lambda x, w: (bf16_matmul(x, w) * g).sum(), argnums=(0, 1)))(x, w)
    np.testing.assert_allclose(np.asarray(grad_x), rounded(g) @ rounded(w).T, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(grad_w), rounded(x).T @ rounded(g), rtol=1e-5, atol=1e-4)
    float_x, float_w = jax.grad(lambda x, w: ((x @ w) * g).sum(), argnums=(0, 1))(x, w)
    np.testing.assert_allclose(np.asarray(grad_w), np.asarray(float_w), rtol=0.05, atol=0.05)
    assert not np.array_equal(np.asarray(grad_x), np.asarray(float_x))


def test_batched_and_vmapped_inputs_give_the_rows_products(operands):
    x, w, _ = operands
    flat = np.asarray(bf16_matmul(x, w))
    np.testing.assert_array_equal(np.asarray(bf16_matmul(x.reshape(6, 8, 70), w)), flat.reshape(6, 8, 30))
    slots = jnp.stack([w, 2 * w])  # one weight matrix per population slot, as the opponents' pass
    both = jax.vmap(bf16_matmul, in_axes=(None, 0))(x, slots)
    np.testing.assert_array_equal(np.asarray(both[0]), flat)
    np.testing.assert_allclose(np.asarray(both[1]), 2 * flat, rtol=1e-6)
    grads = jax.vmap(jax.grad(lambda w: bf16_matmul(x, w).sum()))(slots)
    np.testing.assert_allclose(np.asarray(grads[0]), np.asarray(grads[1]), rtol=1e-6)


@pytest.mark.parametrize("conv", [(), (4,)])
def test_the_precision_changes_products_not_parameters(conv):
    env = meadowzoo.jax.make("haste_bock", num_players=2)
    size, actions = int(env.observation_shape[0]), int(env.num_actions)
    nets = {dtype: ActorCritic(size, actions, (32, 32), "tanh", conv, env.board_shape, dtype)
            for dtype in ("float32", "bfloat16")}
    params = {dtype: net.init(jax.random.PRNGKey(3)) for dtype, net in nets.items()}
    for a, b in zip(jax.tree_util.tree_leaves(params["float32"]), jax.tree_util.tree_leaves(params["bfloat16"])):
        assert a.dtype == b.dtype == jnp.float32
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    state = jax.jit(env.init)(jax.random.PRNGKey(0))
    observation, mask = state.observation[None], state.legal_action_mask[None]
    p = params["float32"]
    single, half = (np.asarray(nets[d].logits(p["actor"], observation, mask)) for d in ("float32", "bfloat16"))
    legal = np.asarray(mask)
    assert not np.array_equal(single[legal], half[legal])
    np.testing.assert_allclose(half[legal], single[legal], atol=0.02)
    np.testing.assert_allclose(np.asarray(nets["bfloat16"].value(p["critic"], observation)),
                               np.asarray(nets["float32"].value(p["critic"], observation)), atol=0.05)


def test_auto_is_bfloat16_where_the_cpu_has_bfloat16_matrix_instructions(tmp_path):
    from meadowzoo.training import jax_config

    cpuinfo = tmp_path / "cpuinfo"
    for flags, expected in (("fpu avx2 avx512f amx_bf16 amx_tile", True), ("fpu avx512f avx512_bf16", True),
                            ("fpu sse avx2 avx512f", False)):
        cpuinfo.write_text(f"processor\t: 0\nflags\t\t: {flags}\n\nprocessor\t: 1\nflags\t\t: {flags}\n")
        assert jax_config.cpu_has_bfloat16_units(str(cpuinfo)) is expected
    assert jax_config.cpu_has_bfloat16_units(str(tmp_path / "absent")) is False  # off Linux: float32
    expected = "bfloat16" if jax_config.cpu_has_bfloat16_units() else "float32"
    assert jax_config.resolve_matmul_dtype("auto") == expected
    assert jax_config.resolve_matmul_dtype("float32") == "float32"
    # a config holds the resolved precision: what a run records is what it computed with
    assert jax_config_for("haste_bock").matmul_dtype == expected
    assert jax_config_for("haste_bock", matmul_dtype="auto").as_dict()["matmul_dtype"] == expected


def test_setting_is_checked_recorded_and_on_the_command_line():
    from meadowzoo.training import train_jax

    with pytest.raises(ValueError, match="matmul_dtype"):
        jax_config_for("haste_bock", matmul_dtype="float16")
    with pytest.raises(ValueError, match="matmul_dtype"):
        ActorCritic(10, 3, (4,), "tanh", matmul_dtype="int8")
    args = train_jax.parse_args(["--game", "haste_bock", "--matmul-dtype", "bfloat16"])
    assert train_jax.settings(args).matmul_dtype == "bfloat16"
    assert train_jax.settings(args).as_dict()["matmul_dtype"] == "bfloat16"
    assert as_recorded({"hidden": [128, 128]})["matmul_dtype"] == "float32"  # runs before the setting


def test_a_bfloat16_trainer_learns_reproducibly():
    small = dict(num_envs=16, num_steps=16, num_minibatches=2, opponent_slots=4, population=4)
    env = meadowzoo.jax.make("volle_wolle", num_players=2)
    runs = {}
    for dtype in ("bfloat16", "bfloat16", "float32"):
        trainer = SelfPlayPPO(env, jax_config_for("volle_wolle", **small, matmul_dtype=dtype))
        runner, metrics = trainer.update(trainer.setup(0))
        for name in ("policy_loss", "value_loss", "entropy"):
            assert np.isfinite(float(metrics[name]))
        runs.setdefault(dtype, []).append(jax.tree_util.tree_leaves(jax.device_get(runner.params)))
    first, again = runs["bfloat16"]
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    assert any(not np.array_equal(a, b) for a, b in zip(first, runs["float32"][0]))
