"""What every meadowzoo game shares: the forward-model contract, the AEC adapter, rank rewards,
snapshot validation and the registry."""

from meadowzoo.envs.core.aec import MeadowEnv, wrap
from meadowzoo.envs.core.game import Game, IllegalActionError
from meadowzoo.envs.core.rewards import rank_rewards

__all__ = ["Game", "IllegalActionError", "MeadowEnv", "rank_rewards", "wrap"]
