"""A/B: Haste Bock?'s _mask variants (jump flags from words per use); same games required."""
import sys, os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session34"))
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import numpy as np, jax, jax.numpy as jnp
import benchmarks.jax_speed as js
from interleave import compare
from meadowzoo.envs.haste_bock.jax_engine import HasteBockJax, CARD, MOVE, PANIC, TILE, MOVE_BASE, PANIC_BASE, NUM_KINDS
from meadowzoo.envs.haste_bock import jax_tables as T, data as D
players = int(sys.argv[1]); calls = int(sys.argv[2]); which = sys.argv[3].split(",")
i32 = jnp.int32
BITS = jnp.arange(T.RAY_LEN, dtype=i32)

def flags(words):
    return ((words[..., None] >> BITS) & 1).astype(jnp.bool_)

class Base(HasteBockJax):
    pass

def mask_variant(own_mode, panic_mode):
    class V(HasteBockJax):
        def _mask(self, state, jump_words):
            p = jnp.maximum(state.player, 0)
            own = jnp.stack([2 * p, 2 * p + 1])
            step_to = jnp.asarray(T.STEP_SQ)[state.pos[own]]
            steps = ((step_to != T.OFF) & ~jnp.any(step_to[..., None] == state.pos, axis=-1)).reshape(-1)
            if own_mode == "gather":
                own_words = jump_words[own]
            else:  # one-hot over the players' static pairs of sheep
                own_words = sum(jnp.where(p == q, jump_words[2 * q:2 * q + 2], 0) for q in range(self.n))
            own_jumps = flags(own_words).reshape(-1)
            own_can_jump = jnp.any(own_words != 0)
            caravans = self._caravans(state.pos)
            troughs = self._troughs(state.pos, state.no_trough)
            herds = jnp.arange(2) != state.no_herd
            n_diag = 2 * 30
            has_move = jnp.stack([jnp.any(steps), own_can_jump, own_can_jump, jnp.any(caravans[:n_diag]),
                                  jnp.any(caravans[n_diag:]), jnp.any(troughs), jnp.bool_(True)])
            hand = state.hands[p] > 0
            at_card = state.pending == CARD
            cards = at_card & hand & jnp.repeat(has_move, 3)
            fallback = at_card & ~jnp.any(cards)
            discards = fallback & hand
            moves = jnp.concatenate([steps, own_jumps, own_jumps, caravans, troughs, herds])
            move_type = jnp.asarray(T.ACTION_T[MOVE_BASE:PANIC_BASE])
            moves = moves & (state.pending == MOVE) & (move_type == state.card_kind // 3)
            die = jnp.clip(state.die, 0, len(D.DIE_FACES) - 1)
            if panic_mode == "flags":
                panics = (state.pending == PANIC) & (flags(jump_words) & jnp.asarray(T.RAMMERS)[die][:, None, None]).reshape(-1)
            else:  # words masked first, then expanded
                allowed = (state.pending == PANIC) & jnp.asarray(T.RAMMERS)[die]
                panics = flags(jnp.where(allowed[:, None], jump_words, 0)).reshape(-1)
            tiles = jnp.concatenate([jnp.array([not self.tile_mandatory]), state.tiles[p] > 0]) & (state.pending == TILE)
            return jnp.concatenate([cards, discards, moves, panics, tiles])
    return V

classes = {"base": Base, "base2": Base, "same": mask_variant("gather", "flags"), "words": mask_variant("gather", "words"),
           "onehot": mask_variant("onehot", "flags"), "both": mask_variant("onehot", "words")}
runners = {k: js.JaxRunner(classes[k](num_players=players), 1024, 32, devices=2) for k in ["base"] + which}
compare(runners, calls, "base")
