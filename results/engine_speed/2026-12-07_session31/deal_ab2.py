import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ab2dev import compare
import jax.numpy as jnp
import envs.volle_wolle.jax_engine as E
n = int(sys.argv[1]); devices = int(sys.argv[2]) if len(sys.argv) > 2 else 2
sys.argv = [sys.argv[0], str(n)]
src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "deal_ab.py")).read().split("n = int(sys.argv[1])")[0]
exec(src)
def pick_sums(pile, j):
    return jnp.where(E._CARD_IDS == j, pile, 0).sum()
compare({"sums (before)": make_variant(pick_sums)(num_players=n), "gather": E.VolleWolleJax(num_players=n),
         "sums2": make_variant(pick_sums)(num_players=n)}, calls=200, devices=devices)
