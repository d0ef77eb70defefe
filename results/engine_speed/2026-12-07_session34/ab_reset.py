"""A/B: the benchmark program with pgx's auto_reset vs sparse auto_reset (two devices, interleaved calls)."""
import sys
sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import benchmarks.jax_speed as js
from interleave import compare
from sparse import auto_reset

game, players = sys.argv[1], int(sys.argv[2])
calls = int(sys.argv[3]) if len(sys.argv) > 3 else 60
share = float(sys.argv[4]) if len(sys.argv) > 4 else 1 / 16
env = mjax.make(game, num_players=players)
orig = js.rollout_program
runners = {}
for label, step in (("pgx", None), ("pgx2", None), ("sparse", auto_reset(env.step, env.init, share))):
    js.rollout_program = lambda e, b, u, step=step: orig(e, b, u, step=step)
    runners[label] = js.JaxRunner(env, 1024, 32, devices=2)
js.rollout_program = orig
compare(runners, calls, "pgx")
