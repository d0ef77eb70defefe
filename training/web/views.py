"""The per-seat page data of a game: what one seat may see, drawn, with its legal moves.

Each game declares a view module in its plug-in (``GamePlugin.view``) with

* ``seat_view(game, seat, reveal=False) -> dict``: JSON data of what ``seat`` observes (public
  state plus that seat's own private information; ``seat=None`` is a spectator with no private
  information; ``reveal=True`` shows every secret for replays of finished games);
* ``draw(view) -> Scene``: the picture, drawn from that data only;
* ``anchor(game, action) -> str | None``: the drawn element an action is played by clicking;
* optionally ``events(game) -> list[str]`` (what happened automatically after a move) and
  ``secret(game, action)`` / ``revealed(game, key)`` (moves hidden from the other seats until
  revealed, e.g. Volle Wolle's bids).

The page is built from these alone, never by serialising the full game state, so a seat's page
and messages hold nothing the seat does not observe.
"""

from __future__ import annotations

from functools import lru_cache
from types import ModuleType
from typing import Any

import numpy as np

from meadowzoo.envs import plugin
from meadowzoo.envs.core.plugin import load


@lru_cache(maxsize=None)
def view_module(game: str) -> ModuleType:
    reference = plugin(game).view
    if reference is None:
        raise ValueError(f"{game} declares no browser view (GamePlugin.view)")
    return load(reference)


def legal_moves(env: Any, seat: int) -> list[dict]:
    """The legal actions of ``seat`` from its action mask (empty unless it is to move), each with
    its readable name and the anchor it is clicked on."""
    module = view_module(env.game.name)
    mask = env.action_mask(env.possible_agents[seat])
    return [{"action": int(a), "name": env.action_to_string(int(a)), "anchor": module.anchor(env.game, int(a))}
            for a in np.flatnonzero(mask)]


def picture(env: Any, seat: int | None, reveal: bool = False) -> tuple[dict, str]:
    """``seat``'s view data and its SVG drawing."""
    module = view_module(env.game.name)
    view = module.seat_view(env.game, seat, reveal)
    return view, module.draw(view).svg()


def frame_image(env: Any):
    """A replay frame as a Pillow image (every secret shown: the game is over)."""
    module = view_module(env.game.name)
    return module.draw(module.seat_view(env.game, None, True)).image()


def automatic_events(env: Any) -> list[str]:
    """What the game did by itself after the last move (public by every game's rules)."""
    events = getattr(view_module(env.game.name), "events", None)
    return events(env.game) if events else []


def secret_key(env: Any, action: int) -> Any:
    """``None`` if ``action`` is public as soon as it is made; else the key that ``is_revealed``
    takes (the current state is the one the action is made in)."""
    secret = getattr(view_module(env.game.name), "secret", None)
    return secret(env.game, action) if secret else None


def is_revealed(env: Any, key: Any) -> bool:
    return view_module(env.game.name).revealed(env.game, key)
