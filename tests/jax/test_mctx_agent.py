"""The ``mctx:N`` player (:class:`meadowzoo.agents.gumbel_search.MctxAgent`): the JAX engines'
Gumbel search deciding in the PettingZoo env, for tournaments and the ladder. Legal and seeded on
every game, any player count (the paranoid backup), blind to hidden information, and its command
line spec checked. Its strength is the example's search's (tests/jax/test_mctx.py)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("pgx")
pytest.importorskip("mctx")

from meadowzoo.agents import make_agent  # noqa: E402
from meadowzoo.agents.gumbel_search import MctxAgent, engine_options  # noqa: E402
from tests.agents.helpers import new_env, play  # noqa: E402

#: a small search: the tests check play, not strength
SPEC = "mctx:4:depth=2"


@pytest.mark.parametrize("game, players", [("volle_wolle", 3), ("haste_bock", 2), ("hase_und_igel", 2)])
def test_legal_and_reproducible(game, players):
    """Every move legal (``play`` checks it against the env's list), and the same seeds the same game."""
    runs = []
    for _ in range(2):
        env = new_env(game, players=players, seed=3)
        agents = [make_agent(SPEC, game, seed=11)] + [make_agent("random", game, seed=12 + i) for i in range(players - 1)]
        runs.append(play(env, agents))
    assert runs[0] == runs[1] and len(runs[0]) > 5
    other = play(new_env(game, players=players, seed=3),
                 [make_agent(SPEC, game, seed=99)] + [make_agent("random", game, seed=12 + i) for i in range(players - 1)])
    assert other != runs[0]  # the seed is the agent's: another seed plays differently


def test_it_decides_on_what_its_player_knows():
    """Two Volle Wolle envs that differ only in what the deciding player cannot see (the
    reference's ``resample_hidden`` for that seat: pile order, the other's bid) get the same move
    from agents of the same seed (the default search: 16 simulations, depth 10), at 40 decisions.
    The search on the true state (``k=0`` inside the agent) fails this: it sees the difference."""
    rng = np.random.default_rng(4)
    env = new_env("volle_wolle", players=2, seed=6, max_turns=200)
    checked = 0
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]) and checked < 40:
        seat = env.possible_agents.index(env.agent_selection)
        twin = env.clone()
        twin.game.resample_hidden(seat, rng)
        moves = [make_agent("mctx", "volle_wolle", seed=checked).act(e, env.agent_selection) for e in (env, twin)]
        assert moves[0] == moves[1]
        checked += 1
        env.step(int(rng.choice(env.legal_actions())))
    assert checked == 40


def test_engine_options_follow_the_env():
    env = new_env("hase_und_igel", players=3, seed=0, max_turns=77, truncation_scoring="standing")
    assert engine_options(env) == {**env.options, "max_turns": 77, "truncation_scoring": "standing"}
    assert "max_turns" not in engine_options(new_env("haste_bock", players=2, seed=0, max_turns=None))


@pytest.mark.parametrize("spec, message", [
    ("mctx:0", "simulations must be an integer >= 1"),
    ("mctx:x", "simulations must be an integer"),
    ("mctx:8:k=0", "k must be an integer >= 1"),
    ("mctx:8:depth=-1", "depth must be an integer >= 0"),
    ("mctx:8:c=1", "bad mctx setting"),
    ("mctx:8:k=2:k=3", "bad mctx setting"),
])
def test_bad_specs_are_refused(spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec, "volle_wolle")


def test_spec_names_the_settings():
    assert make_agent("mctx", "volle_wolle").name == "mctx:16"
    agent = make_agent("mctx:32:depth=4:k=2", "volle_wolle", seed=1)
    assert isinstance(agent, MctxAgent) and agent.name == "mctx:32:depth=4:k=2"
    assert (agent.simulations, agent.rollout_depth, agent.determinizations) == (32, 4, 2)
