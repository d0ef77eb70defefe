import sys, os; sys.path.insert(0, os.path.dirname(__file__))
import jax, jax.numpy as jnp
import meadowzoo.jax as mjax
from benchmarks.jax_speed import rollout_program
from ab import time_programs, report
game, n = sys.argv[1], int(sys.argv[2])
env = mjax.make(game, num_players=n)
batch, unroll = 1024, 32
from pgx.experimental import auto_reset
const = env.init(jax.random.PRNGKey(5))
def ar_const(state, action, key):
    st = env.step(state, action, key)
    return jax.tree_util.tree_map(lambda a, b: jnp.where(st.terminated, a, b), const, st)
def ar_initonly(state, action, key):
    # cost of init + select, without step
    return jax.tree_util.tree_map(lambda a, b: jnp.where(state.terminated, a, b), env.init(key), state)
variants = {"auto_reset": auto_reset(env.step, env.init), "const_reset": ar_const, "init_select_only": ar_initonly}
states0 = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), batch))
runs = {}
for k, f in variants.items():
    p = rollout_program(env, batch, unroll, step=f)
    runs[k] = [p, jax.block_until_ready(p(states0, jax.random.PRNGKey(1)))]
report(*time_programs(runs, batch, unroll, seconds=2, rounds=3))
