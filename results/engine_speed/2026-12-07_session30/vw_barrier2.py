import sys; sys.path.insert(0, __import__('os').path.dirname(__file__))
import jax, jax.numpy as jnp
from ab import bench
import meadowzoo.jax as mjax
from envs.volle_wolle.jax_engine import VolleWolleJax, NEXT, ROLL, FAIL, CPICK
from envs.core.jax_core import when
n = int(sys.argv[1])
def make(fields):
    class V(VolleWolleJax):
        def _resolve(self, t, context, uniforms):
            for stage, function in ((NEXT, self._next_player), (ROLL, self._roll), (FAIL, self._fail), (CPICK, self._continue_pick)):
                t = when(t.op == stage, lambda t, f=function: f(t, context, uniforms), t)
                vals = jax.lax.optimization_barrier(tuple(getattr(t, k) for k in fields))
                t = t.replace(**dict(zip(fields, vals)))
            return t
    return V(num_players=n)
envs = {"base": mjax.make("volle_wolle", num_players=n), "op": make(("op",)), "op_pos_cur": make(("op", "pos", "cur", "attempt", "picks")),
        "op_pos_cur_base": make(("op", "pos", "cur", "attempt", "picks", "base", "target", "bonus", "black_only"))}
bench(envs)
