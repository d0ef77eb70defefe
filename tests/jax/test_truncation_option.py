"""Every JAX engine takes the PettingZoo env's ``truncation_scoring``: ``"draw"`` (0 for everybody
when ``max_turns`` cuts a game) and ``"standing"`` (the rank rewards of the standing at the cut, in
the cutting step), and refuses anything else. With "standing" the harness proves the cut games'
rewards equal to the PettingZoo env's (and the standing itself at every decision)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("pgx")

import meadowzoo.jax  # noqa: E402
from meadowzoo.envs import GAMES  # noqa: E402
from meadowzoo.envs.core import jax_harness  # noqa: E402


@pytest.mark.parametrize("game", GAMES)
def test_both_scorings_are_taken_and_reach_the_reference_env(game):
    engine = meadowzoo.jax.make(game, num_players=2, truncation_scoring="draw")
    assert "truncation_scoring" not in engine.options  # the default stays implicit, as the env's
    assert engine.truncation_scoring == engine.reference_env().truncation_scoring == "draw"
    engine = meadowzoo.jax.make(game, num_players=2, truncation_scoring="standing")
    assert engine.truncation_scoring == engine.reference_env().truncation_scoring == "standing"
    with pytest.raises(ValueError, match="truncation_scoring must be one of"):
        meadowzoo.jax.make(game, num_players=2, truncation_scoring="lose")


class Cuts:
    """Counts the games that ended by the cut, with the rewards the engine paid there."""

    def __init__(self):
        self.rewards = []

    def __call__(self, state, ref):
        if bool(state.truncated):
            self.rewards.append(np.asarray(state.rewards).tolist())


@pytest.mark.parametrize("game, options", [
    ("haste_bock", {"num_players": 3, "max_turns": 12}),
    ("hase_und_igel", {"num_players": 4, "teams": "2x2", "max_turns": 30}),
])
def test_cut_games_pay_the_standing_as_the_env_does(game, options):
    """HB and HUI (teams: a team shares its best member's place): the harness compares the cutting
    step's rewards with the PettingZoo env's ``truncation_scoring="standing"`` rewards."""
    engine = meadowzoo.jax.make(game, truncation_scoring="standing", **options)
    cuts = Cuts()
    figures = jax_harness.run_differential(engine, games=3, seed=7, on_state=cuts)
    assert figures.truncated == 3 and len(cuts.rewards) == 3
    assert all(any(r != 0 for r in rewards) for rewards in cuts.rewards)  # a standing, not a draw
    assert all(abs(sum(rewards)) < 1e-5 for rewards in cuts.rewards)  # rank rewards sum to zero
