"""A/B: Haste Bock?'s _moved with ray squares read from the constant table (not from a per-game ray
array) and the move's result chosen by selects (not a gather from the stacked candidates)."""
import sys, os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session34"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import numpy as np, jax, jax.numpy as jnp
import benchmarks.jax_speed as js
from interleave import compare
from meadowzoo.envs.haste_bock.jax_engine import HasteBockJax, _set
from meadowzoo.envs.haste_bock import jax_tables as T, data as D
players = int(sys.argv[1]); calls = int(sys.argv[2]); which = sys.argv[3].split(",")
RAY_SQ_FLAT = jnp.asarray(T.RAY_SQ.reshape(-1))

def ray_sq(sq, d, i):
    return RAY_SQ_FLAT[(sq * 8 + d) * T.RAY_LEN + jnp.clip(i, 0, T.RAY_LEN - 1)]

class Table(HasteBockJax):
    def _ram(self, pos, rammer, d, k):
        sq = pos[rammer]
        occupied = jnp.sum(jnp.asarray(T.RAY_BITS)[sq * D.SQUARES + pos, d])
        i = jnp.asarray(T.KTH)[occupied * 8 + k - 1]
        on_ray = jnp.asarray(T.RAY_POS)[sq, d][pos]
        j = jax.lax.population_count(occupied & ((2 << jnp.maximum(on_ray, 0)) - 1))
        moving = (on_ray >= 0) & (j <= k)
        base = i + 1 - k
        new = jnp.where(moving, ray_sq(sq, d, base + j), pos)
        return _set(new, rammer, ray_sq(sq, d, base))

    def _leap(self, pos, sheep, d, k):
        sq = pos[sheep]
        occupied = jnp.sum(jnp.asarray(T.RAY_BITS)[sq * D.SQUARES + pos, d])
        i = jnp.asarray(T.KTH)[occupied * 8 + k - 1]
        return _set(pos, sheep, ray_sq(sq, d, jnp.minimum(i + 1, T.RAY_LEN - 1)))

from hb_variant import method_variant

# the engine's _moved with the candidates chosen by selects
Select = method_variant("    def _moved(self", "    # ---- the turn sequence", [(
    """        options = jnp.stack([stepped, rammed, leapt, caravan, caravan, trough, pos, pos])
        return options[jnp.where(t < 0, 7, t)]""",
    """        return jnp.where(t == 0, stepped, jnp.where(t == 1, rammed, jnp.where(t == 2, leapt, jnp.where(
            (t == 3) | (t == 4), caravan, jnp.where(t == 5, trough, pos)))))""")])


class Both(Table, Select):
    pass

classes = {"base": HasteBockJax, "base2": HasteBockJax, "table": Table, "select": Select, "both": Both}
runners = {k: js.JaxRunner(classes[k](num_players=players), 1024, 32, devices=2) for k in ["base"] + which}
compare(runners, calls, "base")
