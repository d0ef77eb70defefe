"""Haste Bock? ablations (wrong on purpose, as session 35's ablate_hb.py) on this machine: the
observation replaced by a broadcast (random play does not read it: the same games), the sheep
move left out, the row points zero.
PYTHONPATH=. .venv/bin/python results/engine_speed/2026-12-07_session36/ablate_hb.py PLAYERS CALLS base2,obs,moved,rowpts"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session34"))
import meadowzoo.jax as mjax  # noqa: E402

mjax.use_cpu_devices(2)
import jax.numpy as jnp  # noqa: E402

import benchmarks.jax_speed as js  # noqa: E402
from interleave import compare  # noqa: E402
from meadowzoo.envs.haste_bock.jax_engine import HasteBockJax  # noqa: E402

players, calls, which = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].split(",")


class NoObs(HasteBockJax):
    def _observation(self, state, seat):
        return jnp.broadcast_to(state.pos[0].astype(jnp.float32), self.observation_shape)


class StandStill(HasteBockJax):
    def _moved(self, state, t, m, panic):
        return state.pos


class NoRowPoints(HasteBockJax):
    def _row_points(self, pos, facing):
        zero = jnp.zeros(9, jnp.int32)
        return zero, zero


classes = {"base": HasteBockJax, "base2": HasteBockJax, "obs": NoObs, "moved": StandStill, "rowpts": NoRowPoints}
runners = {k: js.JaxRunner(classes[k](num_players=players), 1024, 32, devices=2) for k in ["base"] + which}
compare(runners, calls, "base")
