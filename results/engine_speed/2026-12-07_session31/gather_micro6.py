exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "gather_micro5.py")).read().split("for batch in")[0])
vec = jnp.arange(61, dtype=jnp.int32) * 3
for slots in (2, 3, 4, 5, 6, 9):
    bench(lambda i: vec[i], slots, "scalar index")
    bench(lambda i: jnp.stack([vec[i[s]] for s in range(i.shape[0])]), slots, "scalar per slot")
    bench(lambda i: jnp.where(i[:, None] == jnp.arange(61), vec, 0).sum(1), slots, "scalar onehot")
