"""Volle Wolle with the pile, card places and herd positions stored as int8: the engine's source
with these replacements, loaded as a module, against the engine itself (session 30)."""
import sys, types
sys.path.insert(0, __import__('os').path.dirname(__file__))
from ab import bench
import meadowzoo.jax as mjax
import envs.volle_wolle.jax_engine as engine

REPLACEMENTS = [
    ('_I32 = jnp.int32\n', '_I32 = jnp.int32\n_I8 = jnp.int8\n'),
    ('pile=jnp.arange(NUM_CARDS, dtype=_I32),', 'pile=jnp.arange(NUM_CARDS, dtype=_I8),'),
    ('loc=jnp.full(NUM_CARDS, _IN_PILE, _I32),', 'loc=jnp.full(NUM_CARDS, _IN_PILE, _I8),'),
    ('hpos=jnp.zeros(NUM_CARDS, _I32),', 'hpos=jnp.zeros(NUM_CARDS, _I8),'),
    ('loc = g.loc.at[index].set(t.taker, mode="drop")', 'loc = g.loc.at[index].set(t.taker.astype(_I8), mode="drop")'),
    ("t.taker[last], loc[self.t.bone_card]))", "t.taker[last], loc[self.t.bone_card]).astype(_I8))"),
    ('hpos=g.hpos.at[index].set(hpos, mode="drop"),', 'hpos=g.hpos.at[index].set(hpos.astype(_I8), mode="drop"),'),
    ("drawn = jnp.where(_CARD_IDS == j, pile, 0).sum()", "drawn = jnp.where(_CARD_IDS == j, pile, 0).sum(dtype=_I8)"),
    ("other = jnp.where(_CARD_IDS == i, pile, 0).sum()", "other = jnp.where(_CARD_IDS == i, pile, 0).sum(dtype=_I8)"),
    ("cards.append(jnp.where(dealt, drawn, -1))", "cards.append(jnp.where(dealt, drawn.astype(_I32), -1))"),
]
source = open(engine.__file__).read()
for old, new in REPLACEMENTS:
    assert source.count(old) == 1, old
    source = source.replace(old, new)
int8 = sys.modules["vw_int8"] = types.ModuleType("vw_int8")
exec(compile(source, "vw_int8", "exec"), int8.__dict__)
n = int(sys.argv[1])
bench({"base": mjax.make("volle_wolle", num_players=n), "int8": int8.VolleWolleJax(num_players=n)})
