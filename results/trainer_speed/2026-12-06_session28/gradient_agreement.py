# The relative difference (norm of the difference / norm) between the autodiff and the fused gradients
# of the PPO loss over a Volle Wolle 2p trainer's whole batch, after 1 and 30 updates, in each precision
# (the figures quoted in docs/jax.md, "Mixed precision"); output in gradient_agreement.txt
import jax, jax.numpy as jnp, numpy as np
from dataclasses import replace
import meadowzoo.jax
from meadowzoo.training.jax_config import jax_config_for
from meadowzoo.training.jax_ppo import SelfPlayPPO
env = meadowzoo.jax.make("volle_wolle", num_players=2)
for dtype in ("bfloat16", "float32"):
    cfg = jax_config_for("volle_wolle", num_envs=64, num_steps=32, matmul_dtype=dtype, loss_gradient="autodiff")
    tr = SelfPlayPPO(env, cfg)
    fused_cfg = replace(cfg, loss_gradient="fused")
    orig_epochs = SelfPlayPPO._epochs
    def epochs(self, params, opt_state, flat, key, axis=None, scale=None):
        g_auto, _ = jax.grad(self._loss, has_aux=True)(params, flat)
        saved = self.config; self.config = fused_cfg
        g_fused, _ = jax.grad(self._loss, has_aux=True)(params, flat)
        self.config = saved
        state, losses = orig_epochs(self, params, opt_state, flat, key, axis, scale)
        diffs = {"/".join(str(getattr(k, "key", k)) for k in path): jnp.linalg.norm((a - b).ravel()) / jnp.linalg.norm(a.ravel())
                 for (path, a), b in zip(jax.tree_util.tree_flatten_with_path(g_auto)[0], jax.tree_util.tree_leaves(g_fused))}
        losses = dict(losses, **{"rel/" + k: jnp.broadcast_to(v, losses["entropy"].shape) for k, v in diffs.items()})
        return state, losses
    SelfPlayPPO._epochs = epochs
    tr = SelfPlayPPO(env, cfg)
    r = tr.setup(0)
    for i in range(30):
        r, m = tr.update(r)
        if i in (0, 29):
            print(dtype, i, {k: f"{float(v):.2e}" for k, v in m.items() if k.startswith("rel/")})
    SelfPlayPPO._epochs = orig_epochs
