"""The Volle Wolle plug-in: what the rest of meadowzoo needs to know about this game
(see :mod:`meadowzoo.envs.core.plugin`)."""

from meadowzoo.envs.core.plugin import GamePlugin

PLUGIN = GamePlugin(
    name="volle_wolle",
    title="Volle Wolle",
    env_module="meadowzoo.envs.volle_wolle_v0",
    player_counts=(2, 3, 4, 5, 6),
    jax_engine="meadowzoo.envs.volle_wolle.jax_engine:VolleWolleJax",
)
