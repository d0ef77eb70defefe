"""A/B: Hase und Igel's turn loop: as is; one pass only (ablation: wrong games); first pass then the rest on the
rows that need it (sparse_when)."""
import sys, time
sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
import numpy as np
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import jax
import jax.numpy as jnp
from benchmarks.jax_speed import JaxRunner
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
leaves = {k: jax.tree_util.tree_leaves(r.states) for k, r in runners.items()}
for k, v in leaves.items():
    print(k, "same states after warm-up:", all(bool((a == b).all()) for a, b in zip(leaves["main"], v)))
times = {k: [] for k in runners}
for _ in range(calls):
    for k, r in runners.items():
        t = time.perf_counter()
        r.states, r.key = jax.block_until_ready(r.run(r.states, r.key))
        times[k].append(time.perf_counter() - t)
for k, v in times.items():
    print(f"{k:8s} min {1024 * 32 / min(v):11,.0f} steps/s  x{min(times['main']) / min(v):.3f} by min, "
          f"x{np.percentile(times['main'], 10) / np.percentile(v, 10):.3f} p10, x{np.median(times['main']) / np.median(v):.3f} median", flush=True)
