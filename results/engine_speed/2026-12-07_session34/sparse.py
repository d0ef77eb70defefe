"""Scratch: a cond that, under vmap, runs its branch only on the rows that take it."""
import math
import jax
import jax.numpy as jnp
from jax.custom_batching import custom_vmap


def _select(pred, a, b):
    return jax.tree_util.tree_map(lambda x, y: jnp.where(pred.reshape(pred.shape + (1,) * (x.ndim - 1)), x, y), a, b)


def sparse_when(pred, fn, state, *args, share=1 / 16):
    @custom_vmap
    def f(pred, state, args):
        return jax.lax.cond(pred, lambda s, a: fn(s, *a), lambda s, a: s, state, args)

    @f.def_vmap
    def rule(axis_size, in_batched, pred, state, args):
        b = axis_size
        pred_b, state_b, args_b = in_batched
        bcast = lambda tree, flags: jax.tree_util.tree_map(
            lambda x, fl: x if fl else jnp.broadcast_to(x, (b,) + jnp.shape(x)), tree, flags)
        state = bcast(state, state_b)
        args = bcast(args, args_b)
        batched_fn = jax.vmap(lambda s, a: fn(s, *a))
        out_flags = jax.tree_util.tree_map(lambda _: True, state)
        if not pred_b:
            return jax.lax.cond(pred, batched_fn, lambda s, a: s, state, args), out_flags
        k = max(1, math.ceil(b * share))
        count = pred.sum(dtype=jnp.int32)

        def few(state, args):
            pos = jnp.cumsum(pred, dtype=jnp.int32) - 1
            idx = jnp.full((k,), b, jnp.int32).at[jnp.where(pred, pos, k)].set(jnp.arange(b, dtype=jnp.int32), mode="drop")
            safe = jnp.minimum(idx, b - 1)
            take = lambda tree: jax.tree_util.tree_map(lambda x: x[safe], tree)
            out = batched_fn(take(state), take(args))
            return jax.tree_util.tree_map(lambda x, o: x.at[idx].set(o, mode="drop"), state, out)

        def every(state, args):
            return _select(pred, batched_fn(state, args), state)

        branch = jnp.where(count == 0, 0, jnp.where(count <= k, 1, 2))
        return jax.lax.switch(branch, [lambda s, a: s, few, every], state, args), out_flags

    return f(pred, state, args)


def auto_reset(step_fn, init_fn, share=1 / 16):
    """pgx.experimental.auto_reset with both conds as sparse_when."""
    def wrapped(state, action, key):
        key1, key2 = jax.random.split(key)
        over = state.terminated | state.truncated
        state = sparse_when(over, lambda s: s.replace(terminated=jnp.bool_(False), truncated=jnp.bool_(False),
                                                       rewards=jnp.zeros_like(s.rewards)), state, share=share)
        state = step_fn(state, action, key1)
        over = state.terminated | state.truncated
        state = sparse_when(over, lambda s, k: init_fn(k).replace(terminated=s.terminated, truncated=s.truncated,
                                                                  rewards=s.rewards), state, key2, share=share)
        return state
    return wrapped


def auto_reset_k(step_fn, init_fn, share=1 / 32):
    """Batch-level auto reset (call on a batch, not under vmap): init only for up to K finished games, scattered in;
    a cond falls back to a full select when more finished."""
    def wrapped(state, action, keys):  # batched
        b = action.shape[0]
        k = max(1, math.ceil(b * share))
        sub = jax.vmap(jax.random.split)(keys)
        key1, key2 = sub[:, 0], sub[:, 1]
        over = state.terminated | state.truncated
        z = jnp.zeros_like
        state = state.replace(terminated=state.terminated & ~over, truncated=state.truncated & ~over,
                              rewards=jnp.where(over[:, None], z(state.rewards), state.rewards))
        state = jax.vmap(step_fn)(state, action, key1)
        over = state.terminated | state.truncated
        count = over.sum(dtype=jnp.int32)
        pos = jnp.cumsum(over, dtype=jnp.int32) - 1
        idx = jnp.full((k,), b, jnp.int32).at[jnp.where(over, pos, k)].set(jnp.arange(b, dtype=jnp.int32), mode="drop")
        safe = jnp.minimum(idx, b - 1)
        fresh = jax.vmap(init_fn)(key2[safe])
        fresh = fresh.replace(terminated=state.terminated[safe], truncated=state.truncated[safe], rewards=state.rewards[safe])
        out = jax.tree_util.tree_map(lambda x, f: x.at[idx].set(f, mode="drop"), state, fresh)

        def full(_):
            f = jax.vmap(init_fn)(key2).replace(terminated=state.terminated, truncated=state.truncated, rewards=state.rewards)
            return _select(over, f, state)
        return jax.lax.cond(count > k, full, lambda o: o, out)
    return wrapped
