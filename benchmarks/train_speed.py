"""Learner steps per second: the compiled JAX trainer next to the Stable-Baselines3 trainer, same run.

    python -m benchmarks.train_speed --game volle_wolle --players 2 --cores 2
    python -m benchmarks.train_speed --game volle_wolle --players 2 --jax-updates 10 --sb3-steps 8192 --json out.json

A *learner step* is one decision of the learner, as both trainers count it (``--timesteps``).

* **JAX**: :class:`meadowzoo.training.jax_ppo.SelfPlayPPO` with the game's settings
  (:mod:`meadowzoo.training.jax_config`; ``--num-envs``/``--num-steps`` override): the setup and
  one update run first (compilation, not timed), then ``--jax-updates`` updates are timed — the
  whole training (rollout with network opponents, GAE, PPO epochs). ``--devices`` (default: one
  per core of ``--cores``, else of the machine) splits the games over that many CPU devices,
  data-parallel (the trainer's ``devices`` setting; ``--devices 1``: one program).
* **SB3**: :mod:`meadowzoo.training.train`'s MaskablePPO with the game's settings on ``--sb3-envs``
  self-play env processes against its cheapest opponent pool (``random``), ``learn`` timed for
  ``--sb3-steps`` learner steps after one warm-up rollout.

``--cores N`` pins this process (and the SB3 env processes it starts) to the first N CPUs before
JAX or torch start, so that a many-core machine measures a two-core figure. Wall-clock time is
reported with the load average (``os.getloadavg``) before and after: on a shared machine the
figures are lower bounds, and the ratio is what to read (both measured under the same load).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.machine import cpu_info, describe_cpu
from meadowzoo.training.arguments import layer_widths
from meadowzoo.training.jax_config import LOSS_GRADIENTS, MATMUL_DTYPES  # (no JAX: settings only)


#: trainer settings that the timing commands (this one, :mod:`benchmarks.train_breakdown`) override
#: from their command lines: field -> the flag's add_argument options
SETTING_FLAGS = {
    "num_envs": dict(type=int, help="override the game's num_envs"),
    "num_steps": dict(type=int, help="override the game's num_steps"),
    "hidden": dict(type=layer_widths, help="override the game's hidden layer widths, e.g. 64,64"),
    "conv": dict(type=layer_widths, help="3x3 convolutions over the board planes first, e.g. 16,16"),
    "update_epochs": dict(type=int, help="override the game's PPO epochs"),
    "epoch_share": dict(type=float, help="override the share of the rollout's rows the PPO epochs run over"),
    "matmul_dtype": dict(choices=MATMUL_DTYPES + ("auto",), help="override the network's matrix-product precision"),
    "loss_gradient": dict(choices=LOSS_GRADIENTS, help="override how the PPO loss's policy terms are differentiated"),
    "opponents_in_first_pass": dict(action=argparse.BooleanOptionalAction,
                                    help="override the game's pass schedule (training.train_jax's flag of the same name)"),
}


def add_setting_flags(parser: argparse.ArgumentParser, fields: tuple[str, ...]) -> None:
    """A flag for each of these trainer settings (``--num-envs`` for ``num_envs``)."""
    for field in fields:
        parser.add_argument("--" + field.replace("_", "-"), **SETTING_FLAGS[field])


def setting_overrides(args: argparse.Namespace, fields: tuple[str, ...], devices: int) -> dict:
    """The settings the flags give (``None``: the game's own), and the devices."""
    return {**{field: getattr(args, field) for field in fields}, "devices": devices}


def pin(cores: int | None) -> list[int] | None:
    if not cores:
        return None
    available = sorted(os.sched_getaffinity(0))
    if cores > len(available):
        raise ValueError(f"--cores {cores}: only {len(available)} CPUs available")
    chosen = available[:cores]
    os.sched_setaffinity(0, chosen)
    return chosen


def pin_with_devices(cores: int | None, devices: int | None) -> tuple[list[int] | None, int]:
    """Pin to the first ``cores`` CPUs and give JAX ``devices`` CPU devices (default: one per CPU
    used), before JAX's first operation; returns the CPUs pinned and the devices JAX has."""
    chosen = pin(cores)
    wanted = devices or len(chosen or os.sched_getaffinity(0))
    import meadowzoo.jax

    return chosen, min(wanted, meadowzoo.jax.use_cpu_devices(wanted))


def finish(result: dict, cores: list[int] | None, json_path: str | None) -> dict:
    """Record the load average after the run next to the one before (``result["load_before"]``),
    print both, and write ``result`` to ``json_path`` if given."""
    result["load_after"] = [round(x, 2) for x in os.getloadavg()]
    print(f"load average before {result['load_before']}, after {result['load_after']} on {os.cpu_count()} CPUs"
          + (f", pinned to {cores}" if cores else ""))
    if json_path:
        Path(json_path).write_text(json.dumps(result, indent=2) + "\n")
    return result


def jax_speed(game: str, players: int, updates: int, overrides: dict) -> dict:
    import jax

    import meadowzoo.jax
    from meadowzoo.training.jax_config import jax_config_for
    from meadowzoo.training.jax_ppo import SelfPlayPPO

    config = jax_config_for(game, players, **overrides)
    trainer = SelfPlayPPO(meadowzoo.jax.make(game, num_players=players), config)
    start = time.time()
    runner, metrics = trainer.update(trainer.setup(0))
    jax.block_until_ready(metrics)
    compile_seconds = time.time() - start
    start, cpu = time.time(), time.process_time()
    counted = []  # the learner's decisions of each update (fewer than steps_per_update with a pass cap)
    for _ in range(updates):
        runner, metrics = trainer.update(runner)
        counted.append(metrics["learner_steps"])
    jax.block_until_ready((runner, metrics))
    seconds = time.time() - start
    steps = int(sum(int(trainer.host_metrics({"n": n})["n"]) for n in counted))
    return {"learner_steps": steps, "seconds": round(seconds, 2), "cpu_seconds": round(time.process_time() - cpu, 2),
            "steps_per_second": round(steps / seconds, 1), "compile_and_first_update_seconds": round(compile_seconds, 1),
            "num_envs": config.num_envs, "num_steps": config.num_steps, "update_epochs": config.update_epochs,
            "passes_per_step": config.passes_per_step, "opponents_in_first_pass": config.opponents_in_first_pass,
            "epoch_share": config.epoch_share, "sampler": config.sampler,
            "hidden": list(config.hidden), "conv": list(config.conv), "matmul_dtype": config.matmul_dtype,
            "loss_gradient": config.loss_gradient, "backend": jax.default_backend(), "devices": str(jax.devices())}


def sb3_speed(game: str, players: int, steps: int, envs: int) -> dict:
    import torch

    from meadowzoo.training.config import config_for
    from meadowzoo.training.train import build_model, build_vec_env, ppo_settings

    torch.set_num_threads(1)
    config = config_for(game)
    vec = build_vec_env(game, players, "random", config.fixed_share, envs, {})
    try:
        with tempfile.TemporaryDirectory() as out:
            model = build_model(ppo_settings(config, None), vec, 0, Path(out))
            warm = config.n_steps * envs
            model.learn(warm)  # the first rollout and update (process start-up, allocation)
            start = time.time()
            model.learn(steps, reset_num_timesteps=False)
            seconds = time.time() - start
            done = model.num_timesteps - warm
    finally:
        vec.close()
    return {"learner_steps": int(done), "seconds": round(seconds, 2), "steps_per_second": round(done / seconds, 1),
            "n_envs": envs, "n_steps": config.n_steps, "net_arch": list(config.net_arch), "opponents": "random"}


#: the trainer settings this command's flags override
SETTINGS = ("num_envs", "num_steps", "hidden", "conv", "opponents_in_first_pass", "matmul_dtype", "loss_gradient",
            "epoch_share")


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="volle_wolle")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--cores", type=int, help="pin to the first N CPUs (e.g. 2)")
    parser.add_argument("--jax-updates", type=int, default=10, help="timed updates of the compiled trainer")
    add_setting_flags(parser, SETTINGS)
    parser.add_argument("--sb3-steps", type=int, default=8192, help="timed learner steps of the SB3 trainer")
    parser.add_argument("--sb3-envs", type=int, default=2, help="SB3 env processes")
    parser.add_argument("--devices", type=int, help="JAX CPU devices (default: one per core used)")
    parser.add_argument("--skip-sb3", action="store_true")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    cores, devices = pin_with_devices(args.cores, args.devices)
    load_before = os.getloadavg()
    overrides = setting_overrides(args, SETTINGS, devices)
    result = {"game": args.game, "players": args.players, "cores": cores, "cpu_count": os.cpu_count(),
              "cpu": cpu_info(), "load_before": [round(x, 2) for x in load_before]}
    print(f"CPU: {describe_cpu(result['cpu'])}", flush=True)
    result["jax"] = jax_speed(args.game, args.players, args.jax_updates, overrides)
    print(f"JAX trainer: {result['jax']['steps_per_second']:,.0f} learner steps/s "
          f"({result['jax']['learner_steps']} steps in {result['jax']['seconds']} s; compile "
          f"{result['jax']['compile_and_first_update_seconds']} s)", flush=True)
    if not args.skip_sb3:
        result["sb3"] = sb3_speed(args.game, args.players, args.sb3_steps, args.sb3_envs)
        result["ratio"] = round(result["jax"]["steps_per_second"] / result["sb3"]["steps_per_second"], 1)
        print(f"SB3 trainer: {result['sb3']['steps_per_second']:,.0f} learner steps/s "
              f"({result['sb3']['learner_steps']} steps in {result['sb3']['seconds']} s)")
        print(f"ratio JAX / SB3: {result['ratio']}x")
    return finish(result, cores, args.json)


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
