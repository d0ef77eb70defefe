"""Robust A/B over two CPU devices (the README table's program shape, jax_speed.JaxRunner):
single calls interleaved across variants, min / p10 / median of the call times per variant."""
import sys
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
from benchmarks.jax_speed import JaxRunner


def compare(envs, calls=200, batch=1024, unroll=32, devices=2):
    """Runners for ``envs`` (the first is the base), timed by session 34's interleaved loop."""
    import os
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session34"))
    from interleave import compare as interleaved

    runners = {k: JaxRunner(env, batch, unroll, devices=devices) for k, env in envs.items()}
    return interleaved(runners, calls, next(iter(runners)))
