"""A/B: Hase und Igel's turn loop: as is; one pass only (ablation: wrong games); first pass then the rest on the
rows that need it (sparse_when)."""
import sys
sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import jax
import jax.numpy as jnp
from benchmarks.jax_speed import JaxRunner
from interleave import compare
from sparse import sparse_when

players = int(sys.argv[1]); calls = int(sys.argv[2]) if len(sys.argv) > 2 else 60
share = float(sys.argv[3]) if len(sys.argv) > 3 else 1 / 8
base = mjax.make("hase_und_igel", num_players=players)
cls = type(base)


class OnePass(cls):
    def _begin_turn(self, s, pending):
        body = self._one_runner_turn if self.rpp == 1 else self._two_runner_turn
        return body(s, pending)[0]


class Sparse(cls):
    def _begin_turn(self, s, pending):
        body = self._one_runner_turn if self.rpp == 1 else self._two_runner_turn
        s, pending = body(s, pending)

        def rest(s):
            s, _ = jax.lax.while_loop(lambda c: c[1], lambda c: body(*c), (s, jnp.bool_(True)))
            return s
        return sparse_when(pending, rest, s, share=share)


envs = {"main": base, "main2": mjax.make("hase_und_igel", num_players=players)}
for name, klass in (("sparse", Sparse),):
    e = mjax.make("hase_und_igel", num_players=players)
    e.__class__ = klass
    envs[name] = e
runners = {k: JaxRunner(e, 1024, 32, devices=2) for k, e in envs.items()}
compare(runners, calls, "main")
