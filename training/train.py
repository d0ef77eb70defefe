"""Self-play MaskablePPO training for any meadowzoo game.

    python -m meadowzoo.training.train --game hase_und_igel --players 2 --timesteps 200000 --seed 0
    python -m meadowzoo.training.train --game volle_wolle --players 4 --opponents random,greedy --n-envs 2
    python -m meadowzoo.training.train --backend jax --game volle_wolle --players 2 --timesteps 5000000

``--backend jax`` hands the command line to the compiled self-play trainer on the game's JAX engine
(:mod:`meadowzoo.training.train_jax`, learning from scratch); the rest describes this one.

What it does, top to bottom:
1. Reads the game's hyperparameters from :mod:`meadowzoo.training.config` (command-line flags override);
   with ``--imitate strong`` the policy is first behaviour-cloned from that agent's games
   (:mod:`meadowzoo.training.imitation`); with ``--advice strong`` the observation carries the strong
   heuristic's per-action advice and the policy is :class:`meadowzoo.agents.advised_policy.AdvisedPolicy`.
2. Builds ``--n-envs`` self-play envs (:class:`meadowzoo.training.selfplay.SelfPlayEnv`), one process each,
   seeded ``seed + i``; the learner's seat is drawn per episode; opponents come from an
   :class:`~meadowzoo.training.pool.OpponentPool` (the fixed ``--opponents`` plus frozen snapshots).
3. Trains MaskablePPO with a progress bar and TensorBoard logs (``<out>/tb``).
4. Every ``eval_every`` steps scores the current policy against each ``--ladder`` agent
   (seat-balanced games through :mod:`meadowzoo.training.evaluate`), logs it, appends ``<out>/evaluations.csv``, and adds a
   frozen snapshot of the learner to every env's pool when its mean ladder score reaches
   ``snapshot_threshold``.
5. At the first rollout boundary after every ``checkpoint_every`` steps writes a checkpoint
   (:mod:`meadowzoo.training.checkpoints`: tensors and JSON only, no pickle, renamed into place so
   a kill never leaves a broken one; the newest two are kept) with the envs' games in progress as
   replayable records (:mod:`meadowzoo.training.resume`), and ``<out>/state.json``; a run started
   again with the same ``--out`` resumes from the newest usable checkpoint (at most one interval
   and a rollout are lost), replays those games and cuts ``evaluations.csv`` back to it. Env
   processes end with the run, even when it is killed.
6. Saves the final policy weights-only to ``<out>/policy.pt`` (see :mod:`meadowzoo.agents.policy`) and
   prints the final ladder table (also ``<out>/final.json``).

Same seed and same settings give the same training curve on the same machine (single-threaded
torch, seeded envs and opponents), and so does a run interrupted and resumed with the same
``--n-envs``: the same weights bit for bit as a run never stopped.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

from meadowzoo.agents.advice import ADVICE_KINDS
from meadowzoo.training.arguments import (
    add_game_arguments, check_agents, check_game_arguments, check_writable, command_error, command_parser,
    non_negative_float, positive_float, positive_int, program_name, share, stops_on_ctrl_c,
)

DEFAULT_OUT = "runs"
#: trainers: Stable-Baselines3 MaskablePPO (this module) or the compiled JAX one
BACKENDS = ("sb3", "jax")


#: seed offset of the held-out imitation games (far from any training game's seed)
HELD_OUT_SEED_OFFSET = 1_000_000


def build_vec_env(game: str, players: int, opponents: str, fixed_share: float, n_envs: int, env_options: dict,
                  advice: str | None = None):
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from meadowzoo.training.pool import OpponentPool
    from meadowzoo.training.resume import ReplayMonitor
    from meadowzoo.training.selfplay import SelfPlayEnv

    from meadowzoo.training.processes import die_with_parent

    parent = os.getpid()

    def factory():
        if os.getpid() != parent:  # in an env process: end with the run, even on SIGKILL
            die_with_parent(parent)
        pool = OpponentPool(game, opponents, fixed_share=fixed_share)
        return ReplayMonitor(SelfPlayEnv(game, opponents=pool, num_players=players, advice=advice, **env_options))

    if n_envs > 1:
        return SubprocVecEnv([factory] * n_envs, start_method="spawn")
    return DummyVecEnv([factory])


def make_callbacks(args, config, out: Path, state: dict, settings: dict):
    """Progress bar, checkpoints, ladder evaluation and snapshot promotion."""
    from stable_baselines3.common.callbacks import BaseCallback
    from tqdm import tqdm

    from meadowzoo.agents.policy import save_policy

    class Loop(BaseCallback):
        def _on_training_start(self) -> None:
            self.bar = tqdm(total=args.timesteps, initial=self.model.num_timesteps, unit="step",
                            desc=f"{args.game} {args.players}p", disable=args.quiet)
            self.next_eval = (self.model.num_timesteps // config.eval_every + 1) * config.eval_every
            self.next_checkpoint = (self.model.num_timesteps // config.checkpoint_every + 1) * config.checkpoint_every

        def _on_step(self) -> bool:
            # SB3 collects whole rollouts, so the run may pass --timesteps: the bar stops at it
            self.bar.update(min(self.model.num_timesteps, args.timesteps) - self.bar.n)
            steps = self.model.num_timesteps
            if steps >= self.next_eval:
                self.next_eval += config.eval_every
                self.evaluate(steps)
            return True

        def _on_rollout_start(self) -> None:
            # between two rollouts (the update done): a checkpoint here resumes exactly
            steps = self.model.num_timesteps
            if steps >= self.next_checkpoint:
                self.next_checkpoint = (steps // config.checkpoint_every + 1) * config.checkpoint_every
                checkpoint(self.model, out, state, settings)

        def _on_training_end(self) -> None:
            self.bar.close()

        def evaluate(self, steps: int) -> None:
            path = save_policy(self.model, out / "current.pt", args.game, env_options(args), advice=args.advice)
            row = {"timesteps": steps, "wall_seconds": round(time.time() - state["started"] + state["elapsed_before"], 1)}
            for opponent, (score, _) in ladder_scores(args, path, config.ladder, config.eval_games,
                                                      seed=10_000 + steps % 9973).items():
                row[f"score_vs_{opponent}"] = round(score, 4)
                self.logger.record(f"ladder/score_vs_{opponent}", score)
            mean = float(np.mean([v for k, v in row.items() if k.startswith("score_vs_")]))
            if mean >= config.snapshot_threshold:
                snapshot = save_policy(self.model, out / "snapshots" / f"step_{steps}.pt", args.game,
                                       env_options(args), advice=args.advice)
                self.training_env.env_method("add_snapshot_to_pool", str(snapshot))
                state["snapshots"].append(str(snapshot))
                row["snapshot"] = snapshot.name
            append_csv(out / "evaluations.csv", row)
            if not args.quiet:
                self.bar.write(f"[{steps}] " + ", ".join(f"{k}={v}" for k, v in row.items()))

    return Loop()


def ladder_scores(args, policy_path: Path, ladder: str, games: int, seed: int,
                  play_as: str = "policy") -> dict[str, tuple[float, list]]:
    """Seat-balanced games of the policy against each ladder agent (every other seat): the
    policy's share of placings ahead of that agent (ties ½) with its 95% interval. ``play_as``
    ``"policy"`` plays its most probable action, ``"sampled"`` draws from its probabilities."""
    from meadowzoo.training.evaluate import evaluate

    hero = f"{play_as}:{policy_path}"
    scores = {}
    for opponent in ladder.split(","):
        result = evaluate(args.game, args.players, [hero] + [opponent] * (args.players - 1), games, seed=seed,
                          options=getattr(args, "env_options", None), progress=False)
        pair = result["head_to_head"][f"{hero}|{opponent}"]
        scores[opponent] = (pair["share"], pair["share_ci"])
    return scores


def env_options(args) -> dict:
    """The env options of the run: ``--players`` and the ``--option``s."""
    return {"num_players": args.players, **(getattr(args, "env_options", None) or {})}


def append_csv(path: Path, row: dict) -> None:
    """Add a row, rewriting the file atomically (a kill never leaves half a row)."""
    from meadowzoo.training.files import atomic_write_csv, read_csv

    atomic_write_csv(path, read_csv(path) + [row])


def cut_evaluations(path: Path, timesteps: int) -> None:
    """Drop the rows a killed run logged after the checkpoint it resumes from (they are redone)."""
    from meadowzoo.training.files import atomic_write_csv, read_csv

    rows = read_csv(path)
    kept = [row for row in rows if int(row["timesteps"]) <= timesteps]
    if len(kept) != len(rows):
        atomic_write_csv(path, kept)


def checkpoint(model, out: Path, state: dict, settings: dict) -> None:
    """Write a checkpoint and ``state.json``; taken between two rollouts (or after the last), so
    that the envs' games in progress resume exactly (:mod:`meadowzoo.training.resume`)."""
    from meadowzoo.training import checkpoints
    from meadowzoo.training.files import atomic_write_json
    from meadowzoo.training.resume import env_state

    state["timesteps"] = int(model.num_timesteps)
    state["elapsed_before"] = state["elapsed_before"] + time.time() - state["started"]
    state["started"] = time.time()
    checkpoints.save(model, out, settings, state, envs=env_state(model))
    atomic_write_json(out / "state.json", state)


#: MaskablePPO arguments recorded in a checkpoint; a resumed run is rebuilt with these
PPO_SETTINGS = ("learning_rate", "n_steps", "batch_size", "n_epochs", "gamma", "gae_lambda", "ent_coef", "clip_range")


def ppo_settings(config, advice: str | None) -> dict:
    return {**{name: getattr(config, name) for name in PPO_SETTINGS}, "net_arch": list(config.net_arch),
            "advice": advice}


def build_model(settings: dict, vec, seed: int, out: Path):
    """A MaskablePPO with ``settings`` (see :func:`ppo_settings`) on the vectorised env ``vec``."""
    from sb3_contrib import MaskablePPO

    policy_class = "MlpPolicy"
    if settings["advice"]:
        from meadowzoo.agents.advised_policy import AdvisedPolicy

        policy_class = AdvisedPolicy
    return MaskablePPO(policy_class, vec, seed=seed, tensorboard_log=str(out / "tb"), verbose=0,
                       policy_kwargs={"net_arch": list(settings["net_arch"])},
                       **{name: settings[name] for name in PPO_SETTINGS})


def resume_games(model, found) -> str:
    """Replay the checkpoint's games in progress into the envs (exact resumption); a record that
    does not replay (a snapshot file gone, a tampered record) leaves fresh games, with a warning."""
    import warnings

    from meadowzoo.training.resume import restore_env_state

    try:
        return restore_env_state(model, found.meta.get("envs"))
    except (ValueError, OSError) as error:
        warnings.warn(f"{found.path.name}: the games in progress do not replay ({error}); the envs start fresh "
                      "games", RuntimeWarning, stacklevel=2)
        model._last_obs = None  # SB3 resets every env before the first rollout
        return "the envs start fresh games"


def resumed_logger(tb: Path, timesteps: int):
    """SB3's logger of a resumed run (the curves' folder SB3 would continue, ``tb/ppo_<n>``) whose
    TensorBoard writer hides the points from ``timesteps`` on that the interrupted run had written
    past its checkpoint: the resumed run writes them again."""
    from stable_baselines3.common.logger import TensorBoardOutputFormat
    from stable_baselines3.common.utils import configure_logger
    from torch.utils.tensorboard import SummaryWriter

    logger = configure_logger(0, str(tb), "ppo", reset_num_timesteps=False)
    for output in logger.output_formats:
        if isinstance(output, TensorBoardOutputFormat):
            folder = output.writer.log_dir
            output.writer.close()
            output.writer = SummaryWriter(log_dir=folder, purge_step=timesteps)
    return logger


def parse_args(argv=None):
    parser = command_parser("train", "Self-play MaskablePPO training of a meadowzoo agent.")
    parser.add_argument("--backend", choices=BACKENDS, default="sb3",
                        help="sb3: this trainer; jax: the compiled trainer (meadowzoo.training.train_jax)")
    add_game_arguments(parser, seed_help="seed of the network, the envs and the opponents")
    parser.add_argument("--timesteps", type=positive_int, default=100_000, help="total learner decisions to train for")
    parser.add_argument("--opponents", help="fixed opponents of the pool, e.g. random,greedy (config default)")
    parser.add_argument("--ladder", help="agents of the periodic evaluation (config default)")
    parser.add_argument("--n-envs", type=positive_int, default=2, help="parallel env processes (one per core)")
    parser.add_argument("--eval-every", type=positive_int, help="timesteps between ladder evaluations (config default)")
    parser.add_argument("--eval-games", type=positive_int, help="games per ladder opponent (config default)")
    parser.add_argument("--checkpoint-every", type=positive_int, help="timesteps between checkpoints (config default)")
    parser.add_argument("--n-steps", type=positive_int, help="rollout length per env (config default)")
    parser.add_argument("--batch-size", type=positive_int, help="PPO minibatch size (config default)")
    parser.add_argument("--learning-rate", type=positive_float, help="PPO learning rate (config default)")
    parser.add_argument("--fixed-share", type=share,
                        help="share of opponents drawn from --opponents once snapshots exist (1: only those)")
    parser.add_argument("--snapshot-threshold", type=non_negative_float,
                        help="ladder score that adds a frozen copy of the learner to the pool (above 1: never)")
    parser.add_argument("--ent-coef", type=non_negative_float, help="PPO entropy bonus (config default)")
    parser.add_argument("--advice", choices=ADVICE_KINDS,
                        help="append this heuristic's advice to the observation (meadowzoo.agents.advice, AdvisedPolicy)")
    parser.add_argument("--out", help=f"run directory (default {DEFAULT_OUT}/<game>-<players>p-seed<seed>)")
    parser.add_argument("--fresh", action="store_true", help="ignore an existing checkpoint in --out")
    parser.add_argument("--imitate", help="warm start: behaviour-clone this agent (e.g. strong) before self-play")
    parser.add_argument("--imitate-games", type=positive_int, default=200, help="teacher games for --imitate")
    parser.add_argument("--imitate-epochs", type=positive_int, default=20, help="passes over the teacher's decisions")
    parser.add_argument("--imitate-workers", type=positive_int, default=1,
                        help="processes collecting the teacher's games (same data for any number)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar or progress lines")
    args = parser.parse_args(argv)
    args.env_options = check_game_arguments(parser, args)
    for flag, value in (("--opponents", args.opponents), ("--ladder", args.ladder), ("--imitate", args.imitate)):
        if value:
            check_agents(parser, flag, value.split(","), args.game, people=False)
    if args.out is not None:
        check_writable(parser, "--out", args.out)
    return args


def split_backend(argv=None) -> tuple[str, list[str]]:
    """``--backend`` and the other arguments of a command line."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--backend", choices=BACKENDS, default="sb3")
    known, rest = parser.parse_known_args(sys.argv[1:] if argv is None else list(argv))
    return known.backend, rest


@stops_on_ctrl_c
def main(argv=None) -> dict:
    backend, rest = split_backend(argv)
    if backend == "jax":  # the compiled trainer (same vocabulary, its own settings: see its --help)
        from meadowzoo.training import train_jax

        return train_jax.main(rest, prog=f"{program_name('train')} --backend jax")
    args = parse_args(argv)
    import torch

    from meadowzoo.training import checkpoints
    from meadowzoo.training.config import config_for
    from meadowzoo.training.files import atomic_write_json
    from meadowzoo.training.stats import interval_text

    torch.set_num_threads(1)  # reproducible and no oversubscription next to the env processes
    config = config_for(args.game, opponents=args.opponents, ladder=args.ladder, eval_every=args.eval_every,
                        eval_games=args.eval_games, checkpoint_every=args.checkpoint_every,
                        n_steps=args.n_steps, batch_size=args.batch_size, learning_rate=args.learning_rate,
                        ent_coef=args.ent_coef, snapshot_threshold=args.snapshot_threshold,
                        fixed_share=args.fixed_share)
    out = Path(args.out or f"{DEFAULT_OUT}/{args.game}-{args.players}p-seed{args.seed}")
    out.mkdir(parents=True, exist_ok=True)
    command = {"argv": argv if argv is not None else sys.argv[1:], "args": {k: v for k, v in vars(args).items() if k != "env_options"}, "config": config.as_dict()}
    if args.fresh:
        checkpoints.start_afresh(out, ("evaluations.csv", "state.json", "final.json"))
    if (out / "checkpoint.zip").exists():
        print(f"ignoring {out / 'checkpoint.zip'}: an old pickled checkpoint is never loaded (it could run code)")
    found = checkpoints.latest(out)
    # what the network was trained on: a checkpoint of another game, player count or env options is
    # not this run's (Haste Bock?'s networks fit every player count, so the sizes alone do not tell)
    run = {"game": args.game, "players": args.players, "options": args.env_options}
    if found:
        # (absent in checkpoints made before it was recorded: then nothing is compared)
        differing = checkpoints.other_settings(found.state.get("run", {}), run, optional=tuple(run))
        if differing:
            command_error("train", checkpoints.other_run_message(out, differing))
        args.advice = found.settings["advice"]  # the checkpoint's network decides whether the observation carries advice
        if args.imitate:
            print(f"--imitate {args.imitate} is ignored: the run resumes from its checkpoint (cloning happens at its start)")
    atomic_write_json(out / "command.json", command)
    vec = build_vec_env(args.game, args.players, config.opponents, config.fixed_share, args.n_envs,
                        args.env_options, advice=args.advice)
    resume = found is not None
    if resume:
        settings, state = found.settings, found.state
        state["started"] = time.time()
        model = build_model(settings, vec, args.seed, out)
        for snapshot in state["snapshots"]:
            vec.env_method("add_snapshot_to_pool", snapshot)
        # the games first: replaying them may draw from this process's generators, which the
        # checkpoint then sets to where the interrupted run had them
        games = resume_games(model, found)
        checkpoints.restore(model, found)
        cut_evaluations(out / "evaluations.csv", found.timesteps)
        print(f"resuming {out} at {model.num_timesteps} timesteps; {games}")
        # a checkpoint keeps its own PPO settings: say so when the command asks for others
        asked = ppo_settings(config, args.advice)
        ignored = [name for name in asked if settings.get(name) != asked[name]]
        if ignored:
            print("the checkpoint's PPO settings are kept, not this command's: " + ", ".join(
                f"{name}={settings.get(name)} (asked {asked[name]})" for name in ignored))
    else:
        state = {"timesteps": 0, "snapshots": [], "started": time.time(), "elapsed_before": 0.0, "invocations": [],
                 "run": run}
        settings = ppo_settings(config, args.advice)
        model = build_model(settings, vec, args.seed, out)
        if args.imitate:
            from meadowzoo.training.imitation import agreement, collect, pretrain
            from meadowzoo.training.progress import Progress

            def progress(what: str, total: int, unit: str) -> Progress:  # lines even in logs (main job)
                return Progress(what, total, unit, enabled=not args.quiet)

            data = collect(args.game, args.players, args.imitate, args.imitate_games, seed=args.seed,
                           advice=args.advice, workers=args.imitate_workers,
                           progress=progress(f"collecting {args.imitate}'s games", args.imitate_games, "games"),
                           **args.env_options)
            losses = pretrain(model, data, epochs=args.imitate_epochs, seed=args.seed,
                              progress=progress(f"imitation epochs ({len(data)} decisions)", args.imitate_epochs,
                                                "epochs"))
            # games the network never saw (seeds far from the training games') show whether it
            # learned the teacher's play or memorised its games
            held_out_games = max(1, args.imitate_games // 10)
            held_out = collect(args.game, args.players, args.imitate, held_out_games,
                               seed=args.seed + HELD_OUT_SEED_OFFSET, advice=args.advice,
                               workers=args.imitate_workers,
                               progress=progress("collecting held-out games", held_out_games, "games"),
                               **args.env_options)
            matched = agreement(model.policy, held_out)
            state["imitation"] = {"teacher": args.imitate, "decisions": len(data), "losses": losses,
                                  "held_out_decisions": len(held_out), "held_out_agreement": matched}
            print(f"behaviour cloning of {args.imitate}: {len(data)} decisions, loss {losses[0]:.3f} -> "
                  f"{losses[-1]:.3f}; matches {matched:.1%} of {len(held_out)} held-out decisions")
    # a run may be continued by a later command (e.g. with more --timesteps): every invocation is
    # kept so the shipped record tells how the policy was really made
    state["invocations"].append({"argv": command["argv"], "from_timesteps": int(model.num_timesteps)})
    remaining = max(0, args.timesteps - model.num_timesteps)
    if remaining and resume:
        model.set_logger(resumed_logger(out / "tb", model.num_timesteps))
    if remaining:
        model.learn(total_timesteps=remaining, callback=make_callbacks(args, config, out, state, settings),
                    reset_num_timesteps=not resume, tb_log_name="ppo")
    checkpoint(model, out, state, settings)
    vec.close()
    from meadowzoo.agents.policy import save_policy

    policy_path = save_policy(model, out / "policy.pt", args.game, env_options(args),
                              note=f"seed={args.seed} timesteps={model.num_timesteps}", advice=args.advice)
    final = {"timesteps": int(model.num_timesteps), "wall_seconds": round(state["elapsed_before"], 1), "ladder": {}}
    games = max(config.eval_games, 100)
    for opponent, (score, interval) in ladder_scores(args, policy_path, config.ladder, games, seed=123_456).items():
        final["ladder"][opponent] = {"score": round(score, 4), "games": games,
                                     "ci95": [round(x, 4) for x in interval] if interval else None}
    atomic_write_json(out / "final.json", final)
    print(f"\n{'opponent':<16}{'score':>8}   95% interval")
    for opponent, row in final["ladder"].items():
        print(f"{opponent:<16}{row['score']:>8.3f}   {interval_text(row['ci95'], digits=3)}")
    print(f"policy: {policy_path}  ({final['timesteps']} timesteps, {final['wall_seconds']} s)")
    return final


if __name__ == "__main__":
    main()
