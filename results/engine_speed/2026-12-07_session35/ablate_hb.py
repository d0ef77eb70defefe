"""Ablations of Haste Bock?'s step (wrong on purpose): what each block costs in the benchmark program."""
import sys, os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session34"))
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import jax, jax.numpy as jnp
import benchmarks.jax_speed as js
from interleave import compare
from meadowzoo.envs.haste_bock.jax_engine import HasteBockJax
players = int(sys.argv[1]); calls = int(sys.argv[2]); which = sys.argv[3].split(",")

class NoJumps(HasteBockJax):
    @staticmethod
    def _jumps(pos, bits):
        return bits & ~(bits >> 1)
class NoPanics(HasteBockJax):
    def _mask(self, state, jump_words):
        m = super()._mask(state, jnp.zeros_like(jump_words))
        return m
class NoMoved(HasteBockJax):
    def _moved(self, state, t, m, panic):
        return state.pos
class NoFinish(HasteBockJax):
    def _row_points(self, pos, facing):
        z = jnp.zeros(9, jnp.int32); return z, z
class NoRays(HasteBockJax):
    @staticmethod
    def _ray_bits(pos):
        return jnp.broadcast_to((pos[:, None] * 7) & 0xFF, (9, 8)).astype(jnp.int32)
class NoCaravans(HasteBockJax):
    @staticmethod
    def _caravans(pos):
        return jnp.broadcast_to(pos[0] > 40, (96,))
class NoTroughs(HasteBockJax):
    @staticmethod
    def _troughs(pos, no_trough):
        return jnp.arange(4) != no_trough
classes = {"base": HasteBockJax, "base2": HasteBockJax, "jumps": NoJumps, "panics": NoPanics, "moved": NoMoved,
           "rowpts": NoFinish, "rays": NoRays, "caravans": NoCaravans, "troughs": NoTroughs}
runners = {k: js.JaxRunner(classes[k](num_players=players), 1024, 32, devices=2) for k in ["base"] + which}
compare(runners, calls, "base")
