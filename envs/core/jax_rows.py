"""A ``cond`` that, under ``vmap``, computes its branch only on the rows of the batch that take it.

Under ``jax.vmap`` a ``lax.cond`` whose predicate is batched becomes a select: both branches run on
every row. That is what a batched engine wants for work most games do in a step, and a waste for
work few games need: Hase und Igel's hare-card draw (about a quarter of the games of a random-play
step) or the second pass of its turn loop (a few percent of the games, but ``while_loop`` under
``vmap`` runs as many passes over the whole batch as the slowest game needs).

:func:`rows_cond` ``(pred, fn, operand, share=...)`` is ``fn(operand)`` where ``pred`` and
``operand`` elsewhere. Called on one game (no ``vmap``), it is ``lax.cond``. Under ``vmap`` with a
batched ``pred`` over a batch of ``B`` rows, it counts the rows that take the branch and runs one
of three programs (a ``lax.switch`` on the count, which is the batch's: a real branch):

* none: the operand as it is;
* at most ``k = ceil(share · B)``: those rows gathered into a block of ``k`` (padded with the last
  row, whose results are dropped), ``fn`` run on the block, the results scattered back;
* more: ``fn`` on every row and a select, as ``vmap`` of ``cond`` would.

All three give ``vmap`` of ``cond``'s result exactly (rows are independent under ``vmap``), so
``share`` only decides the speed: the gather and scatter cost about what ``fn`` on a few rows
costs, so pass ``fn`` only the fields it reads and writes (not observations and masks), and choose
``share`` above the share of rows that usually take the branch. Under a second ``vmap`` the count
is batched too and the switch becomes a select of its three programs (still exact, not fast).
Only ``jit`` and ``vmap`` are supported (``custom_vmap`` has no autodiff rule): engine code only.
``fn`` is traced once to a jaxpr whose constants (the tables it reads) are passed in as arguments:
a ``lax.cond`` with a batched predicate around ``rows_cond`` (Pgx's own ``Env.step`` has one)
broadcasts to the batch whatever its branches close over, which ``custom_vmap`` refuses.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import jax
import jax.numpy as jnp
from jax.custom_batching import custom_vmap


def _select_rows(pred: jax.Array, on_true: Any, on_false: Any) -> Any:
    """Per row: ``on_true`` where ``pred`` (shape ``(B,)``), else ``on_false`` (batched trees)."""
    def pick(a, b):
        return jnp.where(pred.reshape(pred.shape + (1,) * (a.ndim - 1)), a, b)

    return jax.tree_util.tree_map(pick, on_true, on_false)


def rows_cond(pred: jax.Array, fn: Callable[[Any], Any], operand: Any, *, share: float) -> Any:
    """``fn(operand)`` where ``pred``, else ``operand``; ``fn`` returns a tree of the operand's
    structure, shapes and dtypes. Under ``vmap``, ``fn`` runs on at most ``ceil(share · batch)``
    gathered rows when no more take it (see the module docstring)."""
    if not 0.0 < share <= 1.0:
        raise ValueError(f"share must be in (0, 1], got {share}")
    leaves, tree = jax.tree_util.tree_flatten(operand)

    def flat_fn(*leaves):
        out, out_tree = jax.tree_util.tree_flatten(fn(jax.tree_util.tree_unflatten(tree, leaves)))
        if out_tree != tree:
            raise ValueError(f"rows_cond: fn must return the operand's structure {tree}, got {out_tree}")
        return out

    # fn as a jaxpr and the constants it reads (its tables), which go in as arguments: a
    # custom_vmap function must not close over arrays, since a batched lax.cond around it (Pgx's
    # own Env.step) broadcasts what its branches close over to the batch
    closed = jax.make_jaxpr(flat_fn)(*leaves)

    def apply(consts, leaves):
        return jax.core.eval_jaxpr(closed.jaxpr, consts, *leaves)

    @custom_vmap
    def branch(pred, consts, leaves):
        return jax.lax.cond(pred, apply, lambda _, x: list(x), consts, leaves)

    @branch.def_vmap
    def batched(axis_size, in_batched, pred, consts, leaves):
        pred_batched, consts_batched, leaves_batched = in_batched
        rows = axis_size
        leaves = [leaf if is_batched else jnp.broadcast_to(leaf, (rows,) + jnp.shape(leaf))
                  for leaf, is_batched in zip(leaves, leaves_batched)]
        const_axes = [0 if is_batched else None for is_batched in consts_batched]
        every_row = jax.vmap(apply, in_axes=(const_axes, 0))
        out_batched = [True] * len(leaves)
        if not pred_batched:  # one predicate for the whole batch
            return jax.lax.cond(pred, every_row, lambda _, x: list(x), consts, leaves), out_batched
        block = max(1, math.ceil(rows * share))
        if block >= rows:
            return _select_rows(pred, every_row(consts, leaves), leaves), out_batched

        def some_rows(consts, leaves):
            # row r that takes the branch goes to slot (number of such rows before r); the other
            # slots name rows past the end, each its own (unique indices), which the scatter drops
            slot = jnp.cumsum(pred, dtype=jnp.int32) - 1
            index = jnp.arange(block, dtype=jnp.int32) + rows
            index = index.at[jnp.where(pred, slot, block)].set(jnp.arange(rows, dtype=jnp.int32), mode="drop")
            safe = jnp.minimum(index, rows - 1)
            taken = [c[safe] if is_batched else c for c, is_batched in zip(consts, consts_batched)]
            out = every_row(taken, [leaf[safe] for leaf in leaves])
            return [leaf.at[index].set(new, mode="drop", unique_indices=True) for leaf, new in zip(leaves, out)]

        def all_rows(consts, leaves):
            return _select_rows(pred, every_row(consts, leaves), leaves)

        count = jnp.sum(pred, dtype=jnp.int32)
        which = jnp.where(count == 0, 0, jnp.where(count <= block, 1, 2))
        return jax.lax.switch(which, [lambda _, x: list(x), some_rows, all_rows], consts, leaves), out_batched

    out = branch(jnp.asarray(pred, jnp.bool_), list(closed.consts), leaves)
    return jax.tree_util.tree_unflatten(tree, out)
