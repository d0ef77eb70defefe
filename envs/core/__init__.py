"""What every meadowzoo game shares: the forward-model contract, the AEC adapter, rank rewards,
snapshot validation and the registry."""

from envs.core.aec import MeadowEnv, wrap
from envs.core.game import Game, IllegalActionError
from envs.core.rewards import rank_rewards

__all__ = ["Game", "IllegalActionError", "MeadowEnv", "rank_rewards", "wrap"]
