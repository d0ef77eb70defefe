"""Every JAX engine takes the PettingZoo env's ``truncation_scoring="draw"`` (its own scoring of a
cut game) and refuses ``"standing"`` with a clear error (the JAX trainer applies the standing
itself, :mod:`meadowzoo.training.jax_ppo`)."""

from __future__ import annotations

import pytest

pytest.importorskip("jax")
pytest.importorskip("pgx")

import meadowzoo.jax  # noqa: E402
from meadowzoo.envs import GAMES  # noqa: E402


@pytest.mark.parametrize("game", GAMES)
def test_draw_is_accepted_and_standing_refused(game):
    engine = meadowzoo.jax.make(game, num_players=2, truncation_scoring="draw")
    assert "truncation_scoring" not in engine.options  # the reference env keeps its default
    assert engine.reference_env().truncation_scoring == "draw"
    with pytest.raises(ValueError, match="truncation_scoring 'standing' is not supported by the JAX engine"):
        meadowzoo.jax.make(game, num_players=2, truncation_scoring="standing")
    with pytest.raises(ValueError, match="truncation_scoring must be one of"):
        meadowzoo.jax.make(game, num_players=2, truncation_scoring="lose")
