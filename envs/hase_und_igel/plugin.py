"""The Hase und Igel plug-in: what the rest of meadowzoo needs to know about this game
(see :mod:`meadowzoo.envs.core.plugin`)."""

from meadowzoo.envs.core.plugin import GamePlugin

PLUGIN = GamePlugin(
    name="hase_und_igel",
    title="Hase und Igel",
    env_module="meadowzoo.envs.hase_und_igel_v0",
    player_counts=(2, 3, 4, 5, 6),
    jax_engine="meadowzoo.envs.hase_und_igel.jax_engine:HaseUndIgelJax",
)
