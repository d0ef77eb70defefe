"""A/B: Haste Bock?'s _jumps as the bit-rank loop of sessions 31-34 (``RankLoop``, the base) against table
lookups (``table2`` is what the engine does since session 35); same games required.

    PYTHONPATH=. .venv/bin/python results/engine_speed/2026-12-07_session35/ab_jumps.py PLAYERS CALLS base2,table,table2,pext,incr
"""
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

def lengths(pos):
    row, col = (pos // D.SIZE)[:, None], (pos % D.SIZE)[:, None]
    dir_r, dir_c = jnp.asarray(T.DIR_R), jnp.asarray(T.DIR_C)
    room_r = jnp.where(dir_r > 0, D.SIZE - 1 - row, jnp.where(dir_r < 0, row, D.SIZE))
    room_c = jnp.where(dir_c > 0, D.SIZE - 1 - col, jnp.where(dir_c < 0, col, D.SIZE))
    return jnp.minimum(room_r, room_c)

class RankLoop(HasteBockJax):
    """the engine's _jumps before session 35"""
    @staticmethod
    def _jumps(pos, bits):
        length = lengths(pos)
        behind_free = bits & ~(bits >> 1) & ((jnp.left_shift(1, length) >> 1) - 1)
        out = jnp.zeros_like(bits)
        for i in range(T.RAY_LEN):
            rank = jax.lax.population_count(bits & ((1 << i) - 1))
            out = out | jnp.left_shift((behind_free >> i) & 1, rank)
        return out

class Table(HasteBockJax):
    @staticmethod
    def _jumps(pos, bits):
        return jnp.asarray(T.JUMP_TABLE)[lengths(pos) * 256 + bits]

class Table2(HasteBockJax):
    """table by the square's ray lengths (RAY_LENGTH256) instead of arithmetic"""
    @staticmethod
    def _jumps(pos, bits):
        return jnp.asarray(T.JUMP_TABLE)[jnp.asarray(T.RAY_LENGTH256)[pos] + bits]

PEXT = np.zeros(256 * 256, np.int32)
for b in range(256):
    for f in range(256):
        if f & ~b: continue
        out, r = 0, 0
        for i in range(8):
            if b >> i & 1:
                out |= (f >> i & 1) << r; r += 1
        PEXT[b * 256 + f] = out

class Pext(HasteBockJax):
    @staticmethod
    def _jumps(pos, bits):
        bf = bits & ~(bits >> 1) & ((jnp.left_shift(1, lengths(pos)) >> 1) - 1)
        return jnp.asarray(PEXT)[bits * 256 + bf]

class Incr(HasteBockJax):
    @staticmethod
    def _jumps(pos, bits):
        bf = bits & ~(bits >> 1) & ((jnp.left_shift(1, lengths(pos)) >> 1) - 1)
        out = jnp.zeros_like(bits); c = jnp.zeros_like(bits)
        for i in range(T.RAY_LEN):
            out = out | jnp.left_shift((bf >> i) & 1, c)
            c = c + ((bits >> i) & 1)
        return out

classes = {"base": RankLoop, "base2": RankLoop, "table": Table, "table2": Table2, "pext": Pext, "incr": Incr}
# equality on random flocks first
rng = np.random.default_rng(0)
flocks = jnp.asarray(np.stack([rng.choice(81, 9, replace=False) for _ in range(4000)]).astype(np.int32))
ref = jax.jit(jax.vmap(lambda p: RankLoop._jumps(p, RankLoop._ray_bits(p))))(flocks)
for k in which:
    if k.startswith("base"): continue
    got = jax.jit(jax.vmap(lambda p, c=classes[k]: c._jumps(p, c._ray_bits(p))))(flocks)
    print(k, "equal on 4000 flocks:", bool((got == ref).all()))
runners = {k: js.JaxRunner(classes[k](num_players=players), 1024, 32, devices=2) for k in ["base"] + which}
compare(runners, calls, "base")
