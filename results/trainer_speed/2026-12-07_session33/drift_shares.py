"""Valid share (learner steps / rows) by fifth of a train_jax run, from its TensorBoard curves."""
import glob, sys, numpy as np
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
for d in sys.argv[1:]:
    ea = EventAccumulator(glob.glob(f"{d}/tb")[0]); ea.Reload()
    ls = np.array([e.value for e in ea.Scalars("train/learner_steps")]) / 8192
    n = len(ls); q = [ls[i * n // 5:(i + 1) * n // 5] for i in range(5)]
    print(d.rstrip("/").split("/")[-1], n, "updates; valid share by fifth: " + ", ".join(f"{x.mean():.3f} ({x.max():.3f})" for x in q), "; all-run max", f"{ls.max():.3f}")
