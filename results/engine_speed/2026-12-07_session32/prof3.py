"""Kernel time per step by engine method: every method of the engine class is wrapped in a
jax.named_scope, and each kernel's op_name (its root instruction's) names the methods it came from."""
import collections, re, sys, glob, gzip, json, tempfile, functools, inspect, jax
import meadowzoo.jax as mjax
from benchmarks.jax_speed import rollout_program
game, n = sys.argv[1], int(sys.argv[2]); top = int(sys.argv[3]) if len(sys.argv) > 3 else 40
batch = int(sys.argv[4]) if len(sys.argv) > 4 else 512
env = mjax.make(game, num_players=n)
cls = type(env)
def wrap(name, f):
    @functools.wraps(f)
    def g(*a, **k):
        with jax.named_scope(name):
            return f(*a, **k)
    return g
for klass in cls.__mro__:
    if klass is object: continue
    for name, f in list(vars(klass).items()):
        if inspect.isfunction(f) and name not in ("__init__",) and not name.startswith("__"):
            setattr(klass, name, wrap(name, f))
        elif isinstance(f, staticmethod):
            setattr(klass, name, staticmethod(wrap(name, f.__func__)))
unroll, calls = 8, 30
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
        path = op.group(1) if op else "-"
        scopes = [p for p in re.split(r"[/()]", path) if p.startswith("_") or p in ("observation", "legal_mask", "deck_features", "runner_moves", "uniform_legal", "deal", "reshuffle_order", "carrots_feature")]
        info[m.group(1)] = (comp, m.group(3), m.group(2)[:36], "/".join(dict.fromkeys(scopes)) or path[-50:])
carry = jax.block_until_ready(run(states, jax.random.PRNGKey(1)))
with tempfile.TemporaryDirectory() as d:
    with jax.profiler.trace(d):
        for _ in range(calls): carry = jax.block_until_ready(run(*carry))
    (tr,) = glob.glob(f"{d}/**/*.trace.json.gz", recursive=True)
    ev = json.load(gzip.open(tr))
ev = ev["traceEvents"] if isinstance(ev, dict) else ev
steps = calls * unroll
t = collections.Counter(); k = collections.Counter(); by = collections.Counter(); byk = collections.Counter()
for e in ev:
    if e.get("ph") != "X" or e["name"] not in info: continue
    if info[e["name"]][1] in ("while", "conditional", "call"): continue
    us = e.get("dur", 0) / steps
    t[e["name"]] += us; k[e["name"]] += 1 / steps
    sc = info[e["name"]][3]; by[sc] += us; byk[sc] += 1 / steps
tot = sum(t.values()); print(f"total {tot:.0f} us/step (batch {batch}), {sum(k.values()):.0f} launches")
print("--- by scope path")
for sc, us in by.most_common(top): print(f"{us:8.1f} {100*us/tot:5.1f}% {byk[sc]:6.1f}  {sc}")
print("--- by kernel")
for name, us in t.most_common(top):
    comp, opc, shape, sc = info[name]
    print(f"{us:7.1f} {k[name]:5.2f} {opc[:12]:12s} {shape:36s} {comp[:14]:14s} {sc}")
