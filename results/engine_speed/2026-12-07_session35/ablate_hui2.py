"""Ablations on top of the bitboard variant (BitsTargets)."""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "2026-12-07_session34"))
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import numpy as np, jax, jax.numpy as jnp
import benchmarks.jax_speed as js
from interleave import compare
from meadowzoo.envs.hase_und_igel.jax_engine import HaseUndIgelJax as BitsTargets  # the engine has the bits since 269b391
from meadowzoo.envs.hase_und_igel.jax_engine import _get, _hot, _put, NUM_CARDS
players = int(sys.argv[1]); calls = int(sys.argv[2]); which = sys.argv[3].split(",")

class NoDeckObs(BitsTargets):
    def write_deck_features(self, obs, s):
        obs.constant(np.zeros(120 + 9 + 9, np.float32))
class NoUnseen(BitsTargets):
    def write_deck_features(self, obs, s):
        from meadowzoo.envs.hase_und_igel import env as pz_env
        slots = jnp.arange(pz_env.DECK_SLOTS, dtype=jnp.int32)
        deck_len = NUM_CARDS - s.top if self.reshuffle else NUM_CARDS
        at = ((s.top + slots) % NUM_CARDS)[:, None] == jnp.arange(NUM_CARDS, dtype=jnp.int32)
        cards = jnp.sum(jnp.where(at, s.cards[None, :], 0), axis=1)
        shown = jnp.where(slots >= s.known_from, cards, pz_env.NUM_KINDS)
        obs.one_hots(jnp.where(slots < deck_len, shown, -1), pz_env.CARD_FEATURES)
        obs.constant(np.zeros(9, np.float32))
        obs.one_hot(s.last_card, pz_env.NUM_KINDS)
class NoObs(BitsTargets):
    def observation(self, s, seat):
        return jnp.broadcast_to(s.pos[0].astype(jnp.float32), (self.obs_size,))
class NoDraw(BitsTargets):
    def _draw_cards(self, s, runner, do, uniforms):
        return s, jnp.bool_(False)
class NoPublishMask(BitsTargets):
    def legal_mask(self, s):
        return jnp.arange(self.num_actions) < 3 + (s.pos[0] % 3)
from meadowzoo.envs.hase_und_igel import jax_engine as J
class DeckOnly(BitsTargets):
    """the draw's deck bookkeeping, no card effects"""
    def _draw(self, s, runner, do, uniforms):
        cards, top, known_from, held = s.cards, s.top, s.known_from, s.unresolved
        slots = jnp.arange(NUM_CARDS, dtype=jnp.int32)
        card = _get(cards, top % NUM_CARDS)
        behind = (top - slots) % NUM_CARDS
        cards = jnp.where(behind == held, card, jnp.where(behind < held, jnp.roll(cards, 1), cards))
        next_top = (top + 1) % NUM_CARDS
        s = s.replace(cards=jnp.where(do, cards, s.cards), top=jnp.where(do, next_top, top),
                      known_from=jnp.where(do, jnp.maximum(known_from - 1, 0), known_from),
                      last_card=jnp.where(do, card, s.last_card), unresolved=held + do.astype(jnp.int32))
        return s, jnp.bool_(False), jnp.bool_(False)
class EffectsOnly(BitsTargets):
    """card effects of the top card, the deck not touched"""
    def _draw(self, s, runner, do, uniforms):
        card0 = s.cards[0]
        orig_cards = s.cards
        s2, asked, again = BitsTargets._draw(self, s, runner, do, uniforms)
        return s2.replace(cards=orig_cards, top=s.top, known_from=s.known_from, unresolved=s.unresolved), asked, again
classes = {"base": BitsTargets, "deckonly": DeckOnly, "effects": EffectsOnly, "base2": BitsTargets, "deck": NoDeckObs, "unseen": NoUnseen, "obs": NoObs, "draw": NoDraw, "mask": NoPublishMask}
runners = {k: js.JaxRunner(classes[k](num_players=players), 1024, 32, devices=2) for k in ["base"] + which}
compare(runners, calls, "base")
