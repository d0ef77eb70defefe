import sys; sys.path.insert(0, __import__('os').path.dirname(__file__))
import jax, jax.numpy as jnp
from ab import bench
import meadowzoo.jax as mjax
from envs.volle_wolle.jax_engine import VolleWolleJax
n = int(sys.argv[1])
class RollBarrier(VolleWolleJax):
    def _roll(self, t, context, uniforms):
        return jax.lax.optimization_barrier(super()._roll(t, context, uniforms))
class StageBarrier(VolleWolleJax):
    def _resolve(self, t, context, uniforms):
        from envs.core.jax_core import when
        from envs.volle_wolle.jax_engine import NEXT, ROLL, FAIL, CPICK
        for stage, function in ((NEXT, self._next_player), (ROLL, self._roll), (FAIL, self._fail), (CPICK, self._continue_pick)):
            t = when(t.op == stage, lambda t, f=function: jax.lax.optimization_barrier(f(t, context, uniforms)), t)
        return t
envs = {"base": mjax.make("volle_wolle", num_players=n), "roll_barrier": RollBarrier(num_players=n),
        "stage_barrier": StageBarrier(num_players=n)}
bench(envs)
