"""The resolve pass's stage order: the engine's (ROLL, FAIL, CPICK, NEXT, since session 30) against
the earlier NEXT, ROLL, FAIL, CPICK. The same stages run for every game; the batch needs two loop
iterations a step instead of three (``passes_order.py``)."""
import sys, os; sys.path.insert(0, os.path.dirname(__file__))
from ab import bench
import meadowzoo.jax as mjax
from envs.core.jax_core import when
from envs.volle_wolle.jax_engine import VolleWolleJax, NEXT, ROLL, FAIL, CPICK


class NextFirst(VolleWolleJax):
    def _resolve(self, t, context, uniforms):
        for stage, function in ((NEXT, self._next_player), (ROLL, self._roll), (FAIL, self._fail),
                                (CPICK, self._continue_pick)):
            t = when(t.op == stage, lambda t, f=function: f(t, context, uniforms), t)
        return t


if __name__ == "__main__":
    n = int(sys.argv[1])
    bench({"next_first (before)": NextFirst(num_players=n), "roll_first (engine)": mjax.make("volle_wolle", num_players=n)},
          rounds=10)
