"""Haste Bock? random play at 512 games: the share of game steps whose action moves sheep (a move or
a panic ram: `_moved`) and that end a turn (`_finish_turn`'s scoring), mean and batch maximum."""
import sys

import jax
import jax.numpy as jnp
import numpy as np

import benchmarks.jax_speed as js
import meadowzoo.jax as mjax
from meadowzoo.envs.haste_bock import jax_tables as T

players = int(sys.argv[1])
env = mjax.make("haste_bock", num_players=players)
r = js.JaxRunner(env, 512, 1, devices=1)
cat = jnp.asarray(T.ACTION_CAT)
moves, turns = [], []
for _ in range(300):
    before = r.states
    key = r.key
    # the benchmark's action for this call: replay its draw
    _, act_key, _ = jax.random.split(key, 3)
    actions = js.uniform_legal(act_key, before.legal_action_mask)
    r.states, r.key = r.run(r.states, r.key)
    live = ~(before.terminated | before.truncated)
    c = cat[actions]
    moving = live & ((c == T.CAT_MOVE) | (c == T.CAT_PANIC))
    moves.append(np.asarray(moving))
    turns.append(np.asarray(live & (r.states.turn != before.turn)))
moves, turns = np.array(moves), np.array(turns)
print(players, "moving share", moves.mean().round(3), "max", moves.sum(1).max(), "| turn ends", turns.mean().round(3), "max", turns.sum(1).max())
