import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ab2dev import compare
from hb_variants import H, Packed, Rows, Both
n = int(sys.argv[1]); devices = int(sys.argv[2]) if len(sys.argv) > 2 else 2
compare({"main": H.HasteBockJax(num_players=n), "packed": Packed(num_players=n), 
         "main2": H.HasteBockJax(num_players=n)}, calls=100, devices=devices)
