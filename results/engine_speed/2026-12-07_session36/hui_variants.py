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

# the hare deck from the top by four conditional static rotations (a barrel shifter on top's bits)
# instead of a 12 x 12 one-hot sum
VARIANTS["barrel"] = [('''        at = ((s.top + slots) % NUM_CARDS)[:, None] == jnp.arange(NUM_CARDS, dtype=jnp.int32)
        cards = jnp.sum(jnp.where(at, s.cards[None, :], 0), axis=1)  # the deck from the top''',
                       '''        cards, top = s.cards, s.top % NUM_CARDS
        for bit in range(4):
            cards = jnp.where((top >> bit) & 1 == 1, jnp.roll(cards, -(1 << bit)), cards)''')]

# the stuck runner's fall-back (HUI-16 / HUI-17: a give-up action, or a turn without a legal
# action) only on the games that need it
VARIANTS["fallback"] = [('''    def _fallback(self, s: State, runner: jax.Array, do: jax.Array) -> State:
''', '''    def _fallback(self, s: State, runner: jax.Array, do: jax.Array) -> State:
        return self._on_rows(do, lambda s, r: (self._fallback_now(s, r, jnp.bool_(True)),), 1 / 16, s, runner)[0]

    def _fallback_now(self, s: State, runner: jax.Array, do: jax.Array) -> State:
''')]

# ablations of the observation (wrong on purpose; random play does not read it: the same games)
VARIANTS["obs_nocarrots"] = [("            carrots_feature(ordered(s.carrots, by_seat)),",
                              "            ordered(s.carrots, by_seat).astype(jnp.float32),")]
VARIANTS["obs_norace"] = [("        race = jnp.where(placed, place_value, jnp.asarray(self._rank_value)[at_or_behind])",
                           "        race = place_value")]
VARIANTS["obs_noflags"] = [("        runner_flags = jnp.any(by_runner[:, :, None] & flags[None, :, :], axis=1)",
                            "        runner_flags = flags")]
VARIANTS["obs_noorder"] = [('''        def ordered(values: jax.Array, hot: jax.Array) -> jax.Array:
            return jnp.sum(jnp.where(hot, values[None, :], 0), axis=1, dtype=values.dtype)''',
                            '''        def ordered(values: jax.Array, hot: jax.Array) -> jax.Array:
            return values''')]
