"""Random-play speed of meadowzoo's batched JAX engines next to Pgx's connect_four and the
project's own ``raw_env``, measured in the same run (needs the ``jax`` extra).

    python -m benchmarks.jax_speed                       # Volle Wolle 4p, batches 1, 64, 1024, 4096
    python -m benchmarks.jax_speed --quick               # batches 1 and 1024, shorter rounds
    python -m benchmarks.jax_speed --game volle_wolle --players 2 --json out.json

Both JAX engines run the same program: ``jit`` of a ``fori_loop`` of ``--unroll`` steps, each a
``vmap``-ed ``step`` with Pgx's ``auto_reset`` (a finished game starts afresh) and a uniform
random legal action per game (:func:`uniform_legal`, one 32-bit draw per game). Steps/s count every game
step of the batch (batch × steps per call × calls ÷ wall time after ``block_until_ready``);
compile time is ``lower().compile()`` of that program. ``raw_env`` is driven by the loop of
:mod:`benchmarks.speed` (``agent_iter`` → ``last()`` → a random legal action → ``step``). Rounds
of the configurations are interleaved and each figure is the best round, so that load from other
processes hurts every figure alike. JAX times are wall-clock (XLA uses every core); ``raw_env``'s
is the CPU time of its one thread, as in :mod:`benchmarks.speed`. Runs unchanged wherever JAX finds a GPU (the device is printed).

Devices: ``--devices N`` splits the batch over N CPU devices (one per core), each running its
share of the games as an independent program (``jax.pmap``), as one would split a batch over
several GPUs; both JAX engines (ours and connect four) get the same split. It is not the default:
it helped Volle Wolle 2p under load (about 1.3×) but cost Volle Wolle 4p on a quiet machine
(204,355 against 285,368 steps/s with one device, 2026-12-04), both on an Intel Xeon, so one program
it is unless asked; on an AMD EPYC with AVX2 (session 29) it was 1.2–1.7× faster for every game.
Batches smaller than the device count, or not divisible by it, run on one device. The device count
must be set before JAX starts its CPU backend: the command line does it; where JAX is already
running (an importing test), the devices it has are used.
"""

from __future__ import annotations

import argparse
import json
import time

import jax
import jax.numpy as jnp

import meadowzoo.jax as mjax
from benchmarks.machine import cpu_info, describe_cpu
from benchmarks.speed import play
from meadowzoo.envs.registry import game_module


def kth_set_bit(word: jax.Array, k: jax.Array) -> jax.Array:
    """Position (0..31) of set bit number ``k`` (0-based, from the lowest) of each uint32 ``word``
    (``k`` below its bit count): a binary search on bit counts, five steps."""
    position = jnp.zeros(word.shape, jnp.int32)
    for width in (16, 8, 4, 2, 1):
        low = jax.lax.population_count(word & jnp.uint32((1 << width) - 1)).astype(jnp.int32)
        up = k >= low
        k = jnp.where(up, k - low, k)
        word = jnp.where(up, word >> width, word)
        position = position + jnp.where(up, width, 0)
    return position


#: a uint32 holding four 0/1 bytes b0..b3 (b0 the lowest), times this, has b0 + 2·b1 + 4·b2 + 8·b3 in
#: its top four bits: each byte's bit lands on bit 28 + k, the cross terms on distinct lower bits
#: (no carries) or beyond bit 31
_NIBBLE_GATHER = 0x10204080


def pack_mask(mask: jax.Array) -> jax.Array:
    """uint32 (batch, ceil(actions / 32)): bit ``i`` of word ``w`` is ``mask[:, 32·w + i]``. The
    mask's bytes are read four at a time as one uint32 and gathered into four bits by one
    multiplication (:data:`_NIBBLE_GATHER`), then eight such nibbles make a word: about half the
    time of shifting and summing 32 single bits on the CPU (session 32)."""
    batch, actions = mask.shape
    blocks = -(-actions // 32)
    padded = jnp.pad(mask, ((0, 0), (0, blocks * 32 - actions))).astype(jnp.uint8).reshape(batch, blocks, 8, 4)
    nibbles = (jax.lax.bitcast_convert_type(padded, jnp.uint32) * jnp.uint32(_NIBBLE_GATHER)) >> 28
    return (nibbles << (4 * jnp.arange(8, dtype=jnp.uint32))).sum(2, dtype=jnp.uint32)


def uniform_legal(key: jax.Array, mask: jax.Array) -> jax.Array:
    """A uniform random legal action per row of ``mask`` (batch, actions) from one 32-bit draw
    per game: the ``k``-th legal action, ``k = (u·legal count) >> 24`` for a 24-bit ``u``. Gumbel
    sampling over every action (``jax.random.categorical``) costs more threefry than a whole
    connect-four step, and running counts (``cumsum``, a slow ``reduce-window`` on the CPU) cost
    more than a Volle Wolle step's mask, so the mask is packed into 32-bit words, one per block of
    32 actions: the legal actions of earlier blocks come from the words' bit counts (a product
    with a triangular matrix, exact in float32), the action within its block from
    :func:`kth_set_bit`. Same picks as counting through the mask action by action (tested)."""
    batch, actions = mask.shape
    blocks = -(-actions // 32)
    words = pack_mask(mask)
    per_block = jax.lax.population_count(words).astype(jnp.int32)
    u = (jax.random.bits(key, (batch,), jnp.uint32) >> 8).astype(jnp.int32)
    count = per_block.sum(1)
    k = ((u >> 12) * count + (((u & 0xFFF) * count) >> 12)) >> 12  # (u·count) >> 24 without overflow
    if blocks == 1:
        return kth_set_bit(words[:, 0], k)
    earlier = jnp.triu(jnp.ones((blocks, blocks), jnp.float32), 1)  # earlier[i, j]: block i is before block j
    before = (per_block.astype(jnp.float32) @ earlier).astype(jnp.int32)  # legal actions in earlier blocks
    block = (before <= k[:, None]).sum(1) - 1  # the last block starting at or before k
    rest = k - jnp.take_along_axis(before, block[:, None], 1)[:, 0]
    word = jnp.take_along_axis(words, block[:, None], 1)[:, 0]
    return (block * 32 + kth_set_bit(word, rest)).astype(jnp.int32)


def rollout_program(env, batch: int, unroll: int, step=None):
    """``run(states, key) -> (states, key)``: ``unroll`` random-play steps of the whole batch.
    ``step(state, action, key)`` is one game's step, by default Pgx's ``auto_reset`` of the env's
    (another one lets an experiment time a variant in the same program shape)."""
    from pgx.experimental import auto_reset  # importing pgx starts JAX's backend: not before main() chose the devices
    step = jax.vmap(step or auto_reset(env.step, env.init))

    def one(_, carry):
        states, key = carry
        key, act_key, step_key = jax.random.split(key, 3)
        actions = uniform_legal(act_key, states.legal_action_mask)
        return step(states, actions, jax.random.split(step_key, batch)), key

    return jax.jit(lambda states, key: jax.lax.fori_loop(0, unroll, one, (states, key)))


def split_count(batch: int, devices: int) -> int:
    """Devices a batch is split over: all of them when it divides evenly, else one."""
    return devices if devices > 1 and batch >= devices and batch % devices == 0 else 1


class JaxRunner:
    """One engine at one batch size: compiled once, then timed round by round. With ``devices``
    > 1 the batch is split into equal shares, one per device, each an independent program."""

    def __init__(self, env, batch: int, unroll: int, seed: int = 0, devices: int = 1) -> None:
        self.batch, self.unroll = batch, unroll
        self.devices = split_count(batch, devices)
        share = batch // self.devices
        keys = jax.random.split(jax.random.PRNGKey(seed), batch)
        if self.devices == 1:
            self.states = jax.jit(jax.vmap(env.init))(keys)
            self.key = jax.random.PRNGKey(seed + 1)
            program = jax.jit(rollout_program(env, batch, unroll))
        else:
            used = jax.local_devices()[:self.devices]
            self.states = jax.pmap(jax.vmap(env.init), devices=used)(keys.reshape((self.devices, share) + keys.shape[1:]))
            self.key = jax.random.split(jax.random.PRNGKey(seed + 1), self.devices)
            program = jax.pmap(rollout_program(env, share, unroll), devices=used)
        start = time.perf_counter()
        self.run = program.lower(self.states, self.key).compile()
        self.compile_seconds = time.perf_counter() - start
        self.states, self.key = jax.block_until_ready(self.run(self.states, self.key))  # warm

    def measure(self, seconds: float) -> float:
        calls = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            self.states, self.key = jax.block_until_ready(self.run(self.states, self.key))
            calls += 1
        return calls * self.unroll * self.batch / (time.perf_counter() - start)


def raw_env_speed(game: str, players: int, seconds: float, seed: int) -> float:
    """``raw_env`` steps/s by :func:`benchmarks.speed.play` (CPU time of this one-threaded loop:
    its speed on a free core, which only favours it on a busy machine)."""
    steps, _, elapsed = play(game_module(game).raw_env(num_players=players), seconds, seed)
    return steps / elapsed


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--game", default="volle_wolle", choices=mjax.available())
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 64, 1024, 4096])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per round and configuration")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the best counts")
    parser.add_argument("--unroll", type=int, default=32, help="steps per jitted call")
    parser.add_argument("--quick", action="store_true", help="batches 1 and 1024, 1 s rounds, 2 rounds")
    parser.add_argument("--devices", type=int, default=1,
                        help="CPU devices to split each batch over (default 1: one program; see the docstring)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    if args.devices < 1:
        parser.error("--devices must be at least 1")
    mjax.use_cpu_devices(args.devices)
    import pgx  # after the device count: importing pgx starts JAX's backend
    if args.quick:
        args.batches, args.seconds, args.rounds = [1, 1024], 1.0, 2
    device = jax.devices()[0]
    devices = min(args.devices, jax.local_device_count())
    print(f"JAX {jax.__version__} on {device.platform} ({device.device_kind}), {jax.device_count()} device(s), "
          f"batches split over {devices}; pgx {pgx.__version__}; CPU: {describe_cpu()}")
    engines = {args.game: mjax.make(args.game, num_players=args.players), "connect_four": pgx.make("connect_four")}
    runners = {}
    for batch in args.batches:
        for name, env in engines.items():
            runners[name, batch] = runner = JaxRunner(env, batch, args.unroll, devices=devices)
            print(f"compiled {name} batch {batch} on {runner.devices} device(s): {runner.compile_seconds:.1f} s",
                  flush=True)
    best: dict = {}
    for _ in range(args.rounds):
        best["raw_env"] = max(best.get("raw_env", 0.0), raw_env_speed(args.game, args.players, args.seconds, 0))
        for key, runner in runners.items():
            best[key] = max(best.get(key, 0.0), runner.measure(args.seconds))
    raw = best["raw_env"]
    label = f"{args.game} {args.players}p"
    print(f"\n{label} raw_env (PettingZoo AEC loop, one core): {raw:,.0f} steps/s")
    print(f"{'batch':>6}{'devices':>8}{label + ' steps/s':>24}{'compile s':>11}{'connect_four steps/s':>22}{'compile s':>11}"
          f"{'x raw_env':>11}{'x connect_four':>16}")
    rows = []
    for batch in args.batches:
        ours, theirs = runners[args.game, batch], runners["connect_four", batch]
        row = {"batch": batch, "devices": ours.devices, "steps": best[args.game, batch], "compile_s": ours.compile_seconds,
               "connect_four_steps": best["connect_four", batch], "connect_four_compile_s": theirs.compile_seconds}
        row["x_raw_env"] = row["steps"] / raw
        row["x_connect_four"] = row["steps"] / row["connect_four_steps"]
        rows.append(row)
        print(f"{batch:>6}{row['devices']:>8}{row['steps']:>24,.0f}{row['compile_s']:>11.1f}{row['connect_four_steps']:>22,.0f}"
              f"{row['connect_four_compile_s']:>11.1f}{row['x_raw_env']:>11.1f}{row['x_connect_four']:>16.2f}")
    result = {"device": f"{device.platform} {device.device_kind}", "cpu": cpu_info(), "game": args.game, "players": args.players,
              "raw_env_steps": raw, "unroll": args.unroll, "devices": devices, "rows": rows}
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(result, handle, indent=2)
    return result


if __name__ == "__main__":
    main()
