"""The per-game heuristic players: legal play through whole games (2 and 4 players), same seed ⇒
same actions, registry names, the planning tables' sanity, and a cheap strength smoke test."""

from __future__ import annotations

import pytest

from meadowzoo.agents import make_agent
from meadowzoo.agents.heuristics import heuristic
from meadowzoo.training.evaluate import evaluate
from meadowzoo.agents.heuristics.hase_und_igel import turns_table
from meadowzoo.agents.heuristics.volle_wolle import success_by_attempt
from meadowzoo.envs import game_module

GAMES = ("hase_und_igel", "haste_bock", "volle_wolle")
KINDS = ("greedy", "strong")
#: Hase und Igel heuristics finish in ~100 turns; a short cap keeps 4-player games against
#: random fillers (which never finish) cheap
MAX_TURNS = {"hase_und_igel": 200}


def play_through(game: str, specs: list[str], seed: int) -> list[int]:
    """Play one game, checking every action against the legal list; return the actions."""
    env = game_module(game).raw_env(num_players=len(specs), max_turns=MAX_TURNS.get(game, 10_000))
    env.reset(seed=seed)
    players = [make_agent(spec, game, seed=seed + i) for i, spec in enumerate(specs)]
    index = {a: i for i, a in enumerate(env.possible_agents)}
    actions = []
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        agent = env.agent_selection
        action = players[index[agent]].act(env, agent)
        assert isinstance(action, int)
        assert action in env.legal_actions(), (game, env.action_to_string(action))
        actions.append(action)
        env.step(action)
    return actions


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("players", [2, 4])
def test_legal_whole_games(game, kind, players):
    specs = [kind] + ["random" if players == 4 else kind] * (players - 1)
    if players == 4:
        specs[2] = kind  # two heuristics and two random players
    actions = play_through(game, specs, seed=3)
    assert actions


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", KINDS)
def test_same_seed_same_actions(game, kind):
    assert play_through(game, [kind, "random"], seed=5) == play_through(game, [kind, "random"], seed=5)


def test_registry_names_and_errors():
    for game in GAMES:
        for kind in KINDS:
            assert make_agent(kind, game, seed=0).name == kind
    with pytest.raises(ValueError, match="no heuristic"):
        heuristic("greedy", "chess")
    with pytest.raises(ValueError, match="unknown heuristic"):
        heuristic("clever", "volle_wolle")


def test_turns_table_is_a_sensible_race_estimate():
    T = turns_table(10, 20, 0)
    assert T[0, 63, 1] == 1  # one step onto the Goal, 0 carrots left
    assert T[0, 63, 50] > 1  # too many carrots: must shed them first (HUI-18)
    assert T[0, 40, 100] < T[0, 20, 100]  # closer is better
    assert T[0, 40, 0] < 99  # no carrots: back to a hedgehog first


def test_dice_chances_are_probabilities_and_fall_with_the_target():
    previous = 1.0
    for target in range(3, 31):
        chances = success_by_attempt(target)
        assert all(0 <= c <= 1 for c in chances)
        total = sum(chances)
        assert total <= previous + 1e-12
        previous = total
    assert sum(success_by_attempt(3)) == 1.0
    assert success_by_attempt(30)[0] == pytest.approx(1 / 960)


def test_greedy_beats_random_smoke():
    result = evaluate("volle_wolle", 2, ["greedy", "random"], games=40, seed=100, progress=False)
    assert result["head_to_head"]["greedy|random"]["share"] >= 0.6
