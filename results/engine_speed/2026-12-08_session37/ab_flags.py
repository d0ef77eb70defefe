"""A/B: XLA CPU debug options per compile (compiler_options), interleaved in one process.

    PYTHONPATH=. .venv/bin/python results/engine_speed/2026-12-08_session37/ab_flags.py GAME PLAYERS CALLS OPTION=VALUE ..."""
import sys, time
sys.path.insert(0, "results/engine_speed/2026-12-07_session34")
import meadowzoo.jax as mjax
mjax.use_cpu_devices(2)
import jax
import benchmarks.jax_speed as js
from interleave import compare
game, players, calls = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
options = {}
for spec in sys.argv[4:]:
    k, v = spec.split("=")
    options[spec] = {k: {"true": True, "false": False}.get(v, int(v) if v.lstrip("-").isdigit() else v)}

class Runner(js.JaxRunner):
    def __init__(self, env, opts):
        self.batch, self.unroll, self.devices = 1024, 32, 2
        keys = jax.random.split(jax.random.PRNGKey(0), 1024).reshape(2, 512, -1)
        used = jax.local_devices()[:2]
        self.states = jax.pmap(jax.vmap(env.init), devices=used)(keys)
        self.key = jax.random.split(jax.random.PRNGKey(1), 2)
        program = jax.pmap(js.rollout_program(env, 512, 32), devices=used)
        self.run = program.lower(self.states, self.key).compile(compiler_options=opts) if opts else program.lower(self.states, self.key).compile()
        self.states, self.key = jax.block_until_ready(self.run(self.states, self.key))

runners = {"base": Runner(mjax.make(game, num_players=players), None)}
for name, opts in options.items():
    try:
        runners[name] = Runner(mjax.make(game, num_players=players), opts)
    except Exception as e:
        print(name, "failed:", str(e)[:200])
compare(runners, calls, "base")
