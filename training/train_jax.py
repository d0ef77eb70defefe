"""Self-play PPO compiled end to end on a game's JAX engine (needs the ``jax`` extra).

    python -m meadowzoo.training.train_jax --game volle_wolle --players 2 --timesteps 5000000 --seed 0
    python -m meadowzoo.training.train --backend jax --game volle_wolle --players 2 --timesteps 5000000

The agent learns from the rules alone: no imitation, no heuristic advice in its input, opponents
only frozen snapshots of itself. What it does:

1. Reads the game's settings from :mod:`meadowzoo.training.jax_config` (flags override single fields)
   and builds the engine with :func:`meadowzoo.jax.make` (any game with a JAX engine).
2. Runs compiled updates (:class:`meadowzoo.training.jax_ppo.SelfPlayPPO`: rollout of the batch of
   games, the learner at a random seat, opponents from the Elo-rated population of its snapshots,
   GAE, PPO) with a progress bar and TensorBoard logs (``<out>/tb``; one point per update).
3. Every ``eval_every`` learner steps exports the network (``<out>/current.npz``, the portable
   numpy format of :mod:`meadowzoo.agents.mlp_policy`) and plays it against each ``--ladder``
   agent in seat-balanced PettingZoo games (:mod:`meadowzoo.training.evaluate`), as a ``sampled:``
   agent (actions drawn from its probabilities, as it plays in training; ``--eval-as policy``: its
   most probable action);
   the scores go to TensorBoard and ``<out>/evaluations.csv``.
4. Every ``checkpoint_every`` learner steps (and at the end) writes a checkpoint
   (:mod:`meadowzoo.training.jax_checkpoints`: arrays and JSON, no pickle); started again with the
   same ``--out`` the run resumes from the newest one and continues exactly as if never stopped.
5. Writes the final network to ``<out>/policy.npz`` (plays without JAX:
   ``--agents policy:<out>/policy.npz,strong`` in ``meadowzoo.training.evaluate``) and
   ``<out>/final.json`` (settings, steps, wall time, the last metrics and ladder scores).

A learner step is one decision of the learner (opponents' moves are not counted), as in
:mod:`meadowzoo.training.train`; each update reports how many it played (``learner_steps``: fewer
than ``num_envs × num_steps`` where ``passes_per_step`` caps the opponents' moves, and in a new run's
first update, whose games may begin at an opponent's turn), and the run stops after the update that
reaches ``--timesteps``. The same seed and settings give the same run: every random draw
comes from the key in the training state, and the evaluation games are seeded by the step count.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from meadowzoo.agents.mlp_policy import ACTIVATIONS
from meadowzoo.training.arguments import (
    add_game_arguments, check_agents, check_game_arguments, check_writable, command_error, command_parser, layer_widths,
    non_negative_float, non_negative_int, positive_float, positive_int, stops_on_ctrl_c,
)
from meadowzoo.training.jax_config import LOSS_GRADIENTS, MATMUL_DTYPES, SAMPLERS, TRUNCATION_SCORING, as_recorded, jax_config_for

DEFAULT_OUT = "runs"
#: flags that override a field of the trainer settings (flag name with "-" -> field)
OVERRIDES = ("hidden", "activation", "num_envs", "num_steps", "update_epochs", "num_minibatches", "epoch_share", "learning_rate",
             "ent_coef", "gamma", "conv", "population", "opponent_slots", "snapshot_threshold", "max_game_decisions",
             "truncation_scoring", "score_shaping", "passes_per_step", "opponents_in_first_pass", "sampler",
             "matmul_dtype", "loss_gradient", "eval_every", "eval_games", "ladder", "checkpoint_every", "devices", "eval_as")
#: the loop's own settings (evaluation, checkpoints): they may change between invocations of a run
LOOP_FIELDS = ("eval_every", "eval_games", "ladder", "checkpoint_every", "eval_as")


def parse_args(argv=None, prog: str | None = None) -> argparse.Namespace:
    """The command line; ``prog`` names the command in ``--help`` and errors when it is not this
    module's own (``training.train --backend jax`` hands its command line over)."""
    parser = command_parser("train_jax", "Compiled self-play PPO (JAX) of a meadowzoo agent, from scratch.")
    if prog:
        parser.prog = prog
    add_game_arguments(parser, seed_help="seed of the whole run (network, games, opponents, evaluations)")
    parser.add_argument("--timesteps", type=positive_int, default=1_000_000,
                        help="learner decisions to train for (the run stops after the update that reaches them)")
    parser.add_argument("--out", help=f"run directory (default {DEFAULT_OUT}/<game>-<players>p-jax-seed<seed>)")
    parser.add_argument("--fresh", action="store_true", help="ignore and remove existing checkpoints in --out")
    parser.add_argument("--quiet", action="store_true", help="no progress bar or evaluation lines")
    parser.add_argument("--hidden", type=layer_widths,
                        help="hidden layer widths of the actor and of the critic, e.g. 64,64 (config default)")
    parser.add_argument("--activation", choices=sorted(ACTIVATIONS), help="hidden activation (config default)")
    parser.add_argument("--conv", type=layer_widths,
                        help="3x3 convolutions over the board planes before the dense layers, channel widths, e.g. "
                             "16,16 (games whose engine has a board_shape; config default: none)")
    parser.add_argument("--num-envs", type=positive_int, help="games played side by side")
    parser.add_argument("--num-steps", type=positive_int, help="learner decisions per game per update")
    parser.add_argument("--update-epochs", type=positive_int, help="PPO epochs per update (config default)")
    parser.add_argument("--num-minibatches", type=positive_int, help="PPO minibatches per epoch (config default)")
    parser.add_argument("--epoch-share", type=positive_float,
                        help="share of the rollout's rows the PPO epochs run over, valid rows (learner decisions) "
                             "first; 1: every row, as runs before session 33 (config default)")
    parser.add_argument("--learning-rate", type=positive_float, help="PPO learning rate (config default)")
    parser.add_argument("--anneal-lr", action="store_true",
                        help="let the learning rate fall linearly to 0 over --timesteps (part of the run's settings)")
    parser.add_argument("--ent-coef", type=non_negative_float, help="PPO entropy bonus (config default)")
    parser.add_argument("--gamma", type=positive_float, help="discount (config default)")
    parser.add_argument("--population", type=positive_int, help="capacity of the snapshot population")
    parser.add_argument("--opponent-slots", type=positive_int, help="population members drawn per update")
    parser.add_argument("--snapshot-threshold", type=positive_float,
                        help="learner's Elo expected score against the best member that earns a snapshot")
    parser.add_argument("--max-game-decisions", type=non_negative_int,
                        help="cut games after this many decisions (0: never)")
    parser.add_argument("--truncation-scoring", choices=TRUNCATION_SCORING,
                        help="a cut game counts as a draw or by its standing")
    parser.add_argument("--score-shaping", type=non_negative_float,
                        help="potential-based shaping: each point of lead over the best other player is worth this "
                             "much reward while the game runs (0: off, config default)")
    parser.add_argument("--passes-per-step", type=non_negative_int,
                        help="moves each game may make per learner step (the learner's and its opponents'; 0: until "
                             "every game is at its learner's turn; config default)")
    parser.add_argument("--opponents-in-first-pass", action=argparse.BooleanOptionalAction,
                        help="with a pass cap, a game the cap left at an opponent's turn plays that move in the first "
                             "pass of the next learner step (as runs before session 21), or waits for the second "
                             "(--no-…: the first pass runs the learner's network only; config default)")
    parser.add_argument("--sampler", choices=SAMPLERS,
                        help="how the rollout draws actions from the policy: one uniform per game (inverse_cdf, "
                             "default) or jax.random.categorical (gumbel, as runs before session 14); same distribution")
    parser.add_argument("--matmul-dtype", choices=MATMUL_DTYPES + ("auto",),
                        help="precision of the network's matrix products: float32, or bfloat16 inputs with float32 sums "
                             "(the products 2-3x faster, the trainer about 1.4x, on CPUs with bfloat16 matrix "
                             "instructions); default auto: bfloat16 on such a CPU, else float32 (runs before session 27: "
                             "float32)")
    parser.add_argument("--loss-gradient", choices=LOSS_GRADIENTS,
                        help="how the PPO loss's log-probability and entropy terms are differentiated: fused (a "
                             "hand-written gradient, one pass over the logits; default) or autodiff (as runs before "
                             "session 28); the same function, other rounding")
    parser.add_argument("--eval-every", type=positive_int, help="learner steps between ladder evaluations")
    parser.add_argument("--eval-games", type=positive_int, help="games per ladder opponent")
    parser.add_argument("--ladder", help="agents of the periodic evaluation, e.g. random,greedy,strong")
    parser.add_argument("--eval-as", choices=("sampled", "policy"),
                        help="the evaluation draws the network's actions (sampled, default) or plays its most probable (policy)")
    parser.add_argument("--checkpoint-every", type=positive_int, help="learner steps between checkpoints")
    parser.add_argument("--devices", type=positive_int,
                        help="data-parallel devices (on the CPU: one per core, e.g. 2; default 1); part of the run's settings")
    args = parser.parse_args(argv)
    if args.devices and args.devices > 1:  # before JAX's first operation (making the engine below runs one)
        import meadowzoo.jax

        have = meadowzoo.jax.use_cpu_devices(args.devices)
        import jax

        if jax.local_device_count() < args.devices:
            parser.error(f"argument --devices: JAX has {have} CPU device(s), not {args.devices} (it started before the flag was read)")
    args.env_options = check_game_arguments(parser, args)
    if args.ladder:
        check_agents(parser, "--ladder", args.ladder.split(","), args.game, people=False)
    import meadowzoo.jax

    if args.game not in meadowzoo.jax.available():
        parser.error(f"argument --game: {args.game} has no JAX engine yet; games with one: {meadowzoo.jax.available()}")
    try:  # the engine's own check of the options (it may support fewer than the PettingZoo env)
        engine = meadowzoo.jax.make(args.game, num_players=args.players, **args.env_options)
    except ValueError as error:
        parser.error(f"argument --option: {error}")
    except ImportError as error:
        parser.error(f"the JAX trainer needs the jax extra (pip install 'meadowzoo[jax]'): {error}")
    if args.conv and engine.board_shape is None:
        parser.error(f"argument --conv: {args.game}'s observation has no board planes to convolve")
    try:  # the settings' own checks (sizes that must divide, ranges), before anything is built
        settings(args)
    except ValueError as error:
        parser.error(f"the trainer settings: {error}")
    if args.out is not None:
        check_writable(parser, "--out", args.out)
    return args


def settings(args: argparse.Namespace):
    """The trainer settings of a command line: the game's, with the flags given over them."""
    overrides = {name: getattr(args, name) for name in OVERRIDES}
    if getattr(args, "anneal_lr", False):
        overrides["anneal_timesteps"] = args.timesteps
    return jax_config_for(args.game, args.players, **overrides)


def build(args: argparse.Namespace):
    """The settings, the engine and the trainer of a command line."""
    import meadowzoo.jax
    from meadowzoo.training.jax_ppo import SelfPlayPPO

    config = settings(args)
    env = meadowzoo.jax.make(args.game, num_players=args.players, **args.env_options)
    return config, env, SelfPlayPPO(env, config)


def export(path: Path, trainer, runner, args, config, steps: int) -> Path:
    """Write the learner's network as a portable policy file."""
    import jax

    from meadowzoo.agents.mlp_policy import save_mlp_policy
    from meadowzoo.training.jax_network import export_arrays

    return save_mlp_policy(path, export_arrays(jax.device_get(trainer.gathered(runner).params)), args.game,
                           {"num_players": args.players, **args.env_options}, list(config.hidden), config.activation,
                           note=f"train_jax seed {args.seed}, {steps} learner steps", conv=list(config.conv),
                           board=trainer.network.board)


def crossed(steps: int, done: int, every: int) -> bool:
    """Whether the update that went from ``steps - done`` to ``steps`` learner steps passed a multiple of ``every``."""
    return steps // every > (steps - done) // every


@stops_on_ctrl_c
def main(argv=None, prog: str | None = None) -> dict:
    args = parse_args(argv, prog)
    from tqdm import tqdm

    from meadowzoo.training import checkpoints, jax_checkpoints
    from meadowzoo.training.files import atomic_write_csv, atomic_write_json
    from meadowzoo.training.train import ladder_scores

    config, env, trainer = build(args)
    out = Path(args.out or f"{DEFAULT_OUT}/{args.game}-{args.players}p-jax-seed{args.seed}")
    out.mkdir(parents=True, exist_ok=True)
    if args.fresh:
        checkpoints.start_afresh(out, ("evaluations.csv", "final.json", "policy.npz", "current.npz"))
    # what a resumed run must share with its checkpoint (the training state's shapes and meaning)
    run = {"game": args.game, "players": args.players, "seed": args.seed,
           "config": {k: v for k, v in config.as_dict().items() if k not in LOOP_FIELDS}, "options": args.env_options}
    runner = trainer.setup(args.seed)
    state = {"evaluations": [], "wall_seconds": 0.0, "argv": [argv if argv is not None else sys.argv[1:]]}
    steps = 0
    found = jax_checkpoints.latest(out)
    if found:
        meta, leaves = found
        recorded = dict(meta.get("run", {}))
        if isinstance(recorded.get("config"), dict):  # a checkpoint older than a setting had its old value
            recorded["config"] = as_recorded(recorded["config"])
        # (checkpoints made before the env options were recorded hold none: those are not compared)
        differing = checkpoints.other_settings(recorded, run, optional=("options",))
        if differing:
            command_error("train_jax", checkpoints.other_run_message(out, differing))
        runner = trainer.scattered(jax_checkpoints.restore(trainer.gathered(runner), leaves))
        steps, state = meta["timesteps"], meta["state"]
        state["argv"].append(argv if argv is not None else sys.argv[1:])
        if not args.quiet:
            print(f"resuming {out} at {steps} learner steps")
        if steps < args.timesteps:
            # An evaluation made only because the previous invocation stopped at its own, smaller target
            # is not part of the schedule: drop it, so a run resumed in parts logs what one whole run
            # logs. (A run that is already done keeps it: nothing follows.)
            unscheduled = state.pop("unscheduled_evaluation", None)
            state["evaluations"] = [row for row in state["evaluations"] if row["timesteps"] != unscheduled]
            atomic_write_csv(out / "evaluations.csv", state["evaluations"])  # drop rows past the checkpoint
    target = args.timesteps
    # resumed: TensorBoard hides the curves' points from the checkpoint on that the interrupted run
    # had written (the resumed run writes them again)
    writer = tensorboard_writer(out / "tb", purge_step=steps or None)
    bar = tqdm(total=target, initial=min(steps, target), unit="step", disable=args.quiet, dynamic_ncols=True)
    started = time.time() - state["wall_seconds"]
    metrics: dict[str, float] = {}
    while steps < target:
        runner, device_metrics = trainer.update(runner)
        metrics = trainer.host_metrics(device_metrics)
        done = int(metrics["learner_steps"])  # the learner's decisions in this update
        steps += done
        state["updates"] = state.get("updates", 0) + 1
        state["wall_seconds"] = round(time.time() - started, 2)
        if metrics["epoch_rows"] > config.epoch_rows:  # decisions that did not fit epoch_share: every row
            state["updates_over_every_row"] = state.get("updates_over_every_row", 0) + 1
            if state["updates_over_every_row"] == 1:  # said once a run
                bar.write(f"note: update {state['updates']} had more learner decisions than --epoch-share "
                          f"{config.epoch_share:g} of its rows: its epochs ran over every row, as runs before "
                          "session 33 (nothing left out, only slower; train/epoch_rows in TensorBoard)")
        bar.update(min(steps, target) - bar.n)  # a last whole update may pass the target: the bar stops at it
        bar.set_postfix(reward=f"{metrics['mean_reward']:.3f}", elo=f"{metrics['learner_elo']:.0f}",
                        pop=int(metrics["population"]), refresh=False)
        if writer is not None:
            for name, value in metrics.items():
                writer.add_scalar(f"train/{name}", value, steps)
            writer.add_scalar("train/steps_per_second", steps / max(state["wall_seconds"], 1e-9), steps)
        scheduled = crossed(steps, done, config.eval_every)
        if scheduled or steps >= target:
            if not scheduled:
                state["unscheduled_evaluation"] = steps
            row = {"timesteps": steps, "wall_seconds": state["wall_seconds"],
                   "learner_elo": round(metrics["learner_elo"], 1), "snapshots": int(metrics["snapshots"])}
            policy = export(out / "current.npz", trainer, runner, args, config, steps)
            for opponent, (score, _) in ladder_scores(args, policy, config.ladder, config.eval_games,
                                                      seed=10_000 + steps % 9973, play_as=config.eval_as).items():
                row[f"score_vs_{opponent}"] = round(score, 4)
                if writer is not None:
                    writer.add_scalar(f"ladder/score_vs_{opponent}", score, steps)
            state["evaluations"].append(row)
            atomic_write_csv(out / "evaluations.csv", state["evaluations"])
            if not args.quiet:
                bar.write(f"[{steps}] " + ", ".join(f"{k}={v}" for k, v in row.items()))
        state["last_metrics"] = metrics  # a rerun of the finished command reports them again
        if crossed(steps, done, config.checkpoint_every) or steps >= target:
            jax_checkpoints.save(trainer.gathered(runner), out, steps, {"run": run, "updates": state["updates"], "state": state})
    bar.close()
    if writer is not None:
        writer.close()
    policy = export(out / "policy.npz", trainer, runner, args, config, steps)
    final = {**run, "config": config.as_dict(), "timesteps": steps, "wall_seconds": state["wall_seconds"], "policy": str(policy),
             "last_metrics": metrics or state.get("last_metrics", {}), "evaluations": state["evaluations"],
             "updates_over_every_row": state.get("updates_over_every_row", 0), "argv": state["argv"]}
    atomic_write_json(out / "final.json", final)
    if not args.quiet:
        print(f"{steps} learner steps in {state['wall_seconds']:.0f} s; policy {policy}")
    return final


def tensorboard_writer(folder: Path, purge_step: int | None = None):
    """A TensorBoard writer (torch's, else tensorboardX), or ``None`` without either; with
    ``purge_step``, earlier files' points at that step or later are hidden (a resumed run's)."""
    try:
        from torch.utils.tensorboard import SummaryWriter
    except ImportError:
        try:
            from tensorboardX import SummaryWriter
        except ImportError:
            print("TensorBoard logging off: neither torch.utils.tensorboard nor tensorboardX is installed")
            return None
    return SummaryWriter(str(folder), purge_step=purge_step)


if __name__ == "__main__":
    main()
