"""A/B: the deal's one-hot sums over 60 cards (XLA CPU rewrites a >32-element reduction into a
reduce-window + reduce, unfused) against a gather and against a sum split into 2x30."""
import sys, os; sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session30"))
from ab import time_programs, report
import jax, jax.numpy as jnp
import meadowzoo.jax as mjax
from benchmarks.jax_speed import rollout_program
import envs.volle_wolle.jax_engine as E

def pick_gather(pile, j):
    return pile[j]

def pick_split(pile, j):
    return jnp.where(E._CARD_IDS == j, pile, 0).reshape(2, 30).sum((0, 1))

def pick_max(pile, j):
    return jnp.where(E._CARD_IDS == j, pile, -1).reshape(2, 30).max(1).max()

def make_variant(pick):
    src = E.VolleWolleJax._start_round
    class V(E.VolleWolleJax):
        def _start_round(self, g):
            n = self.t.n
            _I32 = E._I32
            end = g.replace(pending=_I32(E.PH_OVER), cur=_I32(-1), attempt=_I32(0), picks=_I32(0), can_claim=jnp.bool_(False))
            count = jnp.minimum(n + 1, g.pile_len)
            pile = g.pile
            cards = []
            if pick == "resolved":
                slots = jnp.arange(n + 1)
                ii = jnp.maximum(g.pile_len - 1 - slots, 0)
                dealt_s = slots < count
                u = E.stream_at(g.seed, E._PILE_UNIFORMS + ii)
                jj = jnp.where(g.lazy & dealt_s, (u * (ii + 1)) >> E.CHANCE_BITS, ii)
                orig = pile[jnp.concatenate([ii, jj])]
                writes = []
                for s in range(n + 1):
                    i, j = ii[s], jj[s]
                    o, d = orig[s], orig[n + 1 + s]
                    for (pt, vt) in writes:
                        d = jnp.where(j == pt, vt, d); o = jnp.where(i == pt, vt, o)
                    writes += [(j, o), (i, d)]
                    cards.append(jnp.where(dealt_s[s], d, -1))
                for (pt, vt) in writes:
                    pile = jnp.where(E._CARD_IDS == pt, vt, pile)
            for slot in range(n + 1 if pick != "resolved" else 0):
                i = jnp.maximum(g.pile_len - 1 - slot, 0)
                dealt = slot < count
                u = E.stream_at(g.seed, E._PILE_UNIFORMS + i)
                j = jnp.where(g.lazy & dealt, (u * (i + 1)) >> E.CHANCE_BITS, i)
                drawn = pick(pile, j)
                other = pick(pile, i)
                pile = jnp.where(E._CARD_IDS == i, drawn, jnp.where(E._CARD_IDS == j, other, pile))
                cards.append(jnp.where(dealt, drawn, -1))
            cards = jnp.stack(cards).astype(_I32)
            dealt = cards >= 0
            safe = jnp.maximum(cards, 0)
            loc = jnp.where((E._CARD_IDS[:, None] == jnp.where(dealt, cards, E.NUM_CARDS)[None, :]).any(1), E._IN_DISPLAY, g.loc)
            types = jnp.where(dealt, jnp.asarray(self.t.type_of)[safe], -1)
            dealt_types = (types[:, None] == jnp.arange(self.t.type_total.shape[0])).sum(0)
            fresh = g.replace(
                round=g.round + 1, turns=g.turns + 1, display=cards, dkind=jnp.where(dealt, jnp.asarray(self.t.kind)[safe], -1),
                pile=pile, pile_len=g.pile_len - count, loc=loc, pile_types=g.pile_types - dealt_types,
                bids=jnp.full(n, -1, _I32), revealed=jnp.bool_(False), order=jnp.zeros(n, _I32), pos=_I32(0),
                attempt=_I32(0), kept=_I32(0), dice=jnp.zeros(3, _I32), base=_I32(0), bonus=_I32(0), neg=_I32(0),
                target=_I32(0), can_claim=jnp.bool_(False), picks=_I32(0), black_only=jnp.bool_(False),
                pending=_I32(E.PH_BID), cur=_I32(0))
            return E._select(g.pile_len == 0, end, fresh)
    return V

n = int(sys.argv[1]); batch, unroll = 1024, 32
base = mjax.make("volle_wolle", num_players=n)
envs = {"main": base}
for name, pick in (("gather", pick_gather), ("resolved", "resolved")):
    envs[name] = make_variant(pick)(num_players=n)
# same games? compare a rollout's final states
runs = {}
ref = None
for k, env in envs.items():
    states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), batch))
    p = rollout_program(env, batch, unroll)
    c = jax.block_until_ready(p(states, jax.random.PRNGKey(1)))
    leaves = jax.tree_util.tree_leaves(c[0])
    if ref is None: ref = leaves
    else: print(k, "same states:", all(bool((a == b).all()) for a, b in zip(ref, leaves)))
    runs[k] = [p, c]
report(*time_programs(runs, batch, unroll, seconds=1.0, rounds=int(sys.argv[2]) if len(sys.argv) > 2 else 8))
