"""A/B: Haste Bock?'s _ray_bits by pair arithmetic against pair-table gathers (on top of the jump table)."""
import sys, os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session34"))
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import numpy as np, jax, jax.numpy as jnp
import benchmarks.jax_speed as js
from interleave import compare
from meadowzoo.envs.haste_bock.jax_engine import HasteBockJax
from meadowzoo.envs.haste_bock import jax_tables as T, data as D
players = int(sys.argv[1]); calls = int(sys.argv[2]); which = sys.argv[3].split(",")

class Table2(HasteBockJax):
    @staticmethod
    def _jumps(pos, bits):
        return jnp.asarray(T.JUMP_TABLE)[jnp.asarray(T.RAY_LENGTH256)[pos] + bits]

# the pair words of the current arithmetic, for every (sheep square, other square) incl. OFF = 81
SQ = 82
a = np.arange(SQ)[:, None]; b = np.arange(SQ)[None, :]
ra, ca, rb, cb = a // D.SIZE, a % D.SIZE, b // D.SIZE, b % D.SIZE
dr, dc = rb - ra, cb - ca
dist = np.maximum(abs(dr), abs(dc))
on = ((dr == 0) | (dc == 0) | (abs(dr) == abs(dc))) & (dist > 0)
d = np.where(dr < 0, np.where(dc < 0, 7, np.where(dc == 0, 0, 1)),
             np.where(dr == 0, np.where(dc > 0, 2, 6), np.where(dc > 0, 3, np.where(dc == 0, 4, 5))))
bit = (np.uint64(1) << (8 * (d % 4) + np.maximum(dist - 1, 0)).astype(np.uint64)).astype(np.uint32)
W = [np.where(on & (d // 4 == h), bit, 0).astype(np.uint32).reshape(-1) for h in (0, 1)]
# one int32 per pair: the bit's index 0..63, or 64 for none
IDX = np.where(on, 32 * (d // 4) + 8 * (d % 4) + np.maximum(dist - 1, 0), 64).astype(np.int32).reshape(-1)

def cut(words):
    shifts = jnp.asarray(np.array([0, 8, 16, 24], np.uint32))
    return jnp.concatenate([(word[:, None] >> shifts) & 0xFF for word in words], axis=1).astype(jnp.int32)

class Pair(Table2):
    @staticmethod
    def _ray_bits(pos):
        idx = pos[:, None] * SQ + pos[None, :]
        return cut([jnp.asarray(w)[idx].sum(1, dtype=jnp.uint32) for w in W])

class PairIdx(Table2):
    @staticmethod
    def _ray_bits(pos):
        k = jnp.asarray(IDX)[pos[:, None] * SQ + pos[None, :]]  # (9, 9)
        one = jnp.uint32(1)
        w0 = jnp.where(k < 32, jnp.left_shift(one, (k & 31).astype(jnp.uint32)), 0).sum(1, dtype=jnp.uint32)
        w1 = jnp.where((k >= 32) & (k < 64), jnp.left_shift(one, (k & 31).astype(jnp.uint32)), 0).sum(1, dtype=jnp.uint32)
        return cut([w0, w1])

classes = {"base": HasteBockJax, "t2": Table2, "t2b": Table2, "pair": Pair, "pairidx": PairIdx}
rng = np.random.default_rng(0)
flocks = jnp.asarray(np.stack([rng.choice(82, 9, replace=False) for _ in range(4000)]).astype(np.int32))
ref = jax.jit(jax.vmap(HasteBockJax._ray_bits))(flocks)
for k in which:
    if k in ("pair", "pairidx"):
        got = jax.jit(jax.vmap(classes[k]._ray_bits))(flocks)
        print(k, "equal on 4000 flocks:", bool((got == ref).all()))
runners = {k: js.JaxRunner(classes[k](num_players=players), 1024, 32, devices=2) for k in ["t2"] + which}
compare(runners, calls, "t2")
