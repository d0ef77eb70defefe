"""Volle Wolle random play at 512 games: the share of the games' steps that end a round (a new round dealt), mean and batch maximum."""
import sys
import jax, jax.numpy as jnp, numpy as np
import benchmarks.jax_speed as js
import meadowzoo.jax as mjax
players = int(sys.argv[1])
env = mjax.make("volle_wolle", num_players=players)
r = js.JaxRunner(env, 512, 1, devices=1)
c = []
for _ in range(300):
    before = r.states
    r.states, r.key = r.run(r.states, r.key)
    c.append(np.asarray((r.states._x.round != before._x.round) & ~before.terminated))
c = np.array(c)
print(players, "new round share", c.mean().round(4), "max", c.sum(1).max())
