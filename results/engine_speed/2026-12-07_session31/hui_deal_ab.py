"""A/B: Hase und Igel's init deal (Fisher-Yates of 12 hare cards, a fori_loop at every step under
auto_reset) unrolled, with one-hot reads or with gathers."""
import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__))); import ab2dev
import jax, jax.numpy as jnp, numpy as np
import envs.hase_und_igel.jax_engine as U
from envs.core.jax_core import CHANCE_BITS

def unrolled(read):
    def order(uniforms, size):
        size = int(size)
        slots = np.arange(size, dtype=np.int32)
        items = jnp.arange(size, dtype=jnp.int32)
        for i in range(size - 1):
            j = i + ((uniforms[i] * (size - i)) >> CHANCE_BITS)
            a, b = items[i], read(items, j)
            items = jnp.where(slots == i, b, jnp.where(slots == j, a, items))
        return items
    return order

def variant(order):
    class V(U.HaseUndIgelJax):
        def _init(self, key):
            old = U.reshuffle_order
            U.reshuffle_order = order
            try: return super()._init(key)
            finally: U.reshuffle_order = old
        def init(self, key):
            old = U.reshuffle_order
            U.reshuffle_order = order
            try: return super().init(key)
            finally: U.reshuffle_order = old
    return V

if __name__ == "__main__":
    n = int(sys.argv[1])
    ab2dev.compare({"main": U.HaseUndIgelJax(num_players=n), "unrolled_onehot": variant(unrolled(U._get))(num_players=n),
                    "unrolled_gather": variant(unrolled(lambda x, j: x[j]))(num_players=n),
                    "main2": U.HaseUndIgelJax(num_players=n)}, calls=100)
