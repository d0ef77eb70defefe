"""rows_cond: a cond that under vmap runs its branch on the rows that take it, exactly as vmap of cond."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

pytest.importorskip("pgx")

from meadowzoo.envs.core.jax_rows import rows_cond  # noqa: E402


def branch(operand):
    """A row-wise function with a loop whose trip count depends on the row (as the turn loop's)."""
    values, count, flag = operand

    def more(carry):
        return carry[1] < carry[0][0] % 5

    def once(carry):
        v, k = carry
        return v * 3 + k, k + 1

    values, steps = jax.lax.while_loop(more, once, (values, jnp.int32(0)))
    return values, count + steps, ~flag


def expected(pred, operand):
    """vmap of lax.cond, computed row by row on the host."""
    rows = []
    for i in range(pred.shape[0]):
        row = jax.tree_util.tree_map(lambda leaf: leaf[i], operand)
        rows.append(branch(row) if bool(pred[i]) else row)
    return jax.tree_util.tree_map(lambda *leaves: np.stack([np.asarray(x) for x in leaves]), *rows)


def batch(rows, seed):
    rng = np.random.default_rng(seed)
    values = jnp.asarray(rng.integers(0, 100, size=(rows, 3)), jnp.int32)
    count = jnp.asarray(rng.integers(0, 9, size=rows), jnp.int32)
    flag = jnp.asarray(rng.random(rows) < 0.5)
    return values, count, flag


@pytest.mark.parametrize("taking", [0, 1, 4, 5, 31, 32])
def test_vmapped_rows_cond_equals_vmap_of_cond_for_every_count(taking):
    """32 rows, share 1/8 (a block of 4): no row, a few (gathered), more than the block (select)."""
    operand = batch(32, seed=taking)
    pred = np.zeros(32, bool)
    pred[np.random.default_rng(taking).permutation(32)[:taking]] = True
    run = jax.jit(jax.vmap(lambda p, x: rows_cond(p, branch, x, share=1 / 8)))
    got = run(jnp.asarray(pred), operand)
    reference = jax.jit(jax.vmap(lambda p, x: jax.lax.cond(p, branch, lambda y: y, x)))(jnp.asarray(pred), operand)
    for a, b, c in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(reference),
                       jax.tree_util.tree_leaves(expected(pred, operand))):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
        np.testing.assert_array_equal(np.asarray(a), c)


def test_unbatched_rows_cond_is_cond():
    operand = jax.tree_util.tree_map(lambda leaf: leaf[0], batch(1, seed=3))
    for pred in (True, False):
        got = jax.jit(lambda x, p=pred: rows_cond(p, branch, x, share=0.5))(operand)
        want = branch(operand) if pred else operand
        for a, b in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)):
            np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


def test_unbatched_leaves_and_an_unbatched_predicate_are_broadcast():
    """A leaf the vmap does not batch (a constant) comes out batched; a predicate the vmap does
    not batch decides for the whole batch."""
    values, count, flag = batch(8, seed=5)
    pred = jnp.arange(8) % 3 == 0
    got = jax.vmap(lambda p, v, c: rows_cond(p, branch, (v, c, jnp.bool_(True)), share=0.25))(pred, values, count)
    want = expected(np.asarray(pred), (values, count, jnp.ones(8, bool)))
    for a, b in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)):
        np.testing.assert_array_equal(np.asarray(a), b)
    for whole in (True, False):
        got = jax.vmap(lambda v, c, f, p=whole: rows_cond(p, branch, (v, c, f), share=0.25))(values, count, flag)
        want = expected(np.full(8, whole), (values, count, flag))
        for a, b in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)):
            np.testing.assert_array_equal(np.asarray(a), b)


def test_vmap_of_vmap_is_still_exact():
    operand = jax.tree_util.tree_map(lambda leaf: leaf.reshape((4, 8) + leaf.shape[1:]), batch(32, seed=7))
    pred = (jnp.arange(32) % 5 == 1).reshape(4, 8)
    run = jax.jit(jax.vmap(jax.vmap(lambda p, x: rows_cond(p, branch, x, share=0.25))))
    got = run(pred, operand)
    flat = jax.tree_util.tree_map(lambda leaf: leaf.reshape((32,) + leaf.shape[2:]), operand)
    want = expected(np.asarray(pred).reshape(32), flat)
    for a, b in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)):
        np.testing.assert_array_equal(np.asarray(a).reshape(b.shape), b)


@pytest.mark.parametrize("share", [0.0, -0.5, 1.5])
def test_a_share_outside_0_1_is_refused(share):
    with pytest.raises(ValueError, match="share must be in"):
        rows_cond(True, branch, batch(1, seed=0), share=share)


TABLE = np.array([3, 1, 4, 1, 5, 9, 2, 6], np.int32)  # a constant the branch reads (a jaxpr constant)


def lookup(operand):
    values, count, flag = operand
    return values + jnp.asarray(TABLE)[values % 8], count + 1, flag


def test_inside_a_batched_cond_as_pgx_steps():
    """Pgx's own ``Env.step`` wraps the engine's step in a ``lax.cond`` on ``terminated``: under
    ``vmap`` that cond broadcasts to the batch whatever its branches close over, the constant
    tables of ``fn`` too; ``rows_cond`` takes them as arguments, so this runs and stays exact."""
    operand = batch(16, seed=9)
    outer = jnp.arange(16) % 3 != 0
    inner = jnp.arange(16) % 4 == 1

    def step(o, p, x):
        return jax.lax.cond(o, lambda: rows_cond(p, lookup, x, share=1 / 4), lambda: x)

    got = jax.jit(jax.vmap(step))(outer, inner, operand)
    for row in range(16):
        x = jax.tree_util.tree_map(lambda leaf: leaf[row], operand)
        want = lookup(x) if bool(outer[row]) and bool(inner[row]) else x
        for a, b in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)):
            np.testing.assert_array_equal(np.asarray(a)[row], np.asarray(b))


def test_a_branch_of_another_structure_is_refused():
    with pytest.raises(ValueError, match="operand's structure"):
        rows_cond(True, lambda x: x[:2], batch(1, seed=0), share=0.5)
