"""Kernel time of one trainer update (one device, the per-device share of games) by opcode and scope."""
import collections, re, sys, glob, gzip, json, tempfile, jax
import meadowzoo.jax as mjax
from meadowzoo.training.jax_config import jax_config_for
from meadowzoo.training.jax_ppo import SelfPlayPPO
game = sys.argv[1]; top = int(sys.argv[2]) if len(sys.argv) > 2 else 30
extra = dict(a.split("=") for a in sys.argv[3:])
cfg = jax_config_for(game, devices=1, num_envs=128, **{k: int(v) for k, v in extra.items()})
tr = SelfPlayPPO(mjax.make(game, num_players=2), cfg)
runner = tr.setup(0)
comp = tr.update.lower(runner).compile()
info = {}
for line in comp.as_text().splitlines():
    m = re.match(r"^\s*(?:ROOT )?%?([\w.\-]+) = (\([^)]*\)|\S+) ([\w\-]+)\(", line)
    if m:
        op = re.search(r'op_name="([^"]*)"', line)
        info[m.group(1)] = (m.group(3), m.group(2)[:40], op.group(1) if op else "-")
runner, _ = comp(runner); jax.block_until_ready(runner)
calls = 5
with tempfile.TemporaryDirectory() as d:
    with jax.profiler.trace(d):
        for _ in range(calls):
            runner, _ = comp(runner); jax.block_until_ready(runner)
    (f,) = glob.glob(f"{d}/**/*.trace.json.gz", recursive=True)
    ev = json.load(gzip.open(f))
ev = ev["traceEvents"] if isinstance(ev, dict) else ev
t = collections.Counter(); by = collections.Counter(); byop = collections.Counter()
def scope(path):
    s = []
    for key in ("_epochs", "learner_step", "_advance", "_opponent_actions", "transpose(jvp", "jvp(", "_loss", "policy_terms", "adam", "clip_by_global_norm", "gae", "_step", "_init", "rate", "promote"):
        if key in path: s.append(key)
    return "/".join(s) or path[-60:]
for e in ev:
    if e.get("ph") != "X" or e["name"] not in info: continue
    opc, shape, path = info[e["name"]]
    if opc in ("while", "conditional", "call"): continue
    us = e.get("dur", 0) / calls
    t[e["name"]] += us; by[scope(path)] += us; byop[opc] += us
tot = sum(t.values()); print(f"{game}: total kernel {tot/1000:.1f} ms per update (1 device, 128 games)")
print("--- by opcode");  [print(f"{us/1000:8.2f} ms {100*us/tot:5.1f}%  {o}") for o, us in byop.most_common(12)]
print("--- by scope");  [print(f"{us/1000:8.2f} ms {100*us/tot:5.1f}%  {s}") for s, us in by.most_common(top)]
print("--- by kernel")
for name, us in t.most_common(top):
    opc, shape, path = info[name]
    print(f"{us/1000:7.2f} {opc[:12]:12s} {shape:40s} {scope(path)}")
