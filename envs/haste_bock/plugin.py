"""The Haste Bock? plug-in: what the rest of meadowzoo needs to know about this game
(see :mod:`meadowzoo.envs.core.plugin`)."""

from meadowzoo.envs.core.plugin import GamePlugin

PLUGIN = GamePlugin(
    name="haste_bock",
    title="Haste Bock?",
    env_module="meadowzoo.envs.haste_bock_v0",
    player_counts=(2, 3, 4),
    jax_engine="meadowzoo.envs.haste_bock.jax_engine:HasteBockJax",
)
