import sys
sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import jax
import benchmarks.jax_speed as js
from benchmarks.jax_speed import uniform_legal
from interleave import compare
from sparse import auto_reset_k

game, players = sys.argv[1], int(sys.argv[2])
calls = int(sys.argv[3]) if len(sys.argv) > 3 else 60
share = float(sys.argv[4]) if len(sys.argv) > 4 else 1 / 32
env = mjax.make(game, num_players=players)
orig = js.rollout_program

def program_k(env, batch, unroll, step=None):
    step = auto_reset_k(env.step, env.init, share)
    def one(_, carry):
        states, key = carry
        key, act_key, step_key = jax.random.split(key, 3)
        actions = uniform_legal(act_key, states.legal_action_mask)
        return step(states, actions, jax.random.split(step_key, batch)), key
    return jax.jit(lambda states, key: jax.lax.fori_loop(0, unroll, one, (states, key)))

runners = {}
for label, prog in (("pgx", orig), ("pgx2", orig), ("k", program_k)):
    js.rollout_program = prog
    runners[label] = js.JaxRunner(env, 1024, 32, devices=2)
js.rollout_program = orig
compare(runners, calls, "pgx")
