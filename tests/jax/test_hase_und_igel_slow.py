"""The long differential run of the Hase und Igel JAX engine: ≥ 300 seeded games per player count
and variant (``hase_und_igel_cases.SLOW_CONFIGS``), driven by the endgame driver, every decision
compared by the harness; what the games reached is printed and asserted (finishing, the final
stretch, stuck runners, every hare card and every kind of decision, terminated and truncated games).

Minutes per configuration, so out of the default suite: run with

    MEADOWZOO_SLOW=1 python -m pytest -m slow -s -n 0 tests/jax/test_hase_und_igel_slow.py
    MEADOWZOO_SLOW_GAMES=50 …    # fewer games per configuration
"""

from __future__ import annotations

import os

import pytest

import meadowzoo.jax
from meadowzoo.envs.core import jax_harness
from meadowzoo.envs.hase_und_igel import data
from tests.jax.hase_und_igel_cases import SLOW_CONFIGS, Events, driver

GAMES = int(os.environ.get("MEADOWZOO_SLOW_GAMES", "300"))

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.environ.get("MEADOWZOO_SLOW") != "1", reason="long run: set MEADOWZOO_SLOW=1"),
]


@pytest.mark.parametrize("label, options", SLOW_CONFIGS, ids=[label for label, _ in SLOW_CONFIGS])
def test_identical_to_reference_long(label, options):
    env = meadowzoo.jax.make("hase_und_igel", **options)
    events = Events()
    figures = jax_harness.run_differential(env, GAMES, seed=1000, on_state=events, policy=driver(seed=1000))
    counts = events.counts
    print(f"\n{label}: {figures.games} games ({figures.games - figures.truncated} finished, "
          f"{figures.truncated} truncated), {figures.decisions} decisions, {figures.observations} observations "
          f"compared in {figures.seconds:.0f} s; reached: {dict(sorted(counts.items()))}")
    assert figures.games == GAMES
    assert figures.games - figures.truncated > 0
    for kind in data.CARD_KINDS:
        assert counts[f"card {kind}"] > 0, kind
    for event in ("finish", "stuck", "eat", "payout", "decision card_carrots", "decision extra_move"):
        assert counts[event] > 0, event
    if env.rpp == 1 and env.n >= 3:
        assert counts["final_stretch"] > 0
    if env.rpp == 2:
        assert counts["decision stuck"] > 0
    if GAMES >= 300:
        hidden = jax_harness.check_hidden_information(env, 20, seed=2000, policy=driver(seed=2000))
        print(f"{label}: hidden information unchanged in {hidden} resampled (state, observer) pairs")
