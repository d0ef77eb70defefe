"""Tianshou (2.x) DQN with action masking on a meadowzoo game (Gymnasium view).

Tianshou masks actions when the observation is a dict with the keys ``obs`` and ``mask`` (its DQN
policy then never chooses, and its ε-greedy exploration never draws, a masked action). The view
(``gymnasium.make("meadowzoo/VolleWolle-v0", ...)``) gives the observation vector and the mask in
``info["action_mask"]``; :class:`TianshouMask` joins them into that dict. The learner plays against
``--opponents``; Hase und Igel games are cut at ``--max-turns`` and scored by the race standing
(``truncation_scoring="standing"``), so every episode ends with a signal.

    python examples/tianshou_dqn.py --game volle_wolle --players 2 --steps 20000

Prints Tianshou's progress per epoch and the mean return of greedy test episodes at the end.
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np
import torch
from tianshou.algorithm import DQN
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

import meadowzoo  # registers the Gymnasium ids
from meadowzoo.training.arguments import check_agents, check_game_arguments


class TianshouMask(gymnasium.ObservationWrapper):
    """The view's observation as Tianshou's masked observation ``{"obs": vector, "mask": bool}``."""

    def __init__(self, env: gymnasium.Env) -> None:
        super().__init__(env)
        n = int(env.action_space.n)
        self.observation_space = gymnasium.spaces.Dict({
            "obs": env.observation_space, "mask": gymnasium.spaces.MultiBinary(n)})
        self._mask = np.ones(n, dtype=bool)

    def reset(self, **kwargs):
        obs, info = self.env.reset(**kwargs)
        self._mask = info["action_mask"]
        return self.observation(obs), self.plain(info)

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        # the mask of a finished episode is all zero; Tianshou still computes (and discards) a
        # greedy action for it, which needs one allowed index
        self._mask = info["action_mask"] if info["action_mask"].any() else np.ones_like(info["action_mask"])
        return self.observation(obs), reward, terminated, truncated, self.plain(info)

    @staticmethod
    def plain(info: dict) -> dict:
        """The info keys present at every step (Tianshou stacks infos into arrays; keys present only
        at the end, ``final_rewards``, would be filled with NaN, which its buffer check refuses)."""
        return {"seat": info["seat"]}

    def observation(self, observation):
        return {"obs": observation, "mask": self._mask}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="examples/tianshou_dqn.py", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--game", default="volle_wolle", choices=sorted(meadowzoo.GYM_IDS), help="which game")
    parser.add_argument("--players", type=int, default=2, help="players per game (the learner and its opponents)")
    parser.add_argument("--opponents", default="random", help="opponent specs, comma-separated")
    parser.add_argument("--max-turns", type=int, default=120, help="cut Hase und Igel games after this many player turns (scored by the standing)")
    parser.add_argument("--steps", type=int, default=20_000, help="learner decisions collected in all")
    parser.add_argument("--epochs", type=int, default=5, help="training epochs (the steps are split among them)")
    parser.add_argument("--envs", type=int, default=4, help="games played side by side")
    parser.add_argument("--test-episodes", type=int, default=20, help="greedy test episodes after every epoch")
    parser.add_argument("--seed", type=int, default=0, help="seed of the envs and torch")
    args = parser.parse_args(argv)
    check_game_arguments(parser, args)  # a player count the game lacks, an unknown opponent: one line, exit 2
    check_agents(parser, "--opponents", args.opponents.split(","), args.game, people=False)
    if args.steps < args.epochs * 10:
        parser.error("--steps must be at least 10 per epoch")
    return args


def make_env(args: argparse.Namespace) -> gymnasium.Env:
    options = {"max_turns": args.max_turns, "truncation_scoring": "standing"} if args.game == "hase_und_igel" else {}
    return TianshouMask(gymnasium.make(meadowzoo.GYM_IDS[args.game], opponents=args.opponents,
                                       num_players=args.players, **options))


def train(args: argparse.Namespace) -> dict:
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)  # Tianshou's exploration draws from numpy's global generator
    training_envs = DummyVectorEnv([lambda: make_env(args) for _ in range(args.envs)])
    test_envs = DummyVectorEnv([lambda: make_env(args) for _ in range(args.envs)])
    training_envs.seed(args.seed)
    test_envs.seed(args.seed + 10_000)
    probe = make_env(args)
    net = Net(state_shape=probe.observation_space["obs"].shape, action_shape=int(probe.action_space.n),
              hidden_sizes=[128, 128])
    policy = DiscreteQLearningPolicy(model=net, action_space=probe.action_space, eps_training=0.2, eps_inference=0.0)
    algorithm = DQN(policy=policy, optim=AdamOptimizerFactory(lr=1e-3), gamma=0.99, n_step_return_horizon=3,
                    target_update_freq=200)
    training_collector = Collector[CollectStats](algorithm, training_envs,
                                                 VectorReplayBuffer(20_000, len(training_envs)), exploration_noise=True)
    test_collector = Collector[CollectStats](algorithm, test_envs, exploration_noise=False)
    training_collector.reset()
    result = algorithm.run_training(OffPolicyTrainerParams(
        training_collector=training_collector, test_collector=test_collector, max_epochs=args.epochs,
        epoch_num_steps=max(10, args.steps // args.epochs), collection_step_num_env_steps=10 * args.envs,
        test_step_num_episodes=args.test_episodes, batch_size=64, update_step_num_gradient_steps_per_sample=0.1,
        test_in_training=False, show_progress=False,
        training_fn=lambda epoch, env_step: policy.set_eps_training(max(0.05, 0.2 * (1 - env_step / args.steps))),
    ))
    test = test_collector.collect(n_episode=args.test_episodes, reset_before_collect=True)
    print(f"greedy test: {test.n_collected_episodes} episodes, mean return {test.returns_stat.mean:+.3f}")
    return {"algorithm": algorithm, "result": result, "test": test}


if __name__ == "__main__":
    train(parse_args())
