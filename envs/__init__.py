"""meadowzoo environments. Importing this package registers every game with PettingZoo:

>>> import meadowzoo, pettingzoo
>>> env = pettingzoo.make("aec", "meadowzoo/hase_und_igel-v0", num_players=4)
"""

from meadowzoo.envs.registry import GAMES, env_id, game_module, plugin, register_all

register_all()

__all__ = ["GAMES", "env_id", "game_module", "plugin", "register_all"]
