import collections, re, sys, glob, gzip, json, tempfile, jax
import meadowzoo.jax as mjax
from benchmarks.jax_speed import rollout_program
game, n = sys.argv[1], int(sys.argv[2]); batch = 512
env = mjax.make(game, num_players=n)
unroll, calls = 8, 30
states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), batch))
run = rollout_program(env, batch, unroll).lower(states, jax.random.PRNGKey(1)).compile()
text = run.as_text()
info = {}; comp = None
for line in text.splitlines():
    m = re.match(r"^(?:ENTRY )?%?([\w.\-]+) \(", line)
    if m: comp = m.group(1); continue
    m = re.match(r"^\s*(?:ROOT )?%?([\w.\-]+) = (\([^)]*\)|\S+) ([\w\-]+)\((.*)$", line)
    if m: info[m.group(1)] = (comp, m.group(3), m.group(2)[:40], m.group(4)[:80], "op_name" in line)
carry = jax.block_until_ready(run(states, jax.random.PRNGKey(1)))
with tempfile.TemporaryDirectory() as d:
    with jax.profiler.trace(d):
        for _ in range(calls): carry = jax.block_until_ready(run(*carry))
    (tr,) = glob.glob(f"{d}/**/*.trace.json.gz", recursive=True)
    ev = json.load(gzip.open(tr))
ev = ev["traceEvents"] if isinstance(ev, dict) else ev
steps = calls * unroll
t = collections.Counter(); k = collections.Counter()
for e in ev:
    if e.get("ph") != "X" or e["name"] not in info: continue
    c = info[e["name"]]
    if c[4]: continue
    key = (c[0][:20], c[1], c[2], c[3][:60])
    t[key] += e.get("dur", 0) / steps; k[key] += 1 / steps
print(f"no-op_name kernels: {sum(t.values()):.0f} us/step, {sum(k.values()):.0f} launches")
for key, us in t.most_common(40): print(f"{us:7.1f} {k[key]:6.2f} {key}")
