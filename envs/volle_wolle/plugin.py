"""The Volle Wolle plug-in: what the rest of meadowzoo needs to know about this game
(see :mod:`meadowzoo.envs.core.plugin`)."""

from meadowzoo.envs.core.plugin import Benchmark, GamePlugin, Heuristics, Measure, Notebook, Search

_PLAYERS = "meadowzoo.agents.heuristics.volle_wolle"

PLUGIN = GamePlugin(
    name="volle_wolle",
    title="Volle Wolle",
    env_module="meadowzoo.envs.volle_wolle_v0",
    player_counts=(2, 3, 4, 5, 6),
    rules_module="meadowzoo.envs.volle_wolle.rules",
    gym_id="meadowzoo/VolleWolle-v0",
    heuristics=Heuristics(greedy=f"{_PLAYERS}:GreedyVolleWolle", strong=f"{_PLAYERS}:StrongVolleWolle"),
    search=Search(
        rollout_depth=200,
        public_value=Measure("meadowzoo.agents.values:points", scale=10.0),
        strong_value=Measure(f"{_PLAYERS}:strong_measure", scale=10.0),  # points
        strong_prior=f"{_PLAYERS}:strong_prior",
        advice_scale=2.0,  # two points
    ),
    # ~100 short decisions a game (bids, dice, picks): the default configuration
    training={},
    benchmarks=(Benchmark("4p", {"num_players": 4}), Benchmark("2p", {"num_players": 2})),
    notebook=Notebook(players=4, blurb="Zoch 2007: bid, roll d12+d10+d8 in three attempts, collect sheep cards."),
    view="meadowzoo.envs.volle_wolle.view",
    narration="meadowzoo.envs.volle_wolle.narration",
    jax_engine="meadowzoo.envs.volle_wolle.jax_engine:VolleWolleJax",
    # ~100 short decisions a game (bids, dice, picks); always ends within 60 cards: the JAX
    # trainer's defaults
    # epoch_share: the share of a capped rollout's rows that are the learner's decisions (fresh runs:
    # 2p 0.74-0.75, 3p 0.53-0.56, 4p 0.41-0.45, 5p 0.34-0.37, 6p 0.29-0.32), which grows as the policy
    # learns (4M learner steps: 2p up to 0.88, 4p up to 0.58), and some margin; an update whose
    # decisions do not fit runs over every row (training/jax_config.py)
    jax_training={"passes_per_step": 2, "epoch_share": 0.875},
    jax_training_by_players={3: {"epoch_share": 0.75}, 4: {"epoch_share": 0.625}, 5: {"epoch_share": 0.5625},
                             6: {"epoch_share": 0.5}},
)
