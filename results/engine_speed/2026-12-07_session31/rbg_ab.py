"""A/B: the benchmark's keys as default threefry (rolled 5-round loops on the CPU) vs typed keys of
other JAX PRNG implementations, for the engine and connect four, one device."""
import os, sys; sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session30"))
from ab import time_programs, report
import jax, pgx
import meadowzoo.jax as mjax
from benchmarks.jax_speed import rollout_program
game, n = sys.argv[1], int(sys.argv[2]); rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 8
batch, unroll = 1024, 32
runs = {}
for name, env in {"eng": mjax.make(game, num_players=n), "c4": pgx.make("connect_four")}.items():
    for impl in ("threefry2x32", "unsafe_rbg"):
        keys = jax.random.split(jax.random.key(0, impl=impl), batch)
        states = jax.jit(jax.vmap(env.init))(keys)
        p = rollout_program(env, batch, unroll)
        runs[f"{name}_{impl}"] = [p, jax.block_until_ready(p(states, jax.random.key(1, impl=impl)))]
report(*time_programs(runs, batch, unroll, seconds=1.0, rounds=rounds))
