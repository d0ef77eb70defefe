"""A/B: Volle Wolle observation built in int32 with one conversion at the end; stream_permutation
unrolled; both. Checks the rollouts' final states are equal leaf by leaf."""
import os, sys; sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session30"))
from ab import time_programs, report
import jax, jax.numpy as jnp, numpy as np
import meadowzoo.jax as mjax
from benchmarks.jax_speed import rollout_program
import envs.volle_wolle.jax_engine as E
import envs.core.jax_core as C
from meadowzoo.envs.volle_wolle import env as pz_env

I32 = jnp.int32

class ObsInt(E.VolleWolleJax):
    def _observe(self, state, player_id):
        g = state._x; t = self.t; n = t.n
        pending = g.pending
        rolling = (pending == E.PH_ROLL) | (pending == E.PH_BLACK)
        picking = pending == E.PH_PICK
        kept = (g.kept >> jnp.arange(3)) & 1
        head = jnp.concatenate([
            jax.nn.one_hot(pending, 5, dtype=I32),
            jnp.where(rolling, jax.nn.one_hot(g.attempt - 1, 3, dtype=I32), 0),
            jnp.where(rolling, g.dice, 0),
            jnp.where(rolling, kept, 0),
            jnp.where(rolling, jnp.stack([g.base, g.bonus, g.target]), 0),
            jnp.where(picking, jnp.stack([jnp.minimum(g.picks, jnp.where(g.black_only, g.dkind == E.BLACK, g.display >= 0).sum()),
                                          g.black_only.astype(I32)]), 0),
            jnp.stack([g.supply, g.pile_len, g.round]),
        ]).astype(I32)
        features = jnp.asarray(t.card_features.astype(np.int32))
        slots = jnp.where(g.display >= 0, g.display, E.NUM_CARDS)
        display = jnp.concatenate([features[slots[s]] for s in range(n + 1)])
        rows = jnp.concatenate([self._bid_int(g, player_id), self._card_int(g)], axis=1)
        rows = jnp.roll(rows, -player_id, axis=0).reshape(-1)
        return jnp.concatenate([head, display, g.pile_types, rows]).astype(jnp.float32)

    def _bid_int(self, g, seat):
        n = self.t.n
        players = jnp.arange(n)
        bid = jnp.maximum(g.bids, 0)
        target = jnp.asarray(self.t.targets)[bid]
        is_26 = g.bids == E.BID_26_PLUS
        place = jnp.zeros(n, I32).at[g.order].set(players + 1)
        zero = jnp.zeros(n, I32)
        own = (players == seat) & (g.bids >= 0)
        bidding = jnp.stack([players == g.cur, (players < g.cur) | own, own, jnp.where(own, target, 0),
                             own & is_26, zero], axis=1)
        mover = jnp.where(g.pending == E.PH_OVER, -1, g.cur)
        shown = g.revealed
        after = jnp.stack([players == mover, jnp.broadcast_to(shown, (n,)), jnp.broadcast_to(shown, (n,)),
                           jnp.where(shown, target, 0), shown & is_26, jnp.where(shown, place, 0)], axis=1)
        return jnp.where(g.pending == E.PH_BID, bidding, after).astype(I32)

    def _card_int(self, g):
        t = self.t; n = t.n
        has_top = g.top >= 0
        top = jnp.maximum(g.top, 0)
        counts = [g.counts[:, k] for k in (E.WHITE, E.BLACK, E.K370, E.K007)]
        columns = [
            has_top, jnp.where(has_top, jnp.asarray(t.points)[top], 0),
            jnp.where(has_top, jnp.asarray(t.modifier)[top], 0), has_top & jnp.asarray(t.bone_symbol)[top],
            jnp.where(has_top, jnp.asarray(t.number)[top], g.back), g.back, *counts, g.dog_len,
            g.loc[t.bone_card] == jnp.arange(n), g.wool, self.scores_of(g),
        ]
        return jnp.stack([c.astype(I32) for c in columns], axis=1)

def perm_unrolled(uniforms):
    size = uniforms.shape[0] + 1
    ids = np.arange(size, dtype=np.int32)
    items = jnp.arange(size, dtype=jnp.int32)
    for i in range(size - 1):
        j = i + ((uniforms[i] * (size - i)) >> C.CHANCE_BITS)
        a, b = items[i], items[j]
        items = jnp.where(ids == i, b, jnp.where(ids == j, a, items))
    return items

class Perm(E.VolleWolleJax):
    def _init(self, key):
        old = E.stream_permutation
        E.stream_permutation = perm_unrolled
        try: return super()._init(key)
        finally: E.stream_permutation = old

class Both(ObsInt, Perm):
    pass

n = int(sys.argv[1]); rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 8
batch, unroll = 1024, 32
envs = {"main": E.VolleWolleJax(num_players=n), "both": Both(num_players=n), "obs_int": ObsInt(num_players=n), "perm": Perm(num_players=n), "main2": E.VolleWolleJax(num_players=n)}
runs = {}; ref = None
for k, env in envs.items():
    states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), batch))
    p = rollout_program(env, batch, unroll)
    c = jax.block_until_ready(p(states, jax.random.PRNGKey(1)))
    leaves = jax.tree_util.tree_leaves(c[0])
    if ref is None: ref = leaves
    else: print(k, "same states:", all(bool((a == b).all()) for a, b in zip(ref, leaves)), flush=True)
    runs[k] = [p, c]
#report(*time_programs(runs, batch, unroll, seconds=0.5, rounds=rounds))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__))); from ab2 import time_calls
time_calls(runs, batch, unroll, calls=300)
