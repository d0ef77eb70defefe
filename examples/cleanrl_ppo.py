"""CleanRL-style single-file PPO with action masking on a meadowzoo game (Gymnasium view).

One file, no framework: torch, ``gymnasium.vector.SyncVectorEnv`` over the registered self-play view
(``gymnasium.make("meadowzoo/HaseUndIgel-v0", ...)``, the learner against ``--opponents``), and
CleanRL's PPO loop (GAE, clipped surrogate, value clipping, entropy bonus) with one change: the
policy's logits of illegal actions are set to -1e8 from the mask the view gives in
``info["action_mask"]``, stored with every transition, so the policy never samples an illegal move
and its log-probabilities are those of the masked distribution.

Hase und Igel games that random play does not finish are cut at ``--max-turns`` and scored by the
race standing at the cut (``truncation_scoring="standing"``), so every episode ends with a signal.

    python examples/cleanrl_ppo.py --game hase_und_igel --players 2 --total-timesteps 50000

Prints one line per update (episodes finished, their mean return, the losses) and the mean return of
the last episodes at the end.
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

import meadowzoo  # registers the Gymnasium ids
from meadowzoo.training.arguments import check_agents, check_game_arguments

MASKED_LOGIT = -1e8


def check_setup(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """A player count the game does not have or an unknown opponent: one line, exit status 2."""
    check_game_arguments(parser, args)
    check_agents(parser, "--opponents", args.opponents.split(","), args.game, people=False)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="examples/cleanrl_ppo.py", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--game", default="hase_und_igel", choices=sorted(meadowzoo.GYM_IDS), help="which game")
    parser.add_argument("--players", type=int, default=2, help="players per game (the learner and its opponents)")
    parser.add_argument("--opponents", default="random", help="opponent specs, comma-separated")
    parser.add_argument("--max-turns", type=int, default=120,
                        help="cut Hase und Igel games after this many player turns (scored by the standing)")
    parser.add_argument("--total-timesteps", type=int, default=50_000, help="learner decisions in all")
    parser.add_argument("--num-envs", type=int, default=4, help="games played side by side")
    parser.add_argument("--num-steps", type=int, default=128, help="decisions per env per update")
    parser.add_argument("--learning-rate", type=float, default=2.5e-4, help="Adam learning rate")
    parser.add_argument("--gamma", type=float, default=0.99, help="discount factor")
    parser.add_argument("--gae-lambda", type=float, default=0.95, help="GAE lambda")
    parser.add_argument("--num-minibatches", type=int, default=4, help="minibatches per update epoch")
    parser.add_argument("--update-epochs", type=int, default=4, help="passes over every update's batch")
    parser.add_argument("--clip-coef", type=float, default=0.2, help="PPO clipping range")
    parser.add_argument("--ent-coef", type=float, default=0.01, help="entropy bonus weight")
    parser.add_argument("--vf-coef", type=float, default=0.5, help="value loss weight")
    parser.add_argument("--max-grad-norm", type=float, default=0.5, help="gradient norm clipping")
    parser.add_argument("--seed", type=int, default=1, help="seed of the envs and torch")
    args = parser.parse_args(argv)
    check_setup(parser, args)
    if args.total_timesteps < args.num_envs * args.num_steps:
        parser.error(f"--total-timesteps must be at least --num-envs × --num-steps = {args.num_envs * args.num_steps}")
    return args


def make_env(args: argparse.Namespace) -> gymnasium.Env:
    options = {"max_turns": args.max_turns, "truncation_scoring": "standing"} if args.game == "hase_und_igel" else {}
    return gymnasium.make(meadowzoo.GYM_IDS[args.game], opponents=args.opponents, num_players=args.players,
                          **options)


def layer(inputs: int, outputs: int, std: float = np.sqrt(2)) -> nn.Linear:
    linear = nn.Linear(inputs, outputs)
    nn.init.orthogonal_(linear.weight, std)
    nn.init.constant_(linear.bias, 0.0)
    return linear


class Agent(nn.Module):
    def __init__(self, observations: int, actions: int, hidden: int = 64) -> None:
        super().__init__()
        self.critic = nn.Sequential(layer(observations, hidden), nn.Tanh(), layer(hidden, hidden), nn.Tanh(),
                                    layer(hidden, 1, std=1.0))
        self.actor = nn.Sequential(layer(observations, hidden), nn.Tanh(), layer(hidden, hidden), nn.Tanh(),
                                   layer(hidden, actions, std=0.01))

    def get_value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x)

    def get_action_and_value(self, x: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None):
        logits = torch.where(mask, self.actor(x), torch.tensor(MASKED_LOGIT))
        distribution = Categorical(logits=logits)
        if action is None:
            action = distribution.sample()
        return action, distribution.log_prob(action), distribution.entropy(), self.critic(x)


def train(args: argparse.Namespace) -> dict:
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    # SAME_STEP autoreset: a finished sub-env is reset inside the step that ends it, so the returned
    # observation and info["action_mask"] are already the next episode's (CleanRL's assumption)
    envs = gymnasium.vector.SyncVectorEnv([lambda: make_env(args) for _ in range(args.num_envs)],
                                          autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP)
    obs_size, actions = envs.single_observation_space.shape[0], int(envs.single_action_space.n)
    agent = Agent(obs_size, actions)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    steps, n = args.num_steps, args.num_envs
    obs_buf = torch.zeros((steps, n, obs_size))
    mask_buf = torch.zeros((steps, n, actions), dtype=torch.bool)
    action_buf = torch.zeros((steps, n), dtype=torch.long)
    logprob_buf, reward_buf, done_buf, value_buf = (torch.zeros((steps, n)) for _ in range(4))

    next_obs, info = envs.reset(seed=args.seed)
    next_obs, next_mask = torch.tensor(next_obs), torch.tensor(info["action_mask"])
    next_done = torch.zeros(n)
    returns: list[float] = []
    updates = args.total_timesteps // (n * steps)
    batch_size = n * steps
    minibatch_size = batch_size // args.num_minibatches
    started = time.time()
    for update in range(1, updates + 1):
        optimizer.param_groups[0]["lr"] = args.learning_rate * (1.0 - (update - 1.0) / updates)
        finished_before = len(returns)
        for step in range(steps):
            obs_buf[step], mask_buf[step], done_buf[step] = next_obs, next_mask, next_done
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs, next_mask)
            value_buf[step], action_buf[step], logprob_buf[step] = value.flatten(), action, logprob
            next_obs, reward, terminated, truncated, info = envs.step(action.numpy())
            done = np.logical_or(terminated, truncated)
            reward_buf[step] = torch.tensor(reward, dtype=torch.float32)
            next_obs, next_mask = torch.tensor(next_obs), torch.tensor(info["action_mask"])
            next_done = torch.tensor(done, dtype=torch.float32)
            returns += [float(r) for r in reward[done]]  # rewards come only at the end

        with torch.no_grad():  # generalised advantage estimation
            next_value = agent.get_value(next_obs).flatten()
            advantages = torch.zeros_like(reward_buf)
            last = torch.zeros(n)
            for t in reversed(range(steps)):
                following_done = next_done if t == steps - 1 else done_buf[t + 1]
                following_value = next_value if t == steps - 1 else value_buf[t + 1]
                delta = reward_buf[t] + args.gamma * following_value * (1 - following_done) - value_buf[t]
                last = delta + args.gamma * args.gae_lambda * (1 - following_done) * last
                advantages[t] = last
            targets = advantages + value_buf

        b_obs, b_mask = obs_buf.reshape(batch_size, obs_size), mask_buf.reshape(batch_size, actions)
        b_actions, b_logprobs = action_buf.reshape(-1), logprob_buf.reshape(-1)
        b_advantages, b_targets, b_values = advantages.reshape(-1), targets.reshape(-1), value_buf.reshape(-1)
        order = np.arange(batch_size)
        for _ in range(args.update_epochs):
            np.random.shuffle(order)
            for start in range(0, batch_size, minibatch_size):
                mb = order[start:start + minibatch_size]
                _, logprob, entropy, value = agent.get_action_and_value(b_obs[mb], b_mask[mb], b_actions[mb])
                ratio = (logprob - b_logprobs[mb]).exp()
                mb_adv = b_advantages[mb]
                mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
                policy_loss = torch.max(-mb_adv * ratio,
                                        -mb_adv * torch.clamp(ratio, 1 - args.clip_coef, 1 + args.clip_coef)).mean()
                value = value.flatten()
                clipped = b_values[mb] + torch.clamp(value - b_values[mb], -args.clip_coef, args.clip_coef)
                value_loss = 0.5 * torch.max((value - b_targets[mb]) ** 2, (clipped - b_targets[mb]) ** 2).mean()
                loss = policy_loss - args.ent_coef * entropy.mean() + args.vf_coef * value_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        recent = returns[finished_before:]
        print(f"update {update}/{updates}: {len(recent)} episodes, mean return "
              f"{np.mean(recent) if recent else float('nan'):+.3f}, policy loss {policy_loss.item():.4f}, "
              f"value loss {value_loss.item():.4f}, {time.time() - started:.0f}s", flush=True)
    envs.close()
    last = returns[-100:]
    print(f"episodes {len(returns)}, mean return of the last {len(last)}: {np.mean(last) if last else float('nan'):+.3f}")
    return {"agent": agent, "episodes": len(returns), "returns": returns, "updates": updates}


if __name__ == "__main__":
    train(parse_args())
