"""Ablations of Haste Bock?'s observation (wrong on purpose)."""
import sys, os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session34"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import numpy as np, jax, jax.numpy as jnp
import benchmarks.jax_speed as js
from interleave import compare
import meadowzoo.envs.haste_bock.jax_engine as J
from meadowzoo.envs.core.jax_core import SparseObservation
players = int(sys.argv[1]); calls = int(sys.argv[2]); which = sys.argv[3].split(",")
from hb_variant import method_variant


def variant(replacements):  # the observation as it was before 6863d14 (the rows reordered by one-hot sums)
    old = method_variant("    def _observation(self", "    # ---- conversion with the reference engine", replacements, rev="269b391")

    class WithOrder(old):  # that observation read the seats' order from a table the engine no longer keeps
        def __init__(self, **options):
            super().__init__(**options)
            self.order = np.array([[(seat + i) % self.n for i in range(self.n)] for seat in range(self.n)], np.int32)

    return WithOrder


V = {
    "nodense": [("        obs.dense(jnp.stack([jnp.asarray(SCORE_FEATURE)[scores[k]] for k in range(n)]), 4)\n        obs.dense(ordered(state.hands), 4 * state.hands.shape[1])\n        obs.dense(ordered(state.tiles), 4 * state.tiles.shape[1])\n",
                 "        obs.constant(np.zeros(4 + 4 * state.hands.shape[1] + 4 * state.tiles.shape[1], np.float32))\n")],
    "noplanes": [("        obs.one_hots(squares, D.SQUARES)", "        obs.constant(np.zeros(D.SQUARES * squares.shape[0], np.float32))")],
    "nohands": [("        obs.dense(ordered(state.hands), 4 * state.hands.shape[1])\n", "        obs.constant(np.zeros(4 * state.hands.shape[1], np.float32))\n")],
    "unordered": [("        obs.dense(ordered(state.hands), 4 * state.hands.shape[1])\n", "        obs.dense(state.hands, 4 * state.hands.shape[1])\n"),
                  ("        obs.dense(ordered(state.tiles), 4 * state.tiles.shape[1])\n", "        obs.dense(state.tiles, 4 * state.tiles.shape[1])\n")],
}
classes = {"base": variant([]), "base2": variant([])}
classes.update({k: variant(v) for k, v in V.items()})
runners = {k: js.JaxRunner(classes[k](num_players=players), 1024, 32, devices=2) for k in ["base"] + which}
compare(runners, calls, "base")
