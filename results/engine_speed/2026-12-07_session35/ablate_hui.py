"""Ablations of Hase und Igel's step (wrong on purpose): what each block costs in the benchmark program."""
import sys, os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session34"))
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import jax, jax.numpy as jnp
import benchmarks.jax_speed as js
from interleave import compare
from meadowzoo.envs.hase_und_igel import jax_engine as J
from meadowzoo.envs.hase_und_igel.jax_engine import HaseUndIgelJax
players = int(sys.argv[1]); calls = int(sys.argv[2]); which = sys.argv[3].split(",")

class NoObs(HaseUndIgelJax):
    def observation(self, s, seat):
        return jnp.broadcast_to(s.pos[0].astype(jnp.float32), (self.obs_size,))
class NoDeckObs(HaseUndIgelJax):
    def write_deck_features(self, obs, s):
        import numpy as _np; obs.constant(_np.zeros(120 + 9 + 9, _np.float32))
class OneTurn(HaseUndIgelJax):
    def _begin_turn(self, s, pending):
        body = self._one_runner_turn if self.rpp == 1 else self._two_runner_turn
        return body(s, pending)[0]
class NoHasMove(HaseUndIgelJax):
    def _has_move(self, s, runner, allow_stay):
        return _get_true(s)
def _get_true(s):
    return s.pos[0] >= 0
class NoMask(HaseUndIgelJax):
    def runner_moves(self, s, runner, allow_stay):
        return jnp.arange(67) < 3 + (s.pos[0] % 3)
class NoDraw(HaseUndIgelJax):
    def _draw_cards(self, s, runner, do, uniforms):
        return s, jnp.bool_(False)
class PlainCarrots(HaseUndIgelJax):
    pass
import numpy as np
classes = {"base": HaseUndIgelJax, "base2": HaseUndIgelJax, "obs": NoObs, "deck": NoDeckObs, "oneturn": OneTurn,
           "hasmove": NoHasMove, "mask": NoMask, "draw": NoDraw}
runners = {k: js.JaxRunner(classes[k](num_players=players), 1024, 32, devices=2) for k in ["base"] + which}
compare(runners, calls, "base")
