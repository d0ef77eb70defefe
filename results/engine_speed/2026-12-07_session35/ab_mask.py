"""A/B: Haste Bock?'s _mask variants (jump flags from words per use); same games required."""
import sys, os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session34"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import benchmarks.jax_speed as js
from interleave import compare
from meadowzoo.envs.haste_bock.jax_engine import HasteBockJax
players = int(sys.argv[1]); calls = int(sys.argv[2]); which = sys.argv[3].split(",")

from hb_variant import method_variant
# the engine's _mask with one or both lines replaced
OWN = ("        own_jumps = jumps[own].reshape(-1)\n        own_can_jump = jnp.any(jump_words[own] != 0)\n",
       "        own_words = sum(jnp.where(p == q, jump_words[2 * q:2 * q + 2], 0) for q in range(self.n))  # one-hot over the seats\n"
       "        own_jumps = self._jump_flags(own_words).reshape(-1)\n        own_can_jump = jnp.any(own_words != 0)\n")
PANICS = ("        panics = (state.pending == PANIC) & (jumps & jnp.asarray(T.RAMMERS)[die][:, None, None]).reshape(-1)\n",
          "        allowed = (state.pending == PANIC) & jnp.asarray(T.RAMMERS)[die]  # words masked, then expanded\n"
          "        panics = self._jump_flags(jnp.where(allowed[:, None], jump_words, 0)).reshape(-1)\n")


def mask_variant(*replacements):
    return method_variant("    def _mask(self", "    # ---- moves on the board", replacements)


classes = {"base": HasteBockJax, "base2": HasteBockJax, "same": mask_variant(), "words": mask_variant(PANICS),
           "onehot": mask_variant(OWN), "both": mask_variant(OWN, PANICS)}
runners = {k: js.JaxRunner(classes[k](num_players=players), 1024, 32, devices=2) for k in ["base"] + which}
compare(runners, calls, "base")
