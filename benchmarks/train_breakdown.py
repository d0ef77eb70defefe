"""Where an update of the compiled self-play trainer spends its time, and the fastest it could run
with its network on this machine (needs the ``jax`` extra).

    python -m benchmarks.train_breakdown --game haste_bock --cores 2
    python -m benchmarks.train_breakdown --game hase_und_igel --cores 2 --update-epochs 1 --json out.json

Three compiled programs run on the same devices as the trainer (``--devices``, default one per core
of ``--cores``), with the game's settings (:mod:`meadowzoo.training.jax_config`; flags override
single fields), rounds interleaved and each figure the best round, so that load from other
processes hurts every figure alike:

* **update**: :meth:`SelfPlayPPO.update`, the whole update (rollout with the engine and network
  opponents, GAE, population, PPO epochs), as :mod:`benchmarks.train_speed` times it;
* **PPO epochs**: the trainer's own ``_epochs`` (``update_epochs`` passes of ``num_minibatches``
  minibatches: forward and backward passes of actor and critic, the clipped loss, Adam) on a
  batch of the update's shape (over ``epoch_share`` of its rows, as the update);
* **rollout network**: the network passes of the rollout and nothing else, with no engine: per
  learner step the learner's actor and critic on every game, and the opponents' actor (mapped over
  the population slots, as in training) once per pass, ``passes_per_step`` passes (at least one;
  one fewer where the settings keep the first pass for learners, ``opponents_in_first_pass``).
  A capped learner step runs that many passes whenever one game of the batch needs them, which at
  these batch sizes is nearly always (``docs/jax.md``), so this is the least the rollout's network
  costs.

*rest* = update − epochs − rollout network: the engine's steps, sampling, the selects of the
while loop, GAE and the population. **Network bound** = learner steps of an update ÷ (epochs +
rollout network): the learner steps/s the trainer could not exceed with this network, these
settings and these cores even if the engine and everything else cost nothing. It says whether a
speed target can be reached by engineering or only by another recipe (a narrower network, fewer
epochs). ``--sb3`` also times the Stable-Baselines3 trainer in the same run
(:func:`benchmarks.train_speed.sb3_speed`) and prints both figures as multiples of it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import types

from benchmarks.machine import cpu_info, describe_cpu
from benchmarks.train_speed import add_setting_flags, finish, pin_with_devices, setting_overrides


def opponent_passes(cfg) -> int:
    """The opponents' forward passes a learner step of the trainer runs at least: one per pass of
    the cap, but the first pass runs none where the settings keep it for learners (uncapped, the
    first pass never plays opponents, and the loop runs at least one more)."""
    if cfg.passes_per_step and not cfg.opponents_in_first_pass:
        return cfg.passes_per_step - 1
    return max(cfg.passes_per_step, 1)


def network_programs(trainer):
    """The two network-only programs of ``trainer``, as plain functions of one device's share
    (``epochs(params, opt_state, flat, key)`` and ``rollout(params, slot_params, observation,
    mask, key)``), and ``flat_batch(key)``: a batch of the update's shape for ``epochs``."""
    import jax
    import jax.numpy as jnp

    from meadowzoo.training.jax_ppo import AXIS
    from meadowzoo.training.jax_sampling import sample

    cfg, net = trainer.config, trainer.network
    axis = AXIS if trainer.devices > 1 else None
    passes = opponent_passes(cfg)
    size = trainer.local_envs * cfg.num_steps

    def epochs(params, opt_state, flat, key):
        # over the rows the settings train on (epoch_share), as the update does
        rows = jnp.arange(cfg.epoch_rows, dtype=jnp.int32) if cfg.epoch_rows < size else None
        (params, opt_state), losses = trainer._epochs(params, opt_state, flat, key, axis, rows=rows)
        return params, losses

    def rollout(params, slot_params, observation, mask, key):
        def learner_step(observation, step_key):
            keys = jax.random.split(step_key, passes + 1)
            logits = net.logits(params["actor"], observation, mask)
            value = net.value(params["critic"], observation)
            action = sample(cfg.sampler, keys[0], logits)
            # each pass reads an observation that depends on the last pass's result, as the
            # engine's next state would, so that XLA cannot share work between passes
            observation = observation.at[:, 0].add(value * 1e-6 + action * 1e-6)
            for k in keys[1:]:
                games = types.SimpleNamespace(observation=observation, legal_action_mask=mask)
                opponent = trainer._opponent_actions(slot_params, games, k)
                observation = observation.at[:, 0].add(opponent * 1e-6)
            return observation, value.sum()

        observation, values = jax.lax.scan(learner_step, observation, jax.random.split(key, cfg.num_steps))
        return observation, values.sum()

    def flat_batch(key):
        obs_size, actions = net.observation_size, net.num_actions
        k_obs, k_act, k_adv = jax.random.split(key, 3)
        observation = (jax.random.uniform(k_obs, (size, obs_size)) < 0.1).astype(jnp.float32)
        mask = jnp.ones((size, actions), bool)
        action = jax.random.randint(k_act, (size,), 0, actions, dtype=jnp.int32)
        log_prob = jnp.full((size,), -jnp.log(float(actions)), jnp.float32)
        value = jnp.zeros((size,), jnp.float32)
        advantages = jax.random.normal(k_adv, (size,), jnp.float32)
        return (observation, mask, action, log_prob, value, advantages, advantages, jnp.ones((size,), bool))

    return epochs, rollout, flat_batch


class Timed:
    """One compiled program and its arguments; :meth:`round` runs it once and returns seconds."""

    def __init__(self, program, args) -> None:
        import jax

        self.program, self.args = program, args
        jax.block_until_ready(program(*args))  # compile and warm up

    def round(self) -> float:
        import jax

        start = time.perf_counter()
        jax.block_until_ready(self.program(*self.args))
        return time.perf_counter() - start


def breakdown(game: str, players: int, rounds: int, overrides: dict) -> dict:
    import jax
    import jax.numpy as jnp

    import meadowzoo.jax
    from meadowzoo.training import jax_population
    from meadowzoo.training.jax_config import jax_config_for
    from meadowzoo.training.jax_ppo import AXIS, SelfPlayPPO

    config = jax_config_for(game, players, **overrides)
    trainer = SelfPlayPPO(meadowzoo.jax.make(game, num_players=players), config)
    start = trainer.setup(0)
    runner = trainer.gathered(start)  # one copy of the network and population, for the network-only programs
    epochs, rollout, flat_batch = network_programs(trainer)
    n, d = trainer.local_envs, trainer.devices
    net = trainer.network
    slot_params = jax_population.member_params(runner.population, jnp.zeros(config.opponent_slots, jnp.int32))
    observation = jnp.zeros((n, net.observation_size), jnp.float32)
    mask = jnp.ones((n, net.num_actions), bool)
    keys = jax.random.split(jax.random.PRNGKey(1), d)
    if d == 1:
        flat = jax.jit(flat_batch)(keys[0])
        programs = {"epochs": (jax.jit(epochs), (runner.params, runner.opt_state, flat, keys[0])),
                    "rollout_network": (jax.jit(rollout), (runner.params, slot_params, observation, mask, keys[0]))}
    else:
        used = jax.local_devices()[:d]

        def copies(tree):
            return jax.tree_util.tree_map(lambda x: jnp.broadcast_to(x, (d,) + jnp.shape(x)), tree)

        flat = jax.pmap(flat_batch, devices=used)(keys)
        programs = {"epochs": (jax.pmap(epochs, axis_name=AXIS, devices=used),
                               (copies(runner.params), copies(runner.opt_state), flat, keys)),
                    "rollout_network": (jax.pmap(rollout, axis_name=AXIS, devices=used),
                                        (copies(runner.params), copies(slot_params), copies(observation),
                                         copies(mask), keys))}

    state = {"runner": start, "steps": []}

    def one_update():
        state["runner"], metrics = trainer.update(state["runner"])
        state["steps"].append(metrics["learner_steps"])
        return state["runner"], metrics

    timed = {"update": Timed(one_update, ())}
    timed.update({name: Timed(program, args) for name, (program, args) in programs.items()})
    best = {name: float("inf") for name in timed}
    for _ in range(rounds):
        for name, program in timed.items():
            best[name] = min(best[name], program.round())
    counted = [int(trainer.host_metrics({"n": s})["n"]) for s in state["steps"][1:]]  # the timed updates'
    steps = sum(counted) / len(counted)
    network = best["epochs"] + best["rollout_network"]
    return {"game": game, "players": players, "devices": d, "steps_per_update": config.steps_per_update,
            "learner_steps_per_update": round(steps, 3), "update_epochs": config.update_epochs,
            "num_minibatches": config.num_minibatches, "epoch_share": config.epoch_share,
            "passes_per_step": config.passes_per_step,
            "opponents_in_first_pass": config.opponents_in_first_pass,
            "hidden": list(config.hidden), "observation_size": net.observation_size, "num_actions": net.num_actions,
            "matmul_dtype": config.matmul_dtype, "loss_gradient": config.loss_gradient,
            "seconds": {name: round(value, 7) for name, value in best.items()},
            "rest_seconds": round(best["update"] - network, 7),
            "learner_steps_per_second": round(steps / best["update"], 1),
            "network_bound_steps_per_second": round(steps / network, 1),
            "network_share": round(network / best["update"], 3),
            "backend": jax.default_backend()}


def epoch_share_phrase(share: float) -> str:
    """How the PPO epochs' rows read in a report (``jax_config.epoch_share``): " over 0.8125 of
    the rows" below 1, nothing for every row. Also the trainer table's wording (jax_tables)."""
    return "" if share >= 1 else f" over {share:g} of the rows"


def report(result: dict) -> str:
    s, update = result["seconds"], result["seconds"]["update"]
    lines = [f"{result['game']} {result['players']}p on {result['devices']} device(s): network {result['observation_size']} "
             f"inputs, hidden {result['hidden']}, {result['num_actions']} actions, "
             f"{result.get('matmul_dtype', 'float32')} products, {result.get('loss_gradient', 'autodiff')} loss "
             f"gradient; {result['update_epochs']} epochs × "
             f"{result['num_minibatches']} minibatches"
             f"{epoch_share_phrase(result.get('epoch_share', 1.0))}"
             f"; pass cap {result['passes_per_step']}"
             f"{'' if result.get('opponents_in_first_pass', True) else ' (first pass learners only)'}; "
             f"{result['learner_steps_per_update']:,.0f} learner steps an update"]
    for name, label in (("update", "whole update"), ("epochs", "PPO epochs"), ("rollout_network", "rollout network")):
        lines.append(f"  {label:<16} {s[name] * 1000:8.1f} ms  {100 * s[name] / update:5.1f}%")
    lines.append(f"  {'rest (engine …)':<16} {result['rest_seconds'] * 1000:8.1f} ms  "
                 f"{100 * result['rest_seconds'] / update:5.1f}%")
    if result["rest_seconds"] < 0:
        lines.append("  (rest below 0: timing noise, or passes the batch did not need; more --rounds, "
                     "a quieter machine or a larger batch)")
    lines.append(f"  learner steps/s {result['learner_steps_per_second']:,.0f}; network bound "
                 f"{result['network_bound_steps_per_second']:,.0f} (the network's passes alone)")
    if "sb3" in result:
        sb3 = result["sb3"]["steps_per_second"]
        lines.append(f"  SB3 {sb3:,.0f} learner steps/s: trainer {result['learner_steps_per_second'] / sb3:.1f}×, "
                     f"network bound {result['network_bound_steps_per_second'] / sb3:.1f}×")
    return "\n".join(lines)


#: the trainer settings this command's flags override
SETTINGS = ("hidden", "update_epochs", "num_envs", "num_steps", "opponents_in_first_pass", "matmul_dtype",
            "loss_gradient", "epoch_share")


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--game", default="haste_bock")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--cores", type=int, help="pin to the first N CPUs (e.g. 2)")
    parser.add_argument("--devices", type=int, help="JAX CPU devices (default: one per core used)")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds of each program (the best counts)")
    add_setting_flags(parser, SETTINGS)
    parser.add_argument("--sb3", action="store_true", help="also time the SB3 trainer (benchmarks.train_speed)")
    parser.add_argument("--sb3-steps", type=int, default=8192)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    cores, devices = pin_with_devices(args.cores, args.devices)
    overrides = setting_overrides(args, SETTINGS, devices)
    load_before = os.getloadavg()
    result = breakdown(args.game, args.players, args.rounds, overrides)
    if args.sb3:
        from benchmarks.train_speed import sb3_speed

        result["sb3"] = sb3_speed(args.game, args.players, args.sb3_steps, 2)
    result["load_before"] = [round(x, 2) for x in load_before]
    result["cores"] = cores
    result["cpu"] = cpu_info()
    print(f"CPU: {describe_cpu(result['cpu'])}")
    print(report(result))
    return finish(result, cores, args.json)


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
