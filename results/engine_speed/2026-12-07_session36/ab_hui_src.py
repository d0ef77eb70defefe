"""Session 35's ab_hui_src.py (text-replacement variants of the working tree's Hase und Igel engine)
with this folder's variants (hui_variants.py):

    PYTHONPATH=. .venv/bin/python results/engine_speed/2026-12-07_session36/ab_hui_src.py PLAYERS CALLS base2,min3,min4"""
import os
import runpy
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import hui_variants  # noqa: E402,F401  (this folder's, cached before session 35's script looks for its own)

runpy.run_path(os.path.join(here, "..", "2026-12-07_session35", "ab_hui_src.py"), run_name="__main__")
