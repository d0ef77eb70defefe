"""How a game cut short at ``max_turns`` is scored: the env option ``truncation_scoring``.

* ``"draw"`` (the default): a cut game is a draw, reward 0 for everybody;
* ``"standing"``: every player gets the rank reward (:mod:`meadowzoo.envs.core.rewards`) of its
  place in the standing at the cut — the places the game's plug-in ``standing`` gives (Hase und
  Igel, a race without points: race positions, HUI-15, :mod:`meadowzoo.envs.hase_und_igel.standing`),
  else the game's own ``places()`` (games scored by points rank by their points as if the game
  ended now, ``scores()``).

One implementation for the AEC envs (:class:`meadowzoo.envs.core.aec.MeadowEnv`), the self-play
view and tournaments' ``--truncated standing`` (:mod:`meadowzoo.training.tournament`). The JAX
engines take the same option and compute the same standing in JAX (``standing_rewards``, proven
equal at every decision by :mod:`meadowzoo.envs.core.jax_harness`); the JAX trainer scores cut
games with it.
"""

from __future__ import annotations

from typing import Any

from meadowzoo.envs.core.rewards import rank_rewards

#: the values of the ``truncation_scoring`` option, the default first
TRUNCATION_SCORING = ("draw", "standing")


def check_truncation_scoring(value: Any) -> str:
    """``value`` if it is a known ``truncation_scoring``, else ``ValueError`` naming the choices."""
    if not isinstance(value, str) or value not in TRUNCATION_SCORING:
        raise ValueError(f"truncation_scoring must be one of {TRUNCATION_SCORING}, got {value!r}")
    return value


def standing_places(game: Any) -> list[int]:
    """Places (0 = best, ties share) of every player of ``game`` (a rules object, see
    :mod:`meadowzoo.envs.core.game`) by its standing now: the plug-in's ``standing``, else
    ``places()``."""
    from meadowzoo.envs.core.plugin import load  # the registry imports every game's plug-in
    from meadowzoo.envs.registry import plugin

    standing = plugin(game.name).standing
    return load(standing)(game) if standing is not None else game.places()


def standing_rewards(game: Any) -> list[float]:
    """Rank rewards (+1 first … −1 last, ties and teams share) of ``game``'s standing now."""
    return rank_rewards(standing_places(game), game.teams())
