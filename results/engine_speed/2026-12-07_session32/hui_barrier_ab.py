import sys; import os; sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session31")); import ab2dev
import jax, jax.numpy as jnp
import envs.hase_und_igel.jax_engine as U

class ObsBarrier(U.HaseUndIgelJax):
    def _observe(self, s, player_id):
        s, player_id = jax.lax.optimization_barrier((s, player_id))
        return self.observation(s, player_id)

class BothBarrier(ObsBarrier):
    def _publish(self, s, was_over):
        s = jax.lax.optimization_barrier(s)
        return super()._publish(s, was_over)

if __name__ == "__main__":
    from ab2dev import compare
    n = int(sys.argv[1])
    compare({"main": U.HaseUndIgelJax(num_players=n), "obs_barrier": ObsBarrier(num_players=n),
             "both_barrier": BothBarrier(num_players=n)}, calls=100)
