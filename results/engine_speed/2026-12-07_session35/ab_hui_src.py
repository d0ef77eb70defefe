"""A/B: variants of the working tree's Hase und Igel engine made by text replacements (variants in hui_variants.py)."""
import sys, os, types
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session34"))
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import benchmarks.jax_speed as js
from interleave import compare
from hui_variants import VARIANTS
players = int(sys.argv[1]); calls = int(sys.argv[2]); which = sys.argv[3].split(",")
src = open("envs/hase_und_igel/jax_engine.py").read()
def load(name, text):
    mod = types.ModuleType(name); mod.__file__ = name
    exec(compile(text, name, "exec"), mod.__dict__)
    return mod
mods = {"base": load("base", src)}
for k in which:
    text = src
    for old, new in VARIANTS[k]:
        assert old in text, (k, old[:60])
        text = text.replace(old, new)
    mods[k] = load(k, text)
runners = {k: js.JaxRunner(m.HaseUndIgelJax(num_players=players), 1024, 32, devices=2) for k, m in mods.items()}
compare(runners, calls, "base")
