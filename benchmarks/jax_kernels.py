"""Where a JAX engine's random-play step spends its time, kernel by kernel (needs the ``jax`` extra).

    python -m benchmarks.jax_kernels --game volle_wolle --players 4        # top 20 kernel kinds
    python -m benchmarks.jax_kernels --game haste_bock --players 2 --batch 1024 --top 40
    python -m benchmarks.jax_kernels --game volle_wolle --players 2 --by-op   # by the JAX operation
    python -m benchmarks.jax_kernels --game hase_und_igel --players 2 --by-line --top 40   # by source line

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

``--by-line`` groups them by the line of Python that made the operation (``file:line function``,
the innermost frame of the stack XLA keeps for it: the engine's own line, or the helper's, e.g.
``SparseObservation.build``), which names the part of the rules a cost belongs to where the
operation alone (``vmap()/gather``) does not. Control flow (``while``, ``conditional``, ``call``
instructions) is told by its opcode and not counted as a kernel: its time is the kernels'.
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

#: control-flow instructions (opcodes): their time is that of the kernels inside them, which are
#: listed too (their names need not say it: a ``lax.cond`` is a ``conditional`` named ``cond.3``)
_CONTAINERS = ("while", "conditional", "call")
#: the group of a kernel whose instruction carries no ``op_name``: XLA made it, not a JAX operation
INSERTED_COPY, NO_OP_NAME = "(copy inserted by XLA)", "(no op_name)"
#: in compiled HLO text: an instruction (name, opcode; its shape may be a tuple), the start of a
#: computation, an instruction's op_name and the computation a fusion calls
_INSTRUCTION = re.compile(r"^\s*(?:ROOT )?%?([\w.\-]+) = (?:\([^)]*\)|\S+) ([\w\-]+)\(")
_COMPUTATION = re.compile(r"^(?:ENTRY )?%?([\w.\-]+) \(")
_OP_NAME = re.compile(r'op_name="([^"]*)"')
_CALLS = re.compile(r"calls=%?([\w.\-]+)")
_STACK_FRAME = re.compile(r"stack_frame_id=(\d+)")
#: the tables at the end of compiled HLO text that stack_frame_id refers to
_TABLES = ("FileNames", "FunctionNames", "FileLocations", "StackFrames")
_FIELD = re.compile(r"(\w+)=(\d+)")


def kernel_kind(name: str) -> str:
    """``select_select_fusion.45`` -> ``select_select_fusion``."""
    head, _, tail = name.rpartition(".")
    return head if head and tail.isdigit() else name


def _source_lines(hlo_text: str) -> dict[int, str]:
    """stack_frame_id -> ``file:line function`` of that frame, from the tables at the end of
    compiled HLO text (file names, function names, file locations, stack frames)."""
    tables: dict[str, dict[int, str]] = {}
    table = None
    for line in hlo_text.splitlines():
        if line.strip() in _TABLES:
            table = tables.setdefault(line.strip(), {})
        elif table is not None and re.match(r"^\d+ ", line):
            number, value = line.split(" ", 1)
            table[int(number)] = value.strip()
        elif line.strip():
            table = None
    files = {k: v.strip('"').rsplit("/", 1)[-1] for k, v in tables.get("FileNames", {}).items()}
    functions = {k: v.strip('"') for k, v in tables.get("FunctionNames", {}).items()}
    locations = {}
    for k, v in tables.get("FileLocations", {}).items():
        field = dict(_FIELD.findall(v))
        locations[k] = f"{files.get(int(field['file_name_id']), '?')}:{field['line']} {functions.get(int(field['function_name_id']), '?')}"
    return {k: locations.get(int(dict(_FIELD.findall(v))["file_location_id"]), "?")
            for k, v in tables.get("StackFrames", {}).items()}


def hlo_origins(hlo_text: str) -> dict[str, dict[str, str]]:
    """Instruction name -> ``{"opcode", "op", "line"}`` read from compiled HLO text
    (``compiled.as_text()``): ``op`` the JAX operation it was compiled from (the metadata's
    ``op_name`` without the outer ``jit(...)`` of the program) and ``line`` the source line that
    made it (``file:line function``, from its ``stack_frame_id``); for a fusion without them, those
    of the first instruction inside the computation it calls; :data:`INSERTED_COPY` for a copy
    without them, :data:`NO_OP_NAME` for another."""
    frames = _source_lines(hlo_text)
    own: dict[str, tuple[str | None, str | None]] = {}
    opcodes: dict[str, str] = {}
    calls: dict[str, str] = {}
    first_in: dict[str, tuple[str, str | None]] = {}  # computation -> the first op_name and line inside it
    computation = None
    for line in hlo_text.splitlines():
        instruction = _INSTRUCTION.match(line)
        if not instruction:
            start = _COMPUTATION.match(line)
            computation = start.group(1) if start else computation
            continue
        name, opcode = instruction.groups()
        opcodes[name] = opcode
        op_name, frame = _OP_NAME.search(line), _STACK_FRAME.search(line)
        where = frames.get(int(frame.group(1))) if frame else None
        if op_name:
            own[name] = (op_name.group(1), where)
            if computation is not None:
                first_in.setdefault(computation, (op_name.group(1), where))
        else:
            own[name] = (INSERTED_COPY if opcode == "copy" else None, where)
        called = _CALLS.search(line)
        if called:
            calls[name] = called.group(1)
    origins = {}
    for name, (op_name, where) in own.items():
        if not op_name:
            op_name, where = first_in.get(calls.get(name, ""), (None, where))
        op = re.sub(r"^jit\([^/]*\)/", "", op_name) if op_name else NO_OP_NAME
        origins[name] = {"opcode": opcodes[name], "op": op, "line": where or op}
    return origins


def op_names(hlo_text: str) -> dict[str, str]:
    """Instruction name -> the JAX operation it was compiled from (``op`` of :func:`hlo_origins`)."""
    return {name: origin["op"] for name, origin in hlo_origins(hlo_text).items()}


def profile(env, batch: int, unroll: int, calls: int) -> dict:
    """Kernel launches per step and kernel time (µs per batch step) by kind, by the JAX operation
    the kernel came from and by the source line that made it (:func:`hlo_origins`), of ``calls``
    calls of the compiled random-play program (``unroll`` steps each) after a warm-up."""
    from benchmarks.jax_speed import rollout_program

    states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), batch))
    run = rollout_program(env, batch, unroll).lower(states, jax.random.PRNGKey(1)).compile()  # compiled once
    origin = hlo_origins(run.as_text())
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
    groupings = {"kind": kernel_kind, "op": lambda name: origin[name]["op"],
                 "line": lambda name: origin[name]["line"]}
    times = {grouping: collections.Counter() for grouping in groupings}
    launches = {grouping: collections.Counter() for grouping in groupings}
    loops: collections.Counter = collections.Counter()
    for event in events:
        # kernels are the events named after the program's instructions (not the executor's,
        # the thread pool's or Python's)
        if event.get("ph") != "X" or event["name"] not in origin:
            continue
        micros = event.get("dur", 0.0) / steps
        opcode = origin[event["name"]]["opcode"]
        if opcode in _CONTAINERS:
            loops[opcode] += micros
            continue
        for grouping, group_of in groupings.items():
            times[grouping][group_of(event["name"])] += micros
            launches[grouping][group_of(event["name"])] += 1 / steps
    result = {"launches_per_step": sum(launches["kind"].values()), "kernel_us_per_step": sum(times["kind"].values()),
              "control_flow_us_per_step": dict(loops)}
    for grouping in groupings:
        result[f"by_{grouping}"] = dict(times[grouping].most_common())
        result[f"launches_by_{grouping}"] = dict(launches[grouping])
    return result


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="volle_wolle", choices=mjax.available())
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--unroll", type=int, default=8, help="steps per jitted call")
    parser.add_argument("--calls", type=int, default=10, help="profiled calls")
    parser.add_argument("--top", type=int, default=20, help="kernel kinds to list")
    grouping = parser.add_mutually_exclusive_group()
    grouping.add_argument("--by-op", action="store_true", help="group by the JAX operation a kernel came from, not its kind")
    grouping.add_argument("--by-line", action="store_true", help="group by the source line that made a kernel's operation")
    args = parser.parse_args(argv)
    env = mjax.make(args.game, num_players=args.players)
    result = profile(env, args.batch, args.unroll, args.calls)
    total = result["kernel_us_per_step"]
    print(f"{args.game} {args.players}p, batch {args.batch}: {result['launches_per_step']:,.0f} kernel launches "
          f"per step, {total:,.0f} µs of kernels per batch step ({1000 * total / args.batch:,.0f} ns per game-step, "
          "profiler overhead included)")
    grouping = "op" if args.by_op else "line" if args.by_line else "kind"
    times, launches = result[f"by_{grouping}"], result[f"launches_by_{grouping}"]
    width = {"op": 72, "line": 72, "kind": 40}[grouping]
    heading = {"op": "JAX operation", "line": "source line", "kind": "kernel kind"}[grouping]
    print(f"{heading:<{width}}{'µs/step':>10}{'share':>8}{'launches':>10}")
    for group, micros in list(times.items())[: args.top]:
        print(f"{group[-width + 1:]:<{width}}{micros:>10.1f}{micros / total:>8.1%}{launches[group]:>10.1f}")
    for kind, micros in result["control_flow_us_per_step"].items():
        print(f"({kind}: {micros:,.1f} µs per step, the kernels inside it included above)")
    return result


if __name__ == "__main__":
    main()
