"""The Hase und Igel plug-in: what the rest of meadowzoo needs to know about this game
(see :mod:`meadowzoo.envs.core.plugin`)."""

from meadowzoo.envs.core.plugin import Benchmark, GamePlugin, Heuristics, Measure, Notebook, Search

_PLAYERS = "meadowzoo.agents.heuristics.hase_und_igel"

PLUGIN = GamePlugin(
    name="hase_und_igel",
    title="Hase und Igel",
    env_module="meadowzoo.envs.hase_und_igel_v0",
    player_counts=(2, 3, 4, 5, 6),
    rules_module="meadowzoo.envs.hase_und_igel.rules",
    gym_id="meadowzoo/HaseUndIgel-v0",
    heuristics=Heuristics(greedy=f"{_PLAYERS}:GreedyHaseUndIgel", strong=f"{_PLAYERS}:StrongHaseUndIgel"),
    # every option of the turn rated by a learned afterstate value (envs/hase_und_igel/afterstate.py)
    agents={"lookahead": "meadowzoo.agents.heuristics.hase_und_igel_lookahead:parse_spec"},
    afterstate="meadowzoo.envs.hase_und_igel.afterstate",
    search=Search(
        rollout_depth=60,  # random races last hundreds of decisions: cut early, value the race
        public_value=Measure(f"{_PLAYERS}:race_progress", scale=12.0),  # squares
        strong_value=Measure(f"{_PLAYERS}:strong_measure", scale=3.0),  # turns to go
        strong_prior=f"{_PLAYERS}:strong_prior",
        advice_scale=1.0,  # one turn to go
    ),
    # long races, ~100-300 decisions a game, few actions at a time
    training={"gamma": 0.998, "n_steps": 2048},
    benchmarks=(Benchmark("4p", {"num_players": 4}), Benchmark("2p two runners", {"num_players": 2}),
                Benchmark("6p", {"num_players": 6})),
    notebook=Notebook(players=4, blurb="Ravensburger 1978: a race without dice; moves cost carrots n(n+1)/2."),
    standing="meadowzoo.envs.hase_und_igel.standing:race_places",
    view="meadowzoo.envs.hase_und_igel.view",
    narration="meadowzoo.envs.hase_und_igel.narration",
    jax_engine="meadowzoo.envs.hase_und_igel.jax_engine:HaseUndIgelJax",
    # long races that random play may not finish: the JAX trainer cuts them, scored by the standing
    jax_training={"gamma": 0.998, "max_game_decisions": 600, "truncation_scoring": "standing", "passes_per_step": 2,
                  "opponents_in_first_pass": False},
    # epoch_share: the share of a capped rollout's rows that are the learner's decisions varies more
    # here (fresh runs: 2p 0.83-0.93, so every row is kept; 3p 0.48-0.53, 4p 0.33-0.36, 5p
    # 0.24-0.27, 6p 0.19-0.22; 4p at most 0.402 over 4M learner steps) and wider margins; an update
    # whose decisions do not fit runs over every row (training/jax_config.py)
    jax_training_by_players={3: {"epoch_share": 0.625}, 4: {"epoch_share": 0.4375}, 5: {"epoch_share": 0.375},
                             6: {"epoch_share": 0.3125}},
)
