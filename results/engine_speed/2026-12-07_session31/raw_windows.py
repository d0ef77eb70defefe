"""raw_env random play: CPU-time rate over a run (the benchmark's figure) against the best of
short wall-clock windows of 2,000 steps (timeit's convention: the minimum is the run least
disturbed by other load)."""
import sys, time, random
import numpy as np
from benchmarks.speed import play
from meadowzoo.envs import volle_wolle_v0
env = volle_wolle_v0.raw_env(num_players=int(sys.argv[1]))
choose = random.Random(0)
for rep in range(3):
    steps, games, el = play(env, 2.0, seed=rep)
    print(f"CPU-time rate {steps / el:,.0f} steps/s")
window, times, count, seed = 2000, [], 0, 0
t = time.perf_counter()
end = t + 6.0
while time.perf_counter() < end:
    env.reset(seed=seed); seed += 1
    for agent in env.agent_iter():
        obs, r, term, trunc, info = env.last()
        if term or trunc: a = None
        else:
            legal = obs["action_mask"].nonzero()[0]; a = int(legal[choose.randrange(len(legal))])
        env.step(a); count += 1
        if count == window:
            now = time.perf_counter(); times.append(now - t); t = now; count = 0
times = np.array(times)
print(f"windows {len(times)}: best {window / times.min():,.0f}, p10 {window / np.percentile(times, 10):,.0f}, median {window / np.median(times):,.0f} steps/s")
