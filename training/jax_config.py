"""Settings of the compiled self-play trainer (:mod:`meadowzoo.training.train_jax`).

Every field is a PPO hyperparameter, a setting of the opponent population or of the loop around the
compiled update. :class:`JaxTrainConfig` holds the defaults; each game's differences are the
``jax_training`` field of its plug-in (``envs/<game>/plugin.py``) and, for one player count, its
``jax_training_by_players``, which :func:`jax_config_for` lays over them; command-line flags
override single fields.

Sizes: one update plays ``num_steps`` learner steps in each of ``num_envs`` games (a learner step: the
learner's own move and the opponents' moves until its next turn; with ``passes_per_step`` some are
spent on opponents' moves only and are not learner decisions), then runs ``update_epochs`` passes
of ``num_minibatches`` minibatches over them.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields, replace

from meadowzoo.agents.mlp_policy import ACTIVATIONS
from meadowzoo.envs.core.standing import TRUNCATION_SCORING  # noqa: F401  (re-exported for the command line)

#: the trainer's samplers (:mod:`meadowzoo.training.jax_sampling`, which imports JAX; listed here so
#: that settings and the command line check without it)
SAMPLERS = ("inverse_cdf", "gumbel")
#: the network's matrix-product precisions (:mod:`meadowzoo.training.jax_network`; listed here so
#: that settings and the command line check without JAX)
MATMUL_DTYPES = ("float32", "bfloat16")
#: CPU flags (Linux ``/proc/cpuinfo``) of bfloat16 matrix instructions, which make bfloat16
#: products 2-3x faster than float32 ones (Intel AMX; AVX512-BF16 on Intel and AMD)
BFLOAT16_CPU_FLAGS = ("amx_bf16", "avx512_bf16")
#: how the PPO loss's log-probability and entropy terms are differentiated
#: (:mod:`meadowzoo.training.jax_policy_terms`; listed here so that settings check without JAX)
LOSS_GRADIENTS = ("fused", "autodiff")


def cpu_flags(cpuinfo: str = "/proc/cpuinfo") -> set[str] | None:
    """The first CPU's flags in ``cpuinfo`` (Linux), or None where it cannot be read (off Linux)."""
    try:
        with open(cpuinfo) as handle:
            return next((set(line.split(":", 1)[1].split()) for line in handle if line.startswith("flags")), set())
    except OSError:
        return None


def cpu_has_bfloat16_units(cpuinfo: str = "/proc/cpuinfo") -> bool:
    """Whether this machine's CPU reports bfloat16 matrix instructions (False where it cannot be
    read, e.g. off Linux)."""
    return any(flag in (cpu_flags(cpuinfo) or ()) for flag in BFLOAT16_CPU_FLAGS)


def resolve_matmul_dtype(setting: str) -> str:
    """``"auto"``: ``"bfloat16"`` on a CPU with bfloat16 matrix instructions, else ``"float32"``;
    any other setting as it is."""
    if setting != "auto":
        return setting
    return "bfloat16" if cpu_has_bfloat16_units() else "float32"


#: settings that runs recorded before the setting existed had (a checkpoint's or training record's
#: settings without the field mean this value, not today's default)
LEGACY_SETTINGS = {"sampler": "gumbel", "score_shaping": 0.0, "conv": [], "opponents_in_first_pass": True,
                   "matmul_dtype": "float32", "loss_gradient": "autodiff", "epoch_share": 1.0}


@dataclass(frozen=True)
class JaxTrainConfig:
    # network: separate actor and critic MLPs of these hidden widths
    hidden: tuple[int, ...] = (128, 128)
    activation: str = "tanh"
    # 3x3 convolutions (channel widths) over the board planes before the dense layers, for engines
    # that declare a board_shape (jax_network); () = none
    conv: tuple[int, ...] = ()
    # precision of the network's matrix products: "float32", or "bfloat16" (inputs rounded to
    # bfloat16, float32 sums; parameters, optimiser and all else float32; see jax_network), or
    # "auto": bfloat16 where the host CPU has bfloat16 matrix instructions, else float32 (it looks at
    # the CPU only: on a GPU, name the precision). A config holds
    # the resolved value, so runs record what they computed with; runs recorded before the setting
    # existed computed in float32 (LEGACY_SETTINGS)
    matmul_dtype: str = "auto"
    # PPO
    num_envs: int = 256  # games played side by side
    num_steps: int = 32  # learner decisions per game per update
    update_epochs: int = 2
    num_minibatches: int = 4
    # share of the rollout's rows (num_envs x num_steps learner steps, with a pass cap also those
    # that were not the learner's) that the PPO epochs run over: its valid rows (the learner's
    # decisions) in random order, filled up with rows that are not (masked out of the loss as
    # always). 1.0: every row, as every run before session 33. A capped rollout leaves a quarter
    # of its rows without a learner decision with 2 players (Haste Bock?, Volle Wolle) and more
    # than half with 4, each of which cost the epochs a forward and a backward pass for nothing;
    # a share just above the valid rows' cuts that waste (the games' values: their plug-ins).
    # An update with more valid rows than the share holds runs its epochs over every row, as
    # before (its ``epoch_rows`` metric says which): no decision is ever left out, the share
    # only sets how much work a typical update saves. Only with a pass cap: uncapped, every row
    # but those of the first update's games an opponent opens is the learner's
    epoch_share: float = 1.0
    learning_rate: float = 3e-4
    anneal_timesteps: int = 0  # the learning rate falls linearly to 0 over this many learner steps (0: constant)
    gamma: float = 0.995  # rewards come only at the end of a game
    gae_lambda: float = 0.95
    clip_eps: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    # how the loss's log-probability and entropy terms are differentiated: "fused" (a hand-written
    # gradient, one pass over the logits; Haste Bock?'s epochs ~12% faster) or "autodiff" (JAX's, as
    # every run before session 28). The same function to float32 rounding, not bit for bit
    # (jax_policy_terms), so a recorded run replays only with its own (LEGACY_SETTINGS)
    loss_gradient: str = "fused"
    # how actions are drawn from the masked policy in the rollout (learner and opponents):
    # "inverse_cdf" (one uniform per game) or "gumbel" (jax.random.categorical, one threefry draw
    # per action: on the CPU it cost Haste Bock? seven engine steps per decision). Same distribution,
    # other draws; runs recorded before this setting existed drew with "gumbel" (LEGACY_SETTINGS)
    sampler: str = "inverse_cdf"
    # moves per learner step: each game plays its learner's move (or, where an opponent is to move,
    # that opponent's), then opponents' moves until it is the learner's turn again, at most this many
    # moves in all (0: no cap). Under vmap every pass costs the whole batch, so without a cap a learner
    # step costs as many passes as the batch's longest run of opponent moves; a game stopped by the cap
    # goes on with its opponents in the next learner step, which is then not one of its learner's
    # (left out of the loss, its rewards carried to the learner's previous step)
    passes_per_step: int = 0
    # with a cap: whether the first pass of a learner step also plays the opponent's move in the games
    # the cap left at an opponent's turn (True), or only learners' moves, those games waiting for the
    # second pass (False: the first pass then runs no opponent forward pass; the learner sees the same
    # game, but such a game may need one more learner step that is not its learner's). No effect
    # without a cap; a cap of 1 needs True (else opponents would never move)
    opponents_in_first_pass: bool = True
    # opponent population (frozen snapshots of the learner, Elo-rated)
    population: int = 8  # capacity; the lowest-rated member is replaced when full
    opponent_slots: int = 8  # opponents per update: the games split into this many equal runs (per device), one per slot
    pfsp_power: float = 2.0  # slot draws weighted by (1 - learner's expected score)^power
    elo_k: float = 16.0  # Elo step per update (on the mean result of the update's finished games)
    snapshot_threshold: float = 0.6  # learner's expected score vs the best member that earns a snapshot
    snapshot_min_updates: int = 10  # updates between snapshots at least
    # games that may not end: cut after max_game_decisions decisions (all seats), scored as a
    # draw or by the standing at the cut (the engine's standing_rewards, as the PettingZoo env's); 0 = never cut
    max_game_decisions: int = 0
    truncation_scoring: str = "draw"
    # potential-based reward shaping (Ng, Harada & Russell 1999): every learner step also earns
    # gamma * phi(after) - phi(before), phi = score_shaping * (the learner's points - the best other
    # player's points), points from the engine's ``scores`` (0 in a finished game). Over a whole game
    # the terms telescope to about 0, so the final rank still decides what is best, but points are
    # felt the moment they are won, not only through the game's end. 0: off. The population's
    # ratings and the reported rewards use the unshaped reward.
    score_shaping: float = 0.0
    # data-parallel devices (on the CPU: one per core); the games split evenly over them
    devices: int = 1
    # loop
    eval_every: int = 200_000  # learner steps between ladder evaluations (PettingZoo tournament)
    eval_games: int = 40  # games per ladder opponent
    ladder: str = "random,greedy"
    # how the evaluation plays the network: "sampled" (its actions drawn from its probabilities, as
    # it plays in training) or "policy" (its most probable action)
    eval_as: str = "sampled"
    checkpoint_every: int = 200_000  # learner steps between checkpoints

    def __post_init__(self) -> None:
        positive = ("num_envs", "num_steps", "update_epochs", "num_minibatches", "population", "opponent_slots",
                    "eval_every", "eval_games", "checkpoint_every", "snapshot_min_updates", "devices")
        for name in positive:
            if not isinstance(getattr(self, name), int) or getattr(self, name) < 1:
                raise ValueError(f"{name} must be a positive integer, got {getattr(self, name)!r}")
        if self.num_envs % (self.opponent_slots * self.devices):
            raise ValueError(f"num_envs ({self.num_envs}) must be a multiple of opponent_slots × devices "
                             f"({self.opponent_slots} × {self.devices})")
        if (self.num_envs // self.devices * self.num_steps) % self.num_minibatches:
            raise ValueError("num_envs / devices * num_steps must be a multiple of num_minibatches")
        if self.sampler not in SAMPLERS:
            raise ValueError(f"sampler must be one of {SAMPLERS}, got {self.sampler!r}")
        if self.loss_gradient not in LOSS_GRADIENTS:
            raise ValueError(f"loss_gradient must be one of {LOSS_GRADIENTS}, got {self.loss_gradient!r}")
        if self.matmul_dtype not in MATMUL_DTYPES + ("auto",):
            raise ValueError(f"matmul_dtype must be one of {MATMUL_DTYPES + ('auto',)}, got {self.matmul_dtype!r}")
        object.__setattr__(self, "matmul_dtype", resolve_matmul_dtype(self.matmul_dtype))  # frozen: set once, here
        if self.eval_as not in ("sampled", "policy"):
            raise ValueError(f"eval_as must be 'sampled' or 'policy', got {self.eval_as!r}")
        if self.activation not in ACTIVATIONS:  # the portable policy's forward pass must know it
            raise ValueError(f"activation must be one of {sorted(ACTIVATIONS)}, got {self.activation!r}")
        if self.truncation_scoring not in TRUNCATION_SCORING:
            raise ValueError(f"truncation_scoring must be one of {TRUNCATION_SCORING}, got {self.truncation_scoring!r}")
        if not isinstance(self.anneal_timesteps, int) or self.anneal_timesteps < 0:
            raise ValueError(f"anneal_timesteps must be an integer >= 0 (0: constant learning rate), got {self.anneal_timesteps!r}")
        if not isinstance(self.passes_per_step, int) or self.passes_per_step < 0:
            raise ValueError(f"passes_per_step must be an integer >= 0 (0: no cap), got {self.passes_per_step!r}")
        if not isinstance(self.opponents_in_first_pass, bool):
            raise ValueError(f"opponents_in_first_pass must be true or false, got {self.opponents_in_first_pass!r}")
        if self.passes_per_step == 1 and not self.opponents_in_first_pass:
            raise ValueError("passes_per_step 1 needs opponents_in_first_pass: with one pass a learner step and "
                             "learners only in the first pass, opponents would never move")
        if not isinstance(self.score_shaping, (int, float)) or isinstance(self.score_shaping, bool) \
                or not 0.0 <= self.score_shaping < float("inf"):
            raise ValueError(f"score_shaping must be a number >= 0 (0: off), got {self.score_shaping!r}")
        if self.max_game_decisions < 0:
            raise ValueError("max_game_decisions must be >= 0 (0: never cut)")
        for name, low, high in (("gamma", 0.0, 1.0), ("gae_lambda", 0.0, 1.0)):  # a discount above 1 diverges
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
                raise ValueError(f"{name} must lie in [{low:g}, {high:g}], got {value!r}")
        if isinstance(self.learning_rate, bool) or not isinstance(self.learning_rate, (int, float)) \
                or not 0.0 < self.learning_rate < float("inf"):
            raise ValueError(f"learning_rate must be a finite number > 0, got {self.learning_rate!r}")
        if isinstance(self.epoch_share, bool) or not isinstance(self.epoch_share, (int, float)) \
                or not 0.0 < self.epoch_share <= 1.0:
            raise ValueError(f"epoch_share must lie in (0, 1] (1: every row), got {self.epoch_share!r}")
        if not 0.5 <= self.snapshot_threshold <= 1.0:
            raise ValueError(f"snapshot_threshold must lie in [0.5, 1], got {self.snapshot_threshold}")
        if any(not isinstance(c, int) or isinstance(c, bool) or c < 1 for c in self.conv):
            raise ValueError(f"conv must be positive channel widths, got {self.conv!r}")
        if not self.hidden or any(not isinstance(h, int) or h < 1 for h in self.hidden):
            raise ValueError(f"hidden must be positive layer widths, got {self.hidden!r}")

    @property
    def epoch_rows(self) -> int:
        """Rows of one device's share of the rollout that the PPO epochs run over (``epoch_share``
        of them, rounded up to a multiple of ``num_minibatches``)."""
        rows = self.num_envs // self.devices * self.num_steps
        if self.epoch_share >= 1.0 or not self.passes_per_step:  # uncapped, (nearly) every row is the learner's
            return rows
        per_batch = -(-math.ceil(rows * self.epoch_share) // self.num_minibatches)
        return min(rows, per_batch * self.num_minibatches)

    @property
    def steps_per_update(self) -> int:
        """Learner steps of one update (its learner decisions when ``passes_per_step`` is 0; with a
        cap, fewer, counted by the update's ``learner_steps`` metric)."""
        return self.num_envs * self.num_steps

    def as_dict(self) -> dict:
        data = asdict(self)
        data["hidden"] = list(self.hidden)
        data["conv"] = list(self.conv)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "JaxTrainConfig":
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown trainer settings {sorted(unknown)}")
        data = dict(data)
        for name in ("hidden", "conv"):
            if name in data:
                data[name] = tuple(data[name])
        return cls(**data)


def as_recorded(settings: dict) -> dict:
    """The settings of a recorded run (a checkpoint's, a training record's) with the fields it
    predates filled in as they were then (:data:`LEGACY_SETTINGS`), not with today's defaults."""
    return {**LEGACY_SETTINGS, **settings}


def jax_config_for(game: str, players: int | None = None, **overrides) -> JaxTrainConfig:
    """The game's settings (its plug-in's ``jax_training`` over the defaults, and with ``players``
    its ``jax_training_by_players`` entry for that count over them) with overrides (``None``
    values ignored)."""
    from meadowzoo.envs.registry import plugin

    game_plugin = plugin(game)
    by_players = game_plugin.jax_training_by_players.get(players, {}) if players is not None else {}
    declared = JaxTrainConfig.from_dict({**game_plugin.jax_training, **by_players})
    return replace(declared, **{k: v for k, v in overrides.items() if v is not None})
