import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ab2dev import compare
n = int(sys.argv[1])
src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "obs_ab.py")).read().split("n = int(sys.argv[1])")[0]
exec(src)
compare({"main": E.VolleWolleJax(num_players=n), "obs_int": ObsInt(num_players=n), "main2": E.VolleWolleJax(num_players=n)}, calls=120)
