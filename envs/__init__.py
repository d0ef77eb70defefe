"""meadowzoo environments. Importing this package registers every game with PettingZoo:

>>> import envs, pettingzoo
>>> env = pettingzoo.make("aec", "meadowzoo/hase_und_igel-v0", num_players=4)
"""

from envs.registry import GAMES, env_id, game_module, register_all

register_all()

__all__ = ["GAMES", "env_id", "game_module", "register_all"]
