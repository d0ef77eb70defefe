"""Training hyperparameters, one readable place per game.

Each field is a MaskablePPO argument or a setting of the self-play loop in :mod:`meadowzoo.training.train`.
Values were chosen for 2-core CPU machines: a small MLP, moderate rollouts, frequent evaluation.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace


@dataclass(frozen=True)
class TrainConfig:
    # network and PPO
    net_arch: tuple[int, ...] = (256, 256)
    learning_rate: float = 3e-4
    n_steps: int = 1024  # per env, per rollout
    batch_size: int = 256
    n_epochs: int = 5
    gamma: float = 0.995  # rewards come only at the end of long games
    gae_lambda: float = 0.95
    ent_coef: float = 0.01
    clip_range: float = 0.2
    # self-play loop
    opponents: str = "random"  # fixed members of the opponent pool
    fixed_share: float = 0.5  # share of opponents drawn from the fixed members once snapshots exist
    snapshot_threshold: float = 0.6  # ladder score that earns the learner a frozen copy in the pool
    eval_every: int = 20_000  # timesteps between ladder evaluations
    eval_games: int = 40  # games per ladder opponent in those evaluations
    ladder: str = "random"  # opponents of the periodic evaluation
    # timesteps between resumable checkpoints: about a minute of training at the slowest (advised
    # policies), so a killed run loses at most that
    checkpoint_every: int = 5_000

    def as_dict(self) -> dict:
        return asdict(self)


CONFIGS: dict[str, TrainConfig] = {
    # long races, ~100-300 decisions a game, few actions at a time
    "hase_und_igel": TrainConfig(gamma=0.998, n_steps=2048),
    # ~40 decisions a game, a large action space with few legal moves
    "haste_bock": TrainConfig(net_arch=(256, 256), ent_coef=0.005),
    # ~100 short decisions a game (bids, dice, picks)
    "volle_wolle": TrainConfig(),
}


def config_for(game: str, **overrides) -> TrainConfig:
    """The game's configuration with command-line overrides (None values ignored)."""
    return replace(CONFIGS[game], **{k: v for k, v in overrides.items() if v is not None})
