"""Gymnasium ids of the single-agent self-play views (:class:`meadowzoo.training.selfplay.SelfPlayEnv`).

Registered by ``import meadowzoo`` with a string entry point, so that registering imports neither
the view nor its players; ``gymnasium.make`` imports them when a view is made.
"""

from __future__ import annotations

import gymnasium

from meadowzoo.envs.registry import GAMES, plugin

#: game name -> Gymnasium id of its self-play view (each game's plug-in declares its ``gym_id``)
GYM_IDS = {game: plugin(game).gym_id for game in GAMES if plugin(game).gym_id}


def register_gymnasium() -> None:
    for game, env_id in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="meadowzoo.training.selfplay:SelfPlayEnv",
                               kwargs={"game": game})
