"""Where a JAX engine's random-play step spends its time, kernel by kernel (needs the ``jax`` extra).

    python -m benchmarks.jax_kernels --game volle_wolle --players 4        # top 20 kernel kinds
    python -m benchmarks.jax_kernels --game haste_bock --players 2 --batch 1024 --top 40
    python -m benchmarks.jax_kernels --game volle_wolle --players 2 --by-op   # by the JAX operation

Runs the program of :mod:`benchmarks.jax_speed` (a jitted loop of ``vmap``-ed steps with Pgx's
``auto_reset`` and a uniform random legal action per game) under ``jax.profiler`` and sums the
XLA kernels it executed: how many kernel launches one step of the batch makes, and their time per
batch step grouped by kind (``select_select_fusion``, ``gather_bitcast_fusion``, ``while`` …: the
name XLA gives a fused kernel, without its number). On the CPU a step of these engines is many
small kernels over the batch, so the launch count and the kinds that dominate say where to cut;
the times include the profiler's overhead, so read them as shares, and take speeds from
:mod:`benchmarks.jax_speed`.

``--by-op`` groups the same kernels by the JAX operation each one was compiled from (the
``op_name`` XLA keeps in the compiled program's metadata, e.g. ``vmap()/while/body/select_n``), and
counts apart the copies XLA inserts itself (no ``op_name``: a loop-carried value still read after
the loop body has written its new value is copied first). In session 30 these copies were about
300 of Volle Wolle 2p's ~730 launches per step (~1,080 before its resolve loop was reordered to need
two passes a step instead of three; docs/jax.md, "Session 30").
"""

from __future__ import annotations

import argparse
import collections
import glob
import gzip
import json
import re
import tempfile

import jax

import meadowzoo.jax as mjax

#: control-flow thunks: their time is that of the kernels inside them, which are listed too
_CONTAINERS = ("while", "conditional", "call")
#: the group of a kernel whose instruction carries no ``op_name``: XLA made it, not a JAX operation
INSERTED_COPY, NO_OP_NAME = "(copy inserted by XLA)", "(no op_name)"
#: in compiled HLO text: an instruction (name, opcode; its shape may be a tuple), the start of a
#: computation, an instruction's op_name and the computation a fusion calls
_INSTRUCTION = re.compile(r"^\s*(?:ROOT )?%?([\w.\-]+) = (?:\([^)]*\)|\S+) ([\w\-]+)\(")
_COMPUTATION = re.compile(r"^(?:ENTRY )?%?([\w.\-]+) \(")
_OP_NAME = re.compile(r'op_name="([^"]*)"')
_CALLS = re.compile(r"calls=%?([\w.\-]+)")


def kernel_kind(name: str) -> str:
    """``select_select_fusion.45`` -> ``select_select_fusion``."""
    head, _, tail = name.rpartition(".")
    return head if head and tail.isdigit() else name


def op_names(hlo_text: str) -> dict[str, str]:
    """Instruction name -> the JAX operation it was compiled from, read from compiled HLO text
    (``compiled.as_text()``): the metadata's ``op_name`` without the outer ``jit(...)`` of the
    program; for a fusion without one, the first ``op_name`` inside the computation it calls;
    :data:`INSERTED_COPY` for a copy without one, :data:`NO_OP_NAME` for another."""
    own: dict[str, str | None] = {}
    calls: dict[str, str] = {}
    first_in: dict[str, str] = {}  # computation -> the first op_name inside it
    computation = None
    for line in hlo_text.splitlines():
        instruction = _INSTRUCTION.match(line)
        if not instruction:
            start = _COMPUTATION.match(line)
            computation = start.group(1) if start else computation
            continue
        name, opcode = instruction.groups()
        op_name = _OP_NAME.search(line)
        if op_name:
            own[name] = op_name.group(1)
            if computation is not None:
                first_in.setdefault(computation, op_name.group(1))
        else:
            own[name] = INSERTED_COPY if opcode == "copy" else None
        called = _CALLS.search(line)
        if called:
            calls[name] = called.group(1)
    names = {}
    for name, op_name in own.items():
        op_name = op_name or first_in.get(calls.get(name, ""))
        names[name] = re.sub(r"^jit\([^/]*\)/", "", op_name) if op_name else NO_OP_NAME
    return names


def profile(env, batch: int, unroll: int, calls: int) -> dict:
    """Kernel launches per step and kernel time (µs per batch step) by kind, and both by the JAX
    operation the kernel came from (:func:`op_names`), of ``calls`` calls of the compiled
    random-play program (``unroll`` steps each) after a warm-up."""
    from benchmarks.jax_speed import rollout_program

    states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), batch))
    run = rollout_program(env, batch, unroll).lower(states, jax.random.PRNGKey(1)).compile()  # compiled once
    origin = op_names(run.as_text())
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
    launches_by_kind: collections.Counter = collections.Counter()
    time_by_op: collections.Counter = collections.Counter()
    launches_by_op: collections.Counter = collections.Counter()
    loops: collections.Counter = collections.Counter()
    for event in events:
        # kernels are the events named after the program's instructions (not the executor's,
        # the thread pool's or Python's)
        if event.get("ph") != "X" or event["name"] not in origin:
            continue
        kind = kernel_kind(event["name"])
        micros = event.get("dur", 0.0) / steps
        if kind in _CONTAINERS:
            loops[kind] += micros
            continue
        op = origin[event["name"]]
        time_by_kind[kind] += micros
        launches_by_kind[kind] += 1 / steps
        time_by_op[op] += micros
        launches_by_op[op] += 1 / steps
    return {"launches_per_step": sum(launches_by_kind.values()), "kernel_us_per_step": sum(time_by_kind.values()),
            "by_kind": dict(time_by_kind.most_common()), "launches_by_kind": dict(launches_by_kind),
            "by_op": dict(time_by_op.most_common()), "launches_by_op": dict(launches_by_op),
            "control_flow_us_per_step": dict(loops)}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="volle_wolle", choices=mjax.available())
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--unroll", type=int, default=8, help="steps per jitted call")
    parser.add_argument("--calls", type=int, default=10, help="profiled calls")
    parser.add_argument("--top", type=int, default=20, help="kernel kinds to list")
    parser.add_argument("--by-op", action="store_true", help="group by the JAX operation a kernel came from, not its kind")
    args = parser.parse_args(argv)
    env = mjax.make(args.game, num_players=args.players)
    result = profile(env, args.batch, args.unroll, args.calls)
    total = result["kernel_us_per_step"]
    print(f"{args.game} {args.players}p, batch {args.batch}: {result['launches_per_step']:,.0f} kernel launches "
          f"per step, {total:,.0f} µs of kernels per batch step ({1000 * total / args.batch:,.0f} ns per game-step, "
          "profiler overhead included)")
    times, launches = (result["by_op"], result["launches_by_op"]) if args.by_op else (result["by_kind"], result["launches_by_kind"])
    width = 72 if args.by_op else 40
    print(f"{'JAX operation' if args.by_op else 'kernel kind':<{width}}{'µs/step':>10}{'share':>8}{'launches':>10}")
    for group, micros in list(times.items())[: args.top]:
        print(f"{group[-width + 1:]:<{width}}{micros:>10.1f}{micros / total:>8.1%}{launches[group]:>10.1f}")
    for kind, micros in result["control_flow_us_per_step"].items():
        print(f"({kind}: {micros:,.1f} µs per step, the kernels inside it included above)")
    return result


if __name__ == "__main__":
    main()
