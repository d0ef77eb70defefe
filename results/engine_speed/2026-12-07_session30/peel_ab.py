"""The resolve loop with its first two passes peeled out of the while_loop (straight-line code; the
loop then runs only for the rare step that needs a third): the same stages per game, without the
loop's copies of its carried leaves for the two passes every batch step needs (session 30)."""
import sys, os; sys.path.insert(0, os.path.dirname(__file__))
import jax
from ab import bench
import meadowzoo.jax as mjax
import envs.volle_wolle.jax_engine as engine

LOOP = "t = jax.lax.while_loop(lambda t: t.op != DONE, lambda t: self._resolve(t, context, uniforms), t)"
PEELED = ("t = self._resolve(self._resolve(t, context, uniforms), context, uniforms)\n"
          "        " + LOOP)


def peeled_module():
    import types
    source = open(engine.__file__).read()
    assert source.count(LOOP) == 1
    module = sys.modules["vw_peeled"] = types.ModuleType("vw_peeled")
    exec(compile(source.replace(LOOP, PEELED), "vw_peeled", "exec"), module.__dict__)
    return module


if __name__ == "__main__":
    n = int(sys.argv[1])
    bench({"loop (engine)": mjax.make("volle_wolle", num_players=n), "two passes peeled": peeled_module().VolleWolleJax(num_players=n)},
          rounds=10)
