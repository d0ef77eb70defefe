"""Text replacements of the Hase und Igel engine for ab_hui_src.py (session 36)."""
GET_OLD = '''    hot = _hot(index, array.shape[0])
    if array.dtype == jnp.bool_:
        return jnp.any(hot & array)
    return jnp.sum(jnp.where(hot, array, 0), dtype=array.dtype)'''
GET_NEW = '''    out = jnp.zeros((), array.dtype)
    for i in range(array.shape[0]):
        out = jnp.where(index == i, array[i], out)
    return out'''
VARIANTS = {
    "base2": [],
    "get": [(GET_OLD, GET_NEW)],
}

LOOP_OLD = '''        def go_on(carry):
            return carry[1]

        s, _ = jax.lax.while_loop(go_on, lambda carry: body(*carry), (s, pending))
        return s'''


def min_iterations(k):
    """the turn loop runs at least k passes over the batch (the extra ones change nothing): same games"""
    return [(LOOP_OLD, f'''        def go_on(carry):
            return carry[1] | (carry[2] < {k})

        def once(carry):
            s, p, n = carry
            s, p = body(s, p)
            return s, p, n + 1

        s, _, _ = jax.lax.while_loop(go_on, once, (s, pending, jnp.int32(0)))
        return s''')]


VARIANTS["min3"] = min_iterations(3)
VARIANTS["min4"] = min_iterations(4)
VARIANTS["min6"] = min_iterations(6)
