"""Find fusions whose inner arrays are much larger than their output (a fused reduction recomputing
broadcast operands per output), with their kernel time per step."""
import collections, re, sys, glob, gzip, json, tempfile, math, jax
import meadowzoo.jax as mjax
from benchmarks.jax_speed import rollout_program
game, n = sys.argv[1], int(sys.argv[2])
env = mjax.make(game, num_players=n)
batch, unroll, calls = 1024, 8, 20
states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), batch))
run = rollout_program(env, batch, unroll).lower(states, jax.random.PRNGKey(1)).compile()
text = run.as_text()
def size(shape):
    m = re.match(r"[a-z0-9]+\[([0-9,]*)\]", shape)
    if not m: return 0
    dims = [int(d) for d in m.group(1).split(",") if d]
    return math.prod(dims) if dims else 1
inner_max = {}; comp = None; calls_of = {}; out_size = {}; opn = {}
for line in text.splitlines():
    m = re.match(r"^(?:ENTRY )?%?([\w.\-]+) \(", line)
    if m: comp = m.group(1); inner_max.setdefault(comp, 0); continue
    m = re.match(r"^\s*(?:ROOT )?%?([\w.\-]+) = (\S+) ([\w\-]+)\(", line)
    if m and comp:
        inner_max[comp] = max(inner_max[comp], size(m.group(2)))
        c = re.search(r"calls=%?([\w.\-]+)", line)
        if c and m.group(3) == "fusion":
            calls_of[m.group(1)] = c.group(1); out_size[m.group(1)] = size(m.group(2))
            o = re.search(r'op_name="([^"]*)"', line); opn[m.group(1)] = (o.group(1)[-50:] if o else "-", m.group(2)[:30])
carry = jax.block_until_ready(run(states, jax.random.PRNGKey(1)))
with tempfile.TemporaryDirectory() as d:
    with jax.profiler.trace(d):
        for _ in range(calls): carry = jax.block_until_ready(run(*carry))
    (tr,) = glob.glob(f"{d}/**/*.trace.json.gz", recursive=True)
    ev = json.load(gzip.open(tr))
ev = ev["traceEvents"] if isinstance(ev, dict) else ev
t = collections.Counter()
for e in ev:
    if e.get("ph") == "X" and e["name"] in calls_of: t[e["name"]] += e.get("dur", 0) / (calls * unroll)
rows = []
for name, us in t.items():
    ratio = inner_max.get(calls_of[name], 0) / max(out_size[name], 1)
    rows.append((us, ratio, name, inner_max.get(calls_of[name], 0), out_size[name], opn[name]))
print("fusions with inner/out >= 4, by time:")
for us, ratio, name, inner, out, op in sorted(rows, reverse=True):
    if ratio >= 4 and us > 5: print(f"{us:7.1f} us  x{ratio:6.1f}  inner {inner:8d} out {out:7d}  {name[:30]:30s} {op}")
