"""Two observation values and their docstrings agree (issue 15, item 8): Volle Wolle's "cards
still to pick" (offset 17) and Haste Bock?'s no-undo restrictions (offsets 915–920). The reference
encoders and the fast ones are compared at every step elsewhere (tests/core/test_observations.py),
the JAX engines by the differential harness (tests/jax); here the values are checked against what
the rules then do."""

from __future__ import annotations

import numpy as np
import pytest

import meadowzoo  # noqa: F401  (registers the games)
from meadowzoo.envs.haste_bock import env as HB
from meadowzoo.envs.haste_bock.rules import CARD, PANIC
from meadowzoo.envs.haste_bock_v0 import raw_env as haste_bock_env
from meadowzoo.envs.volle_wolle import rules as VW
from meadowzoo.envs.volle_wolle_v0 import raw_env as volle_wolle_env

PICKING = 17  # Volle Wolle: the "picking" block, cards still to pick then black-only


@pytest.mark.parametrize("players", [2, 3, 5])
def test_volle_wolle_cards_still_to_pick_is_the_number_the_picker_then_takes(players, monkeypatch):
    """At every pick decision, offset 17 equals the number of cards the picker takes from then until
    its pick ends (VW-10: fewer if fewer are left; take-all and black-sheep picks included)."""
    taken: list[int] = []  # the picker of every card taken, in order
    take = VW.VolleWolleGame._take_slot

    def logged(game, slot):
        taken.append(game.cur)
        take(game, slot)

    monkeypatch.setattr(VW.VolleWolleGame, "_take_slot", logged)
    env = volle_wolle_env(num_players=players)
    rng = np.random.default_rng(players)
    open_picks: list[list[int]] = []  # [picker, shown value, cards taken so far]
    checked = capped = 0
    for seed in range(12):
        env.reset(seed=seed)
        while not env.game.is_over:
            game = env.game
            if game.pending == VW.PICK:
                shown = env.observe(env.agent_selection)["observation"][PICKING]
                open_picks.append([game.cur, shown, 0])
                capped += game.picks > (game.black_slots if game.black_only else game.present).bit_count()
            start = len(taken)
            env.step(int(rng.choice(env.legal_actions())))
            for record in open_picks:
                record[2] += taken[start:].count(record[0])
            game = env.game
            still = [r for r in open_picks if game.pending == VW.PICK and game.cur == r[0]]
            for picker, shown, count in (r for r in open_picks if r not in still):
                assert shown == count, f"shown {shown} cards still to pick, {picker} took {count}"
                checked += 1
            open_picks = still
    assert checked > 50 and capped > 5  # entitlements above the eligible cards were met and shown capped


def test_haste_bock_restrictions_during_a_panic_ram_are_the_next_cards_and_none_once_over():
    """Offsets 915–920 show the no-undo restriction of the current or next action card: during a
    panic ram (after the roller's card) the one the next card decision is under; zeros once over."""
    block = slice(HB.NO_TROUGH, HB.NO_TROUGH + 6)
    rng = np.random.default_rng(1)
    panics = ended_with_a_restriction = 0
    for seed in range(20):
        env = haste_bock_env(num_players=3)
        env.reset(seed=seed)
        at_panic = None
        while not env.game.is_over:
            game = env.game
            shown = env.observe(env.agent_selection)["observation"][block]
            if game.pending == PANIC and game.time > 0:  # a panic ram after a card (not the opening)
                at_panic = shown
            elif game.pending == CARD:
                expected = np.zeros(6, np.float32)
                if game.no_trough >= 0:
                    expected[game.no_trough] = 1
                if game.no_herd >= 0:
                    expected[4 + game.no_herd] = 1
                np.testing.assert_array_equal(shown, expected)  # the card player's own restriction
                if at_panic is not None:
                    np.testing.assert_array_equal(at_panic, shown)
                    panics += bool(at_panic.any())
                at_panic = None
            env.step(int(rng.choice(env.legal_actions())))
        ended_with_a_restriction += env.game.no_trough >= 0 or env.game.no_herd >= 0
        for agent in env.possible_agents:
            assert not env.observe(agent)["observation"][block].any()
    assert panics >= 3 and ended_with_a_restriction >= 1
