"""A step that holds a finished game by itself (the engine's no-op branch), so that the core's
step needs no select of the whole old state against the stepped one (session 30 prototype)."""
import sys, os; sys.path.insert(0, os.path.dirname(__file__))
import jax, jax.numpy as jnp
from ab import bench
import meadowzoo.jax as mjax
from envs.core.jax_core import select_tree, chance_stream, when, rank_rewards
import envs.volle_wolle.jax_engine as E
from envs.volle_wolle.jax_engine import _I32, _TURN_FIELDS, Turn, DONE, PH_BID, PH_OVER, CLAIM, DECLINE, AVOID_BLACK, TAKE_BLACK

class Hold(E.VolleWolleJax):
    def _pgx_step(self, state, action, key):
        action = jnp.asarray(action)
        size = state.legal_action_mask.shape[-1]
        in_range = (action >= 0) & (action < size)
        action = jnp.clip(action, 0, size - 1)
        current_player = state.current_player
        finished = state.terminated | state.truncated
        is_illegal = ~(in_range & state.legal_action_mask[action]) & ~finished
        stepped = self._step_hold(state.replace(_step_count=state._step_count + 1), action, key, finished)
        stepped = stepped.replace(_step_count=jnp.where(finished, state._step_count, stepped._step_count),
                                  rewards=jnp.where(finished, 0.0, stepped.rewards),
                                  terminated=jnp.where(finished, state.terminated, stepped.terminated),
                                  truncated=jnp.where(finished, state.truncated, stepped.truncated))
        state = select_tree(is_illegal, self._step_with_illegal_action(stepped, current_player), stepped)
        state = state.replace(legal_action_mask=state.legal_action_mask | state.terminated)
        return state.replace(observation=jax.lax.stop_gradient(self._observe(state, state.current_player)))

    def _step_hold(self, state, action, key, hold):
        n = self.t.n
        uniforms = chance_stream(key, 3 * n)
        g = state._x
        a = jnp.asarray(action, _I32)
        players = jnp.arange(n)
        bidding = (g.pending == PH_BID) & ~hold
        bids = jnp.where(bidding & (players == g.cur), a, g.bids)
        reveal = bidding & (g.cur + 1 >= n)
        g = g.replace(bids=bids, order=jnp.where(reveal, self._order(g, bids), g.order), revealed=g.revealed | reveal)
        t = Turn(**{name: getattr(g, name) for name in _TURN_FIELDS}, taker=jnp.full(n + 1, -1, _I32),
                 tseq=jnp.zeros(n + 1, _I32), seq=_I32(0), c=_I32(0), op=_I32(DONE), new_round=jnp.bool_(False))
        branch = jnp.select(
            [hold, bidding, a == CLAIM, a == DECLINE, a < AVOID_BLACK, a == AVOID_BLACK, a == TAKE_BLACK],
            [7, 0, 1, 2, 3, 4, 5], 6)
        bid = lambda t, a: self._bid(t, bids, reveal)
        t = jax.lax.switch(branch, [bid, self._claim, self._decline, self._keep, self._avoid, self._take_black,
                                    self._pick, lambda t, a: t], t, a)
        top = jnp.maximum(g.top, 0)
        context = (g.order, jnp.where(g.top >= 0, jnp.asarray(self.t.modifier)[top], 0),
                   jnp.asarray(self.t.targets)[jnp.maximum(bids, 0)])
        t = jax.lax.while_loop(lambda t: t.op != DONE, lambda t: self._resolve(t, context, uniforms), t)
        g = self._apply_takes(g, t)
        g = when(t.new_round, self._start_round, g)
        over = g.pending == PH_OVER
        rewards = jnp.where(over, rank_rewards(self.scores_of(g)), 0.0).astype(jnp.float32)
        return self._wrap(g, rewards, state._step_count)

if __name__ == "__main__":
    n = int(sys.argv[1])
    bench({"base": mjax.make("volle_wolle", num_players=n), "hold": Hold(num_players=n)})
