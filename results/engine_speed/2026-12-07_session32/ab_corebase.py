"""A/B of the core module (MeadowJaxEnv) for one engine file: label=core_file ..."""
import sys, importlib.util
import os; sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session31")); import ab2dev
engine_file, cls, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
def load(name, path, patch=None):
    src = open(path).read()
    if patch: src = patch(src)
    spec = importlib.util.spec_from_loader(name, loader=None)
    mod = importlib.util.module_from_spec(spec); mod.__file__ = path; sys.modules[name] = mod
    exec(compile(src, path, "exec"), mod.__dict__); return mod
envs = {}
for arg in sys.argv[4:]:
    label, core = arg.split("=")
    load(f"core_{label}", core)
    em = load(f"eng_{label}", engine_file, lambda src: src.replace("from meadowzoo.envs.core.jax_core import", f"from core_{label} import"))
    envs[label] = getattr(em, cls)(num_players=n)
ab2dev.compare(envs, calls=100)
