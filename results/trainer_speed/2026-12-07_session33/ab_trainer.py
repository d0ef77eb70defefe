"""A/B of trainer settings over two CPU devices: whole updates interleaved, learner steps/s by
min and median. usage: ab_trainer.py GAME calls label:field=value,field=value ..."""
import sys, time, ast
import numpy as np
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import jax
from meadowzoo.training.jax_config import jax_config_for
from meadowzoo.training.jax_ppo import SelfPlayPPO
game, calls = sys.argv[1], int(sys.argv[2])
variants = {}
for arg in sys.argv[3:]:
    label, _, spec = arg.partition(":")
    # fields split by ";" where a variant uses it (so that a tuple, hidden=(64,64), can be given), else by ","
    over = {k: ast.literal_eval(v) for k, v in (kv.split("=") for kv in spec.split(";" if ";" in spec else ",") if kv)}
    cfg = jax_config_for(game, devices=2, **over)
    tr = SelfPlayPPO(mjax.make(game, num_players=2), cfg)
    r = tr.setup(0)
    r, m = tr.update(r); jax.block_until_ready(r)
    variants[label] = [tr, r, [], []]
for _ in range(calls):
    for label, v in variants.items():
        t = time.perf_counter(); v[1], m = v[0].update(v[1]); jax.block_until_ready(v[1]); dt = time.perf_counter() - t
        m = v[0].host_metrics(m); v[2].append(dt); v[3].append(m["learner_steps"])
base = next(iter(variants))
b = variants[base]
for label, v in variants.items():
    steps = np.mean(v[3]); rate_min = steps / min(v[2]); rate_med = steps / np.median(v[2])
    print(f"{game} {label:10s} {steps:7.0f} steps/update  best {rate_min:9,.0f}/s  median {rate_med:9,.0f}/s  "
          f"x{rate_min / (np.mean(b[3]) / min(b[2])):.3f} best, x{rate_med / (np.mean(b[3]) / np.median(b[2])):.3f} median", flush=True)
