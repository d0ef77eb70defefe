"""Loop iterations per batch step when the resolve pass runs its stages in another order."""
import sys, os; sys.path.insert(0, os.path.dirname(__file__))
import numpy as np, jax, jax.numpy as jnp
from envs.core.jax_core import when
from envs.volle_wolle.jax_engine import NEXT, ROLL, FAIL, CPICK
from passes import Counted, uniform_legal, auto_reset
n = int(sys.argv[1]); batch = 1024
ORDERS = {"N R F C (now)": (NEXT, ROLL, FAIL, CPICK), "C N R F": (CPICK, NEXT, ROLL, FAIL), "R F C N": (ROLL, FAIL, CPICK, NEXT),
          "F C N R": (FAIL, CPICK, NEXT, ROLL)}
for label, order in ORDERS.items():
    class Ordered(Counted):
        def _resolve(self, t, context, uniforms):
            functions = {NEXT: self._next_player, ROLL: self._roll, FAIL: self._fail, CPICK: self._continue_pick}
            for stage in order:
                t = when(t.op == stage, lambda t, f=functions[stage]: f(t, context, uniforms), t)
            return t
    env = Ordered(num_players=n)
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))
    states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), batch))
    key = jax.random.PRNGKey(1); per_game = []; maxes = []
    for i in range(200):
        key, a, s = jax.random.split(key, 3)
        states = step(states, uniform_legal(a, states.legal_action_mask), jax.random.split(s, batch))
        p = np.asarray(states._step_count) // 8
        if i > 50: per_game.append(p); maxes.append(p.max())
    per_game = np.concatenate(per_game)
    print(f"{label:16s} mean passes {per_game.mean():.2f}", {int(k): round(float((per_game == k).mean()), 4) for k in np.unique(per_game)},
          "loop iterations", {int(k): int((np.array(maxes) == k).sum()) for k in np.unique(maxes)}, flush=True)
