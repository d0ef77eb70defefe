"""A/B of engine variants in one process: steps/s of the benchmark's random-play program
(jax_speed.rollout_program: auto_reset, uniform legal actions), one device. Rounds interleave the
variants; each variant's ratio to the first is taken per round, and the median ratio is reported
(robust to the machine's load drifting between rounds), by wall time and by CPU time."""
import statistics, time
import jax
from benchmarks.jax_speed import rollout_program


def time_programs(runs, batch, unroll, seconds=1.0, rounds=10):
    """``runs``: name -> [compiled program, carry]; interleaved rounds of ``seconds`` each.
    Returns name -> steps/s per round, and name -> CPU seconds (all threads) per step per round."""
    speeds = {k: [] for k in runs}
    cpu = {k: [] for k in runs}  # CPU time: not counting time the VM lost
    for _ in range(rounds):
        for k, (p, c) in runs.items():
            t, t_cpu = time.perf_counter(), time.process_time(); calls = 0
            while time.perf_counter() - t < seconds:
                c = jax.block_until_ready(p(*c)); calls += 1
            runs[k][1] = c
            steps = calls * unroll * batch
            speeds[k].append(steps / (time.perf_counter() - t))
            cpu[k].append((time.process_time() - t_cpu) / steps)
    return speeds, cpu


def report(speeds, cpu):
    """Best steps/s and the median per-round ratio to the first variant, by wall and CPU time."""
    base = next(iter(speeds))
    for k, v in speeds.items():
        ratios = [a / b for a, b in zip(v, speeds[base])]
        cpu_ratios = [b / a for a, b in zip(cpu[k], cpu[base])]
        print(f"{k:24s} best {max(v):10,.0f} steps/s  median x{statistics.median(ratios):.3f}"
              f" ({min(ratios):.2f}-{max(ratios):.2f});  CPU {1e9 * min(cpu[k]):6.0f} ns/step, median x{statistics.median(cpu_ratios):.3f}"
              f" ({min(cpu_ratios):.2f}-{max(cpu_ratios):.2f})", flush=True)


def bench(envs, batch=1024, unroll=32, seconds=1.0, rounds=10):
    runs = {}
    for k, env in envs.items():
        states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), batch))
        p = rollout_program(env, batch, unroll)
        runs[k] = [p, jax.block_until_ready(p(states, jax.random.PRNGKey(1)))]
    speeds, cpu = time_programs(runs, batch, unroll, seconds, rounds)
    report(speeds, cpu)
    return speeds
