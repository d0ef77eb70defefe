"""The Haste Bock? plug-in: what the rest of meadowzoo needs to know about this game
(see :mod:`meadowzoo.envs.core.plugin`)."""

from meadowzoo.envs.core.plugin import Benchmark, GamePlugin, Heuristics, Measure, Notebook, Search

_PLAYERS = "meadowzoo.agents.heuristics.haste_bock"

PLUGIN = GamePlugin(
    name="haste_bock",
    title="Haste Bock?",
    env_module="meadowzoo.envs.haste_bock_v0",
    player_counts=(2, 3, 4),
    rules_module="meadowzoo.envs.haste_bock.rules",
    gym_id="meadowzoo/HasteBock-v0",
    heuristics=Heuristics(greedy=f"{_PLAYERS}:GreedyHasteBock", strong=f"{_PLAYERS}:StrongHasteBock"),
    # the strong plans re-ranked by a learned afterstate value (envs/haste_bock/afterstate.py)
    agents={"lookahead": "meadowzoo.agents.heuristics.haste_bock_lookahead:parse_spec"},
    afterstate="meadowzoo.envs.haste_bock.afterstate",
    search=Search(
        rollout_depth=200,
        public_value=Measure("meadowzoo.agents.values:points", scale=6.0),
        strong_value=Measure(f"{_PLAYERS}:strong_measure", scale=6.0),  # points
        strong_prior=f"{_PLAYERS}:strong_prior",
        advice_scale=1.0,  # one point
    ),
    # ~40 decisions a game, a large action space with few legal moves
    training={"net_arch": (256, 256), "ent_coef": 0.005},
    benchmarks=(Benchmark("4p", {"num_players": 4}), Benchmark("2p", {"num_players": 2})),
    notebook=Notebook(players=3, blurb="Zoch 2006: push, leap and herd sheep on a 9×9 pasture; scorings by the time track."),
    view="meadowzoo.envs.haste_bock.view",
    narration="meadowzoo.envs.haste_bock.narration",
    jax_engine="meadowzoo.envs.haste_bock.jax_engine:HasteBockJax",
    # a large action space with few legal moves (the JAX trainer)
    # epoch_share: the share of a capped rollout's rows that are the learner's decisions (2p 0.74-0.76,
    # 3p 0.51-0.54, 4p 0.41-0.43 in fresh runs; 2p at most 0.762 over 3M learner steps: a turn is two
    # or three decisions whatever the policy) and some margin; an update whose decisions do not fit
    # runs over every row (training/jax_config.py)
    jax_training={"ent_coef": 0.005, "passes_per_step": 2, "epoch_share": 0.8125},
    jax_training_by_players={3: {"epoch_share": 0.625}, 4: {"epoch_share": 0.5}},
)
