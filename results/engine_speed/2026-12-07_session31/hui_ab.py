"""A/B: Hase und Igel's square searches (max/min over the 65 positions) as reductions over
chunks of at most 32 (XLA's CPU compiler rewrites a reduction over more than 32 elements into
an unfused reduce-window + reduce)."""
import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__))); import ab2dev
import jax, jax.numpy as jnp
import envs.hase_und_igel.jax_engine as U
from envs.hase_und_igel.jax_engine import SQUARES, IS_LETTUCE, IS_HEDGEHOG, ON_TRACK, NUM_POS, GOAL, data, _get

def chunked(reduce, x, chunk=32):
    return reduce(jnp.stack([reduce(x[i:i + chunk]) for i in range(0, x.shape[0], chunk)]))

def reshaped(reduce, x):
    return reduce(x.reshape(5, 13))

def variant(red):
    class V(U.HaseUndIgelJax):
        def _fall_back_target(self, s, runner, occupied):
            p = _get(s.pos, runner)
            behind = jnp.max(jnp.where((s.pos > 0) & (s.pos < p) & (s.place == 0), s.pos, -1))
            lettuce_ok = (_get(s.lettuces, runner // self.rpp) > 0) | ~IS_LETTUCE
            ok = (SQUARES >= 1) & (SQUARES < behind) & ~occupied & lettuce_ok
            return jnp.where(behind < 0, -1, red(jnp.max, jnp.where(ok, SQUARES, data.START)))

        def _move_up_target(self, s, runner, occupied):
            p = _get(s.pos, runner)
            player = runner // self.rpp
            ahead = jnp.min(jnp.where((s.pos > p) & (s.pos < GOAL) & (s.place == 0), s.pos, NUM_POS))
            lettuce_ok = (_get(s.lettuces, player) > 0) | ~IS_LETTUCE
            ok = (SQUARES > ahead) & ON_TRACK & ~occupied & ~IS_HEDGEHOG & lettuce_ok
            square = red(jnp.min, jnp.where(ok, SQUARES, NUM_POS))
            goal = jnp.where(self._can_finish(s, player, _get(s.carrots, player)), GOAL, -1)
            return jnp.where(ahead == NUM_POS, -1, jnp.where(square < NUM_POS, square, goal))
    return V

if __name__ == "__main__":
    from ab2dev import compare
    n = int(sys.argv[1]); devices = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    compare({"main": U.HaseUndIgelJax(num_players=n), "chunked": variant(chunked)(num_players=n),
             "reshaped": variant(reshaped)(num_players=n), "main2": U.HaseUndIgelJax(num_players=n)}, calls=100, devices=devices)
