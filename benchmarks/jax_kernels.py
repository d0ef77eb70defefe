"""Where a JAX engine's random-play step spends its time, kernel by kernel (needs the ``jax`` extra).

    python -m benchmarks.jax_kernels --game volle_wolle --players 4        # top 20 kernel kinds
    python -m benchmarks.jax_kernels --game haste_bock --players 2 --batch 1024 --top 40

Runs the program of :mod:`benchmarks.jax_speed` (a jitted loop of ``vmap``-ed steps with Pgx's
``auto_reset`` and a uniform random legal action per game) under ``jax.profiler`` and sums the
XLA kernels it executed: how many kernel launches one step of the batch makes, and their time per
batch step grouped by kind (``select_select_fusion``, ``gather_bitcast_fusion``, ``while`` …: the
name XLA gives a fused kernel, without its number). On the CPU a step of these engines is many
small kernels over the batch, so the launch count and the kinds that dominate say where to cut;
the times include the profiler's overhead, so read them as shares, and take speeds from
:mod:`benchmarks.jax_speed`.
"""

from __future__ import annotations

import argparse
import collections
import glob
import gzip
import json
import tempfile

import jax

import meadowzoo.jax as mjax

#: trace events that are not kernels (the executor, Python frames, the dispatch)
_NOT_KERNELS = ("ThunkExecutor", "$", "PjitFunction", "CommonPjRt", "end: ")
#: control-flow thunks: their time is that of the kernels inside them, which are listed too
_CONTAINERS = ("while", "conditional", "call")


def kernel_kind(name: str) -> str:
    """``select_select_fusion.45`` -> ``select_select_fusion``."""
    head, _, tail = name.rpartition(".")
    return head if head and tail.isdigit() else name


def profile(env, batch: int, unroll: int, calls: int) -> dict:
    """Kernel launches per step and kernel time (µs per batch step) by kind, of ``calls`` calls of
    the compiled random-play program (``unroll`` steps each) after a warm-up."""
    from benchmarks.jax_speed import rollout_program

    states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), batch))
    run = rollout_program(env, batch, unroll)
    carry = jax.block_until_ready(run(states, jax.random.PRNGKey(1)))
    with tempfile.TemporaryDirectory() as directory:
        with jax.profiler.trace(directory, create_perfetto_trace=True):
            for _ in range(calls):
                carry = jax.block_until_ready(run(*carry))
        (trace,) = glob.glob(f"{directory}/**/*.trace.json.gz", recursive=True)
        with gzip.open(trace) as handle:
            events = json.load(handle)
    events = events["traceEvents"] if isinstance(events, dict) else events
    steps = calls * unroll
    time_by_kind: collections.Counter = collections.Counter()
    loops: collections.Counter = collections.Counter()
    launches = 0
    for event in events:
        if event.get("ph") != "X" or event["name"].startswith(_NOT_KERNELS):
            continue
        kind = kernel_kind(event["name"])
        if kind in _CONTAINERS:
            loops[kind] += event.get("dur", 0.0) / steps
        else:
            time_by_kind[kind] += event.get("dur", 0.0) / steps
            launches += 1
    return {"launches_per_step": launches / steps, "kernel_us_per_step": sum(time_by_kind.values()),
            "by_kind": dict(time_by_kind.most_common()), "control_flow_us_per_step": dict(loops)}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="volle_wolle", choices=mjax.available())
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--unroll", type=int, default=8, help="steps per jitted call")
    parser.add_argument("--calls", type=int, default=10, help="profiled calls")
    parser.add_argument("--top", type=int, default=20, help="kernel kinds to list")
    args = parser.parse_args(argv)
    env = mjax.make(args.game, num_players=args.players)
    result = profile(env, args.batch, args.unroll, args.calls)
    total = result["kernel_us_per_step"]
    print(f"{args.game} {args.players}p, batch {args.batch}: {result['launches_per_step']:,.0f} kernel launches "
          f"per step, {total:,.0f} µs of kernels per batch step ({1000 * total / args.batch:,.0f} ns per game-step, "
          "profiler overhead included)")
    print(f"{'kernel kind':<40}{'µs/step':>10}{'share':>8}")
    for kind, micros in list(result["by_kind"].items())[: args.top]:
        print(f"{kind:<40}{micros:>10.1f}{micros / total:>8.1%}")
    for kind, micros in result["control_flow_us_per_step"].items():
        print(f"({kind}: {micros:,.1f} µs per step, the kernels inside it included above)")
    return result


if __name__ == "__main__":
    main()
