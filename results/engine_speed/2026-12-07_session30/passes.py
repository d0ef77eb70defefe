"""How many resolve passes a Volle Wolle step needs, per game, under random play (session 30)."""
import sys, os; sys.path.insert(0, os.path.dirname(__file__))
import numpy as np, jax, jax.numpy as jnp
import meadowzoo.jax as mjax
from envs.core.jax_core import chance_stream, when, rank_rewards
import envs.volle_wolle.jax_engine as E
from envs.volle_wolle.jax_engine import _I32, _TURN_FIELDS, Turn, DONE, PH_BID, PH_OVER, CLAIM, DECLINE, AVOID_BLACK, TAKE_BLACK
from benchmarks.jax_speed import uniform_legal
from pgx.experimental import auto_reset

class Counted(E.VolleWolleJax):
    def _step(self, state, action, key):
        n = self.t.n
        uniforms = chance_stream(key, 3 * n)
        g = state._x
        a = jnp.asarray(action, _I32)
        players = jnp.arange(n)
        bidding = g.pending == PH_BID
        bids = jnp.where(bidding & (players == g.cur), a, g.bids)
        reveal = bidding & (g.cur + 1 >= n)
        g = g.replace(bids=bids, order=jnp.where(reveal, self._order(g, bids), g.order), revealed=g.revealed | reveal)
        t = Turn(**{name: getattr(g, name) for name in _TURN_FIELDS}, taker=jnp.full(n + 1, -1, _I32),
                 tseq=jnp.zeros(n + 1, _I32), seq=_I32(0), c=_I32(0), op=_I32(DONE), new_round=jnp.bool_(False))
        branch = jnp.select([bidding, a == CLAIM, a == DECLINE, a < AVOID_BLACK, a == AVOID_BLACK, a == TAKE_BLACK],
                            [0, 1, 2, 3, 4, 5], 6)
        bid = lambda t, a: self._bid(t, bids, reveal)
        t = jax.lax.switch(branch, [bid, self._claim, self._decline, self._keep, self._avoid, self._take_black, self._pick], t, a)
        first_op = t.op
        top = jnp.maximum(g.top, 0)
        context = (g.order, jnp.where(g.top >= 0, jnp.asarray(self.t.modifier)[top], 0), jnp.asarray(self.t.targets)[jnp.maximum(bids, 0)])
        t, passes = jax.lax.while_loop(lambda c: c[0].op != DONE, lambda c: (self._resolve(c[0], context, uniforms), c[1] + 1), (t, _I32(0)))
        g = self._apply_takes(g, t)
        g = when(t.new_round, self._start_round, g)
        over = g.pending == PH_OVER
        rewards = jnp.where(over, rank_rewards(self.scores_of(g)), 0.0).astype(jnp.float32)
        return self._wrap(g, rewards, passes * 8 + first_op)  # measurement only: passes and the first stage

def main():
    n = int(sys.argv[1]); batch = 1024
    env = Counted(num_players=n)
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))
    states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), batch))
    key = jax.random.PRNGKey(1)
    per_game, per_step_max, first = [], [], []
    for i in range(300):
        key, a, s = jax.random.split(key, 3)
        states = step(states, uniform_legal(a, states.legal_action_mask), jax.random.split(s, batch))
        v = np.asarray(states._step_count)
        p = v // 8
        if i > 50:
            per_game.append(p); per_step_max.append(p.max()); first.append(v % 8)
    per_game = np.concatenate(per_game); first = np.concatenate(first)
    print("passes per game-step: mean %.2f" % per_game.mean(), {int(k): round(float((per_game == k).mean()), 3) for k in np.unique(per_game)})
    print("loop iterations per batch step (max): mean %.2f" % np.mean(per_step_max), {int(k): int((np.array(per_step_max) == k).sum()) for k in np.unique(per_step_max)})
    names = ["DONE", "NEXT", "ROLL", "FAIL", "CPICK"]
    for k in range(5):
        sel = first == k
        if sel.any():
            print(f"first stage {names[k]:6s} share {sel.mean():.3f}: passes", {int(x): round(float((per_game[sel] == x).mean()), 3) for x in np.unique(per_game[sel])})


if __name__ == "__main__":
    main()
