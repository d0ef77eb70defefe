"""Hase und Igel random play at 512 games: passes of the turn loop (as it was before session 36: one while_loop) each game needed in a step, and the batch maximum, which vmap runs."""
import sys
import meadowzoo.jax as mjax
import jax, jax.numpy as jnp, numpy as np
import benchmarks.jax_speed as js
players = int(sys.argv[1])
env = mjax.make("hase_und_igel", num_players=players)
cls = type(env)
class Count(cls):
    def _begin_turn(self, s, pending):
        body = self._one_runner_turn if self.rpp == 1 else self._two_runner_turn
        def step(c):
            s, p, n = c
            s, p2 = body(s, p)
            return s, p2, n + p.astype(jnp.int32)
        s, _, n = jax.lax.while_loop(lambda c: c[1], step, (s, pending, jnp.int32(0)))
        return s.replace(_step_count=n)
env.__class__ = Count
r = js.JaxRunner(env, 512, 1, devices=1)
hist = np.zeros(10); maxes = []
for i in range(300):
    r.states, r.key = r.run(r.states, r.key)
    n = np.asarray(r.states._step_count)
    n = n[n < 10]
    hist += np.bincount(n, minlength=10)[:10]; maxes.append(n.max())
print(players, "share:", " ".join(f"{x:.4f}" for x in hist[:6] / hist.sum()), "batch max mean", np.mean(maxes), np.bincount(maxes))
