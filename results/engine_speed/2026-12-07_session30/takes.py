import sys; sys.path.insert(0, __import__('os').path.dirname(__file__))
import jax, jax.numpy as jnp, numpy as np
from ab import bench
import meadowzoo.jax as mjax
import envs.volle_wolle.jax_engine as E
from envs.volle_wolle.jax_engine import *
from envs.volle_wolle.jax_engine import _TURN_FIELDS, _NONE, _CARD_IDS
n = int(sys.argv[1])
class OneHot(E.VolleWolleJax):
    def _apply_takes(self, g, t):
        n = self.t.n
        turn_fields = {name: getattr(t, name) for name in _TURN_FIELDS}
        taken = t.taker >= 0
        cards = jnp.maximum(g.display, 0)
        kind = g.dkind
        sheep = taken & (kind >= 0) & (kind <= K007)
        dog = taken & (kind == DOG)
        bone = taken & (kind == BONE)
        players = jnp.arange(n)
        own = t.taker[None, :] == players[:, None]
        earlier = (t.taker[None, :] == t.taker[:, None]) & (t.tseq[None, :] < t.tseq[:, None])
        taker = jnp.maximum(t.taker, 0)
        hpos = jnp.where(dog, g.dog_len[taker] + (earlier & dog[None, :]).sum(1),
                         g.herd_len[taker] + (earlier & sheep[None, :]).sum(1))
        hit = (_CARD_IDS[None, :] == jnp.where(taken, cards, NUM_CARDS)[:, None])  # (S, 60), cards distinct
        moved = hit.any(0)
        loc = jnp.where(moved, jnp.where(hit, t.taker[:, None], 0).sum(0), g.loc)
        new_hpos = jnp.where(moved, jnp.where(hit, hpos[:, None], 0).sum(0), g.hpos)
        held_before = g.loc[self.t.bone_card] >= 0
        bone_seq = jnp.where(bone, t.tseq, 1 << 20).min()
        symbol = sheep & jnp.asarray(self.t.bone_symbol)[cards] & (held_before | (bone_seq < t.tseq))
        event = jnp.where(bone | symbol, t.tseq, -1)
        last = jnp.argmax(event)
        loc = jnp.where(_CARD_IDS == self.t.bone_card, jnp.where(event[last] >= 0, t.taker[last], loc[self.t.bone_card]), loc)
        mine = own & sheep[None, :]
        last_sheep = jnp.argmax(jnp.where(mine, t.tseq[None, :], -1), axis=1)
        top = jnp.where(mine.any(1), cards[last_sheep], g.top)
        kinds = jnp.minimum(kind, K007)
        counts = g.counts + (mine[:, :, None] & (kinds[None, :, None] == jnp.arange(4))).sum(1)
        points = jnp.where(sheep & (kind <= BLACK), jnp.asarray(self.t.points)[cards], 0)
        printed = g.printed + jnp.where(mine, points[None, :], 0).sum(1)
        whites = jnp.where(mine & (kind == WHITE)[None, :], points[None, :], _NONE)
        candidates = jnp.concatenate([g.low1[:, None], g.low2[:, None], whites], axis=1)
        low1 = candidates.min(1)
        first = jnp.argmin(candidates, axis=1)
        low2 = jnp.where(jnp.arange(candidates.shape[1]) == first[:, None], _NONE, candidates).min(1)
        return g.replace(**turn_fields, loc=loc, hpos=new_hpos,
            herd_len=g.herd_len + mine.sum(1), dog_len=g.dog_len + (own & dog[None, :]).sum(1), top=top,
            counts=counts, printed=printed, low1=low1, low2=low2)
bench({"base": mjax.make("volle_wolle", num_players=n), "onehot_takes": OneHot(num_players=n)})
