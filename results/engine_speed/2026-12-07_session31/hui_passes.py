"""How many passes Hase und Igel's turn loop runs per batch step (the slowest game's) against what
each game needs, in random play at batch 1024 (a jax.debug.callback reports every game's count)."""
import sys, collections
import numpy as np, jax, jax.numpy as jnp
import envs.hase_und_igel.jax_engine as U
from benchmarks.jax_speed import rollout_program

records = []
def record(count):
    records.append(np.asarray(count))

class Counted(U.HaseUndIgelJax):
    def _begin_turn(self, s, pending):
        body = self._one_runner_turn if self.rpp == 1 else self._two_runner_turn
        def step(carry):
            s, pending, k = carry
            s, pending = body(s, pending)
            return s, pending, k + 1
        s, _, k = jax.lax.while_loop(lambda c: c[1], step, (s, pending, jnp.int32(0)))
        jax.debug.callback(record, k)
        return s

n = int(sys.argv[1]); batch = 1024
env = Counted(num_players=n)
states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), batch))
run = rollout_program(env, batch, 10)
carry = (states, jax.random.PRNGKey(1))
for _ in range(20):
    carry = jax.block_until_ready(run(*carry))
print(len(records), set(r.shape for r in records))
counts = np.array([int(r) for r in records]).reshape(-1, batch)
print("calls recorded", len(records), "batch-sized", counts.shape)
print("per game mean passes", counts.mean().round(3), "distribution", dict(sorted(collections.Counter(counts.reshape(-1).tolist()).items())))
print("batch max per call: mean", counts.max(1).mean().round(2), "distribution", dict(sorted(collections.Counter(counts.max(1).tolist()).items())))
