"""Gymnasium ids of the single-agent self-play views (:class:`meadowzoo.training.selfplay.SelfPlayEnv`).

Registered by ``import meadowzoo`` with a string entry point, so that registering imports neither
the view nor its players; ``gymnasium.make`` imports them when a view is made.
"""

from __future__ import annotations

import gymnasium

#: game name -> Gymnasium id of its self-play view
GYM_IDS = {"hase_und_igel": "meadowzoo/HaseUndIgel-v0", "haste_bock": "meadowzoo/HasteBock-v0",
           "volle_wolle": "meadowzoo/VolleWolle-v0"}


def register_gymnasium() -> None:
    for game, env_id in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="meadowzoo.training.selfplay:SelfPlayEnv",
                               kwargs={"game": game})
