"""Training hyperparameters: the defaults here, each game's differences in its plug-in.

Each field is a MaskablePPO argument or a setting of the self-play loop in :mod:`meadowzoo.training.train`.
Values were chosen for 2-core CPU machines: a small MLP, moderate rollouts, frequent evaluation.
A game's plug-in (``GamePlugin.training``, in ``envs/<game>/plugin.py``) lists the fields it sets
differently, with the reason next to them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace

from meadowzoo.envs.registry import plugin


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


def game_config(game: str) -> TrainConfig:
    """The game's configuration: the defaults with its plug-in's ``training`` fields."""
    declared = dict(plugin(game).training)
    unknown = sorted(set(declared) - {f.name for f in fields(TrainConfig)})
    if unknown:
        raise ValueError(f"{game}: the plug-in's training settings name no TrainConfig field: {unknown}")
    return TrainConfig(**declared)


def config_for(game: str, **overrides) -> TrainConfig:
    """The game's configuration with command-line overrides (None values ignored)."""
    return replace(game_config(game), **{k: v for k, v in overrides.items() if v is not None})
