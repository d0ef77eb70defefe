import sys, numpy as np, jax
import meadowzoo.jax as mjax
from meadowzoo.training.jax_config import jax_config_for
from meadowzoo.training.jax_ppo import SelfPlayPPO
game = sys.argv[1]; share = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0; updates = int(sys.argv[3]) if len(sys.argv) > 3 else 12
cfg = jax_config_for(game, devices=1, epoch_share=share)
tr = SelfPlayPPO(mjax.make(game, num_players=int(sys.argv[4]) if len(sys.argv) > 4 else 2), cfg)
r = tr.setup(0); out = []
for u in range(updates):
    r, m = tr.update(r); m = tr.host_metrics(m)
    out.append((m["learner_steps"] / cfg.steps_per_update, m["rows_dropped"], m["mean_reward"]))
a = np.array(out)
print(game, "epoch_rows", cfg.epoch_rows, "of", cfg.steps_per_update, "valid share per update: min %.3f mean %.3f max %.3f" % (a[:,0].min(), a[:,0].mean(), a[:,0].max()), "dropped", a[:,1].tolist())
