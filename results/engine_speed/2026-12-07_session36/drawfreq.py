"""Hase und Igel random play at 512 games: the share of the games' steps that draw a hare card (state.top moved), mean and batch maximum."""
import sys
import meadowzoo.jax as mjax
import jax, jax.numpy as jnp, numpy as np
import benchmarks.jax_speed as js
players = int(sys.argv[1])
env = mjax.make("hase_und_igel", num_players=players)
r = js.JaxRunner(env, 512, 1, devices=1)
fr = []; full = []
for i in range(300):
    before = r.states
    r.states, r.key = r.run(r.states, r.key)
    drew = np.asarray((r.states.top != before.top) & ~before.terminated)
    fr.append(drew.mean()); full.append(drew.sum())
print("players", players, "draw share mean", np.mean(fr), "max count of 512", np.max(full), "p99", np.percentile(full, 99))
