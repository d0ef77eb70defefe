"""A/B of engine source files: python ab_files.py CLASS PLAYERS label=path ... [--calls N]
Each file is loaded as its own module; the engine class CLASS is built with num_players."""
import sys, importlib.util
import os; sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session31")); import ab2dev
cls, n = sys.argv[1], int(sys.argv[2])
calls = 100
envs = {}
for arg in sys.argv[3:]:
    if arg.startswith("--calls="): calls = int(arg.split("=")[1]); continue
    label, path = arg.split("=")
    spec = importlib.util.spec_from_file_location(f"ab_{label}", path)
    mod = importlib.util.module_from_spec(spec); sys.modules[spec.name] = mod; spec.loader.exec_module(mod)
    envs[label] = getattr(mod, cls)(num_players=n)
ab2dev.compare(envs, calls=calls)
