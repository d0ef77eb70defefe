"""Kernel time per step by (computation, opcode/kind, shape) for the benchmark program."""
import collections, re, sys, glob, gzip, json, tempfile, jax
import meadowzoo.jax as mjax
from benchmarks.jax_speed import rollout_program
game, n = sys.argv[1], int(sys.argv[2])
env = mjax.make(game, num_players=n)
batch, unroll, calls = 1024, 8, 30
states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), batch))
run = rollout_program(env, batch, unroll).lower(states, jax.random.PRNGKey(1)).compile()
text = run.as_text()
info = {}; comp = None
for line in text.splitlines():
    m = re.match(r"^(?:ENTRY )?%?([\w.\-]+) \(", line)
    if m: comp = m.group(1); continue
    m = re.match(r"^\s*(?:ROOT )?%?([\w.\-]+) = (\([^)]*\)|\S+) ([\w\-]+)\(", line)
    if m:
        op = re.search(r'op_name="([^"]*)"', line)
        info[m.group(1)] = (comp, m.group(3), m.group(2)[:40], (op.group(1)[-60:] if op else "-"))
carry = jax.block_until_ready(run(states, jax.random.PRNGKey(1)))
with tempfile.TemporaryDirectory() as d:
    with jax.profiler.trace(d):
        for _ in range(calls): carry = jax.block_until_ready(run(*carry))
    (tr,) = glob.glob(f"{d}/**/*.trace.json.gz", recursive=True)
    ev = json.load(gzip.open(tr))
ev = ev["traceEvents"] if isinstance(ev, dict) else ev
steps = calls * unroll
bycomp = collections.Counter(); bycompn = collections.Counter(); bykey = collections.Counter(); nk = collections.Counter()
for e in ev:
    if e.get("ph") != "X" or e["name"] not in info: continue
    comp, opc, shape, op = info[e["name"]]
    if opc in ("while", "conditional", "call"): continue
    us = e.get("dur", 0) / steps
    bycomp[comp] += us; bycompn[comp] += 1 / steps
    key = (comp[:28], opc, shape, op); bykey[key] += us; nk[key] += 1 / steps
tot = sum(bycomp.values()); print(f"total {tot:.0f} us/step, {sum(bycompn.values()):.0f} launches")
for c, us in bycomp.most_common(12): print(f"{us:8.1f} {bycompn[c]:6.1f}  {c}")
print()
for k, us in bykey.most_common(int(sys.argv[3]) if len(sys.argv) > 3 else 45): print(f"{us:7.1f} {nk[k]:5.1f} {k}")
rw = collections.Counter(); rwn = collections.Counter()
for e in ev:
    if e.get("ph") == "X" and e["name"] in info and "reduce-window" in e["name"]:
        rw[info[e["name"]][2]] += e.get("dur", 0) / steps; rwn[info[e["name"]][2]] += 1 / steps
print("reduce-window kernels:", {k: (round(v, 1), round(rwn[k], 1)) for k, v in rw.items()}, "total", round(sum(rw.values()), 1), "of", round(tot))
