"""RLlib (new API stack) PPO with action masking on a meadowzoo game.

RLlib plays PettingZoo-style games through its ``MultiAgentEnv`` API, and an action-masking PPO
module (RLlib's example one, or meadowzoo's :class:`~meadowzoo.training.rllib_module.MaskedPPOTorchRLModule`
used here, the same idea on RLlib's supported PPO module) reads the observation under the key
``observations`` and a float mask under ``action_mask``; PettingZoo's key is ``observation`` with
an int8 mask. meadowzoo ships the small wrapper that bridges the two:
:class:`meadowzoo.training.rllib_env.MeadowzooMultiAgentEnv` (``env_config``: ``game``, the env
options, ``fixed_opponents`` and ``fixed_share``: here every seat but the learner's is played by
``--opponents``, so one RLlib module learns).

    python examples/rllib_ppo.py --game haste_bock --players 2 --iterations 20

For self-play against frozen snapshots of the learner see ``python -m meadowzoo.training.rllib_selfplay``.
Prints the learner's mean episode return per iteration.
"""

from __future__ import annotations

import argparse

import meadowzoo
from meadowzoo.training.arguments import check_agents, check_game_arguments
from meadowzoo.training.rllib_env import MeadowzooMultiAgentEnv

MODULE = "main"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="examples/rllib_ppo.py", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--game", default="haste_bock", choices=sorted(meadowzoo.GYM_IDS), help="which game")
    parser.add_argument("--players", type=int, default=2, help="players per game (the learner and its opponents)")
    parser.add_argument("--opponents", default="random", help="opponent specs, comma-separated")
    parser.add_argument("--max-turns", type=int, default=120,
                        help="cut Hase und Igel games after this many player turns (scored by the standing)")
    parser.add_argument("--iterations", type=int, default=20, help="RLlib training iterations")
    parser.add_argument("--steps", type=int, default=2000, help="env steps per iteration (the train batch)")
    parser.add_argument("--seed", type=int, default=0, help="seed of RLlib and the envs")
    args = parser.parse_args(argv)
    check_game_arguments(parser, args)  # a player count the game lacks, an unknown opponent: one line, exit 2
    check_agents(parser, "--opponents", args.opponents.split(","), args.game, people=False)
    for flag, value in (("--iterations", args.iterations), ("--steps", args.steps), ("--max-turns", args.max_turns)):
        if value < 1:
            parser.error(f"argument {flag}: must be at least 1, got {value}")
    return args


def build_config(args: argparse.Namespace):
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from meadowzoo.training.rllib_module import MaskedPPOTorchRLModule

    env_config = {"game": args.game, "num_players": args.players, "fixed_opponents": args.opponents,
                  "fixed_share": 1.0}
    if args.game == "hase_und_igel":  # cut long random races, scored by the standing at the cut
        env_config.update(max_turns=args.max_turns, truncation_scoring="standing")
    model = DefaultModelConfig(fcnet_hiddens=[64, 64], fcnet_activation="tanh", head_fcnet_hiddens=[])
    return (
        PPOConfig()
        # RLlib's env check steps random actions, ignoring the mask; the wrapper, like PettingZoo,
        # refuses illegal actions, so the check is off (the wrapper has its own tests)
        .environment(MeadowzooMultiAgentEnv, env_config=env_config, disable_env_checking=True)
        .env_runners(num_env_runners=0, num_envs_per_env_runner=1)  # sample in this process
        .learners(num_learners=0)
        .training(train_batch_size_per_learner=args.steps, minibatch_size=min(128, args.steps), num_epochs=2,
                  lr=3e-4)
        .multi_agent(policies={MODULE}, policy_mapping_fn=lambda agent_id, episode, **kwargs: MODULE)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            MODULE: RLModuleSpec(module_class=MaskedPPOTorchRLModule, model_config=model)}))
        .debugging(seed=args.seed)
    )


def train(args: argparse.Namespace) -> list[dict]:
    import ray

    started = not ray.is_initialized()
    if started:
        # a new local instance (address="local"), never a cluster that happens to run on this machine
        ray.init(address="local", num_cpus=1, include_dashboard=False, logging_level="WARNING")
    algorithm = build_config(args).build_algo()
    history = []
    try:
        for _ in range(args.iterations):
            result = algorithm.train()
            runners = result["env_runners"]
            row = {"iteration": algorithm.iteration, "env_steps": runners["num_env_steps_sampled_lifetime"],
                   "episodes": runners.get("num_episodes_lifetime", 0),
                   "learner_return": runners.get("agent_episode_returns_mean", {}).get("learner")}
            history.append(row)
            print(" ".join(f"{k}={v}" for k, v in row.items()), flush=True)
    finally:
        algorithm.stop()
        if started:
            ray.shutdown()
    return history


if __name__ == "__main__":
    train(parse_args())
