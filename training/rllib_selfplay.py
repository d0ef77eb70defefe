"""Self-play training with RLlib (PPO on RLlib's current API stack: RLModule, Learner, EnvRunner).

    python -m meadowzoo.training.rllib_selfplay --game haste_bock --players 2 \\
        --fixed-opponents greedy,random --iterations 50 --env-runners 2 --seed 0 \\
        --out agents/trained/rllib_haste_bock_2p.pt [--address auto]

Setup:

* The env is :class:`~meadowzoo.training.rllib_env.MeadowzooMultiAgentEnv`: one ``learner`` seat
  per episode (drawn, so it plays every seat) and opponent seats.
* Modules: ``main``, the one trained module (``policies_to_train=["main"]``), and ``snapshot_0`` …
  ``snapshot_{K-1}``, frozen copies of ``main``. At the start every snapshot is a copy of the
  untrained ``main``; every ``snapshot_every`` iterations :class:`SnapshotCallback` copies the
  current ``main`` into the oldest slot (a ring), on the learner and on every EnvRunner. The
  agent-to-module mapping sends ``learner`` to ``main`` and each ``opponent_k`` to one snapshot
  (a hash of the episode id and the agent id).
* Heuristics are fixed opponents: with probability ``fixed_share`` an opponent seat is played by one
  of ``fixed_opponents`` (``random``, ``greedy``, ``strong``, ``mcts:N`` …) inside the env instead, so
  the learner keeps meeting the heuristic ladder while it improves against itself.
* Every module is :class:`~meadowzoo.training.rllib_module.MaskedPPOTorchRLModule` (RLlib's
  default PPO module with the action mask applied to its logits), an MLP with
  separate policy and value towers (``fcnet_hiddens``, tanh, no head layers): the layout of
  sb3-contrib's ``MaskableActorCriticPolicy`` with ``net_arch={"pi": h, "vf": h}``, so the trained
  module is exported as a ``meadowzoo-policy-v1`` file (:mod:`meadowzoo.training.rllib_export`)
  that ``policy:FILE`` plays in tournaments.

The learner runs in the driver process (``num_learners=0``); ``--env-runners N`` rollout actors run
on the cluster (``--address``, see :mod:`meadowzoo.training.ray_cluster`), one CPU each: sampling
is what scales with machines. The metric ``learner_return`` (env_runners results) is the mean final
reward of the learner over the last 100 episodes (+1 first … −1 last).
"""

from __future__ import annotations

import argparse
import functools
import shlex
import sys
import time
import zlib
from pathlib import Path

from ray.rllib.callbacks.callbacks import RLlibCallback

from meadowzoo.envs import GAMES
from meadowzoo.training.arguments import (
    check_agents, check_game_arguments, check_writable, command_error, command_parser, layer_widths, non_negative_int,
    parse_option, positive_float, positive_int, seed_value,
)
from meadowzoo.training.rllib_env import LEARNER, MeadowzooMultiAgentEnv

MAIN = "main"


def snapshot_ids(count: int) -> list[str]:
    return [f"snapshot_{i}" for i in range(count)]


def module_for(agent_id: str, episode, snapshots: int, **_) -> str:
    """The learner plays ``main``; each opponent one of the snapshots, fixed for the episode."""
    if agent_id == LEARNER:
        return MAIN
    return f"snapshot_{zlib.crc32(f'{episode.id_}/{agent_id}'.encode()) % snapshots}"


def copy_main(algorithm, slots: list[str]) -> None:
    """Freeze the current ``main`` into ``slots`` on the learners and every EnvRunner."""
    learners = algorithm.learner_group
    learners.set_weights({slot: learners.get_weights(module_ids=[MAIN])[MAIN] for slot in slots})
    # Straight into the EnvRunners' modules: RLlib's sync_weights skips a state whose weights
    # sequence number the runner already has (main's, synced in the same iteration).
    inference = learners.get_state(components=[f"learner/rl_module/{MAIN}"], inference_only=True)
    state = inference["learner"]["rl_module"][MAIN]

    def freeze(runner) -> None:
        for slot in slots:
            runner.module[slot].set_state(state)

    algorithm.env_runner_group.foreach_env_runner(freeze, local_env_runner=True)


class SnapshotCallback(RLlibCallback):
    """Snapshots of ``main`` (see the module docstring) and the ``learner_return`` metric."""

    def __init__(self, snapshots: int, every: int) -> None:
        super().__init__()
        self.snapshots, self.every = snapshots, every

    def on_algorithm_init(self, *, algorithm, **kwargs) -> None:
        copy_main(algorithm, snapshot_ids(self.snapshots))

    def on_train_result(self, *, algorithm, result: dict, **kwargs) -> None:
        if algorithm.iteration % self.every == 0:
            slot = (algorithm.iteration // self.every - 1) % self.snapshots
            copy_main(algorithm, [f"snapshot_{slot}"])
        result["snapshots_taken"] = algorithm.iteration // self.every

    def on_episode_end(self, *, episode, metrics_logger=None, **kwargs) -> None:
        learner = episode.agent_episodes.get(LEARNER)
        if learner is not None and metrics_logger is not None:
            metrics_logger.log_value("learner_return", learner.get_return(), reduce="mean", window=100)


def build_config(game: str, env_options: dict | None = None, fixed_opponents: str | list[str] = "random",
                 fixed_share: float = 0.5, snapshots: int = 4, snapshot_every: int = 5,
                 env_runners: int = 1, batch: int = 2000, minibatch: int = 256, epochs: int = 5,
                 lr: float = 3e-4, hidden: tuple[int, ...] = (64, 64), seed: int = 0):
    """The PPO config of the self-play setup (see the module docstring)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from meadowzoo.training.rllib_module import MaskedPPOTorchRLModule

    if snapshots < 1 or snapshot_every < 1:
        raise ValueError(f"snapshots and snapshot_every must be at least 1, got {snapshots} and {snapshot_every}")
    env_config = {"game": game, **(env_options or {}), "fixed_opponents": fixed_opponents,
                  "fixed_share": fixed_share if fixed_opponents else 0.0}
    MeadowzooMultiAgentEnv(env_config)  # bad settings fail here, before any actor starts
    model = DefaultModelConfig(fcnet_hiddens=list(hidden), fcnet_activation="tanh", head_fcnet_hiddens=[],
                               vf_share_layers=False)
    modules = [MAIN, *snapshot_ids(snapshots)]
    return (
        PPOConfig()
        # RLlib's env check steps random actions from the action space, ignoring the mask; the
        # games refuse illegal actions (as PettingZoo's do), so the check cannot pass. The
        # adapter's own tests check the API instead.
        .environment(MeadowzooMultiAgentEnv, env_config=env_config, disable_env_checking=True)
        .env_runners(num_env_runners=env_runners, num_envs_per_env_runner=1)
        .learners(num_learners=0)
        .training(train_batch_size_per_learner=batch, minibatch_size=minibatch, num_epochs=epochs, lr=lr)
        # a list, not a set: RLlib builds the modules in this order, and a set's order (string
        # hashing) changes from process to process, and with it the modules' initial weights
        .multi_agent(policies=modules, policy_mapping_fn=functools.partial(module_for, snapshots=snapshots),
                     policies_to_train=[MAIN])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            m: RLModuleSpec(module_class=MaskedPPOTorchRLModule, model_config=model) for m in modules}))
        .callbacks(functools.partial(SnapshotCallback, snapshots=snapshots, every=snapshot_every))
        .debugging(seed=seed)
    )


def train(config, iterations: int, log=print) -> tuple[object, list[dict]]:
    """Build the algorithm and run ``iterations`` training iterations; the algorithm and a short
    history (iteration, episodes, learner_return, seconds)."""
    algorithm = config.build_algo()
    history = []
    started = time.time()
    for _ in range(iterations):
        result = algorithm.train()
        runners = result.get("env_runners", {})
        row = {"iteration": algorithm.iteration, "episodes": runners.get("num_episodes_lifetime"),
               "learner_return": runners.get("learner_return"),
               "env_steps": runners.get("num_env_steps_sampled_lifetime"),
               "seconds": round(time.time() - started, 1)}
        history.append(row)
        log(" ".join(f"{k}={v:.3f}" if isinstance(v, float) and not v.is_integer() else f"{k}={v:g}"
                     if isinstance(v, float) else f"{k}={v}" for k, v in row.items()))
    return algorithm, history


def main(argv: list[str] | None = None) -> dict:
    parser = command_parser("rllib_selfplay", "RLlib PPO self-play against snapshots and heuristics.")
    parser.add_argument("--game", choices=sorted(GAMES), required=True)
    parser.add_argument("--players", type=positive_int, default=2, help="players per game")
    parser.add_argument("--option", action="append", type=parse_option, default=[], help="env option key=value")
    parser.add_argument("--fixed-opponents", default="random", help="comma-separated heuristic specs ('' for none)")
    parser.add_argument("--fixed-share", type=float, default=0.5, help="chance that an opponent seat is a heuristic")
    parser.add_argument("--snapshots", type=positive_int, default=4, help="frozen snapshots of the learner kept")
    parser.add_argument("--snapshot-every", type=positive_int, default=5, help="iterations between snapshots")
    parser.add_argument("--iterations", type=positive_int, default=50, help="RLlib training iterations")
    parser.add_argument("--env-runners", type=non_negative_int, default=1,
                        help="rollout actors (one CPU each; 0 samples in this process)")
    parser.add_argument("--batch", type=positive_int, default=2000, help="env steps per training batch")
    parser.add_argument("--minibatch", type=positive_int, default=256, help="samples per gradient step")
    parser.add_argument("--epochs", type=positive_int, default=5, help="passes over every training batch")
    parser.add_argument("--lr", type=positive_float, default=3e-4, help="Adam learning rate")
    parser.add_argument("--hidden", type=layer_widths, default="64,64", help="hidden layer sizes of both towers")
    parser.add_argument("--seed", type=seed_value, default=0, help="seed of RLlib and the envs")
    parser.add_argument("--address", help="Ray cluster address (HOST:PORT or auto); default: RAY_ADDRESS or a private Ray")
    parser.add_argument("--out", type=Path, help="export the trained module to this policy file (.pt)")
    args = parser.parse_args(argv)
    # every bad value stops here with one line naming its flag (exit status 2), before Ray starts
    options = {"num_players": args.players, **check_game_arguments(parser, args)}
    fixed = [spec for spec in args.fixed_opponents.split(",") if spec]
    check_agents(parser, "--fixed-opponents", fixed, args.game, people=False)
    if not 0.0 <= args.fixed_share <= 1.0:
        parser.error(f"argument --fixed-share: must lie in [0, 1], got {args.fixed_share}")
    if args.minibatch > args.batch:
        parser.error(f"argument --minibatch: {args.minibatch} is more than --batch {args.batch}")
    if args.out is not None:
        check_writable(parser, "--out", args.out.parent)
    from meadowzoo.training.ray_cluster import ClusterUnreachable, cluster_size, connect
    from meadowzoo.training.rllib_export import export_policy

    config = build_config(args.game, options, args.fixed_opponents, args.fixed_share, args.snapshots,
                          args.snapshot_every, args.env_runners, args.batch, args.minibatch, args.epochs, args.lr,
                          args.hidden, args.seed)
    command = "python -m meadowzoo.training.rllib_selfplay " + shlex.join(sys.argv[1:] if argv is None else argv)
    try:
        connection = connect(args.address)
    except ClusterUnreachable as error:
        command_error("rllib_selfplay", str(error))
    try:
        print(f"Ray cluster: {cluster_size()}")
        algorithm, history = train(config, args.iterations)
        if args.out:
            export_policy(algorithm, args.out, args.game, options, note=command)
            print(f"wrote {args.out} (play it with --agents policy:{args.out})")
        algorithm.stop()
    finally:
        connection.close()
    return {"command": command, "history": history}


if __name__ == "__main__":
    main()
