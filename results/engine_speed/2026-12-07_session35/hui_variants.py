VARIANTS = {
    "base2": [],
    "get": [('''    hot = _hot(index, array.shape[0])
    if array.dtype == jnp.bool_:
        return jnp.any(hot & array)
    return jnp.sum(jnp.where(hot, array, 0), dtype=array.dtype)''', '''    return array[jnp.clip(index, 0, array.shape[0] - 1)]''')],
    "deck": [('''        at = ((s.top + slots) % NUM_CARDS)[:, None] == jnp.arange(NUM_CARDS, dtype=jnp.int32)
        cards = jnp.sum(jnp.where(at, s.cards[None, :], 0), axis=1)  # the deck from the top''',
              '''        cards = s.cards[(s.top + slots) % NUM_CARDS]  # the deck from the top''')],
    "ordered": [('''        def ordered(values: jax.Array, hot: jax.Array) -> jax.Array:
            return jnp.sum(jnp.where(hot, values[None, :], 0), axis=1, dtype=values.dtype)''',
                 '''        def ordered(values: jax.Array, hot: jax.Array) -> jax.Array:
            return values[runner_order] if hot.shape[1] == r else values[seats]''')],
}
