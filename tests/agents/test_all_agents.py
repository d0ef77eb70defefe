"""Every registered agent on every game: legal actions only, and the same seed gives the same game."""

import pytest

from meadowzoo.agents import agent_names, make_agent
from tests.agents.helpers import GAMES, new_env, play

#: small budgets so the whole matrix stays quick; ``human``, the Haste Bock?-only ``lookahead`` and
#: ``mctx`` (the JAX extra's search, tests/jax/test_mctx_agent.py) have their own tests; ``policy`` and
#: ``sampled`` get an untrained network written for the test (trained ones are checked in tests/training)
SPECS = [{"mcts": "mcts:4:depth=8"}.get(name, name) for name in agent_names()
         if name not in ("human", "lookahead", "mctx")]


@pytest.fixture(scope="module")
def policy_files(tmp_path_factory):
    """An untrained (freshly initialised) policy per game, saved weights-only."""
    from sb3_contrib import MaskablePPO

    from meadowzoo.agents.policy import save_policy
    from meadowzoo.training.selfplay import SelfPlayEnv

    files = {}
    for game in GAMES:
        model = MaskablePPO("MlpPolicy", SelfPlayEnv(game, num_players=2), seed=0, policy_kwargs={"net_arch": [32]})
        files[game] = save_policy(model, tmp_path_factory.mktemp(game) / "policy.pt", game, {"num_players": 2})
    return files


def resolve(spec: str, game: str, policy_files) -> str:
    return f"{spec}:{policy_files[game]}" if spec in ("policy", "sampled") else spec


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("spec", SPECS)
def test_legal_and_reproducible(game, spec, policy_files):
    spec = resolve(spec, game, policy_files)
    runs = []
    for _ in range(2):
        env = new_env(game, players=2, seed=3)
        players = [make_agent(spec, game, seed=11), make_agent("random", game, seed=12)]
        for p in players:
            p.reset()
        runs.append(play(env, players))
    assert runs[0] == runs[1]
    assert len(runs[0]) > 5


@pytest.mark.parametrize("game", GAMES)
def test_four_players_legal(game):
    env = new_env(game, players=4, seed=5, max_turns=12)
    specs = [s for s in SPECS if s not in ("policy", "sampled")][:4]  # the test policies are two-player networks
    play(env, [make_agent(s, game, seed=i) for i, s in enumerate(specs)])


def test_sampled_policy_draws_where_the_policy_plays_its_most_probable_action(policy_files):
    """``sampled:`` plays the same network as ``policy:`` but draws each action from its
    probabilities: over a game of an untrained (near-uniform) network the choices differ."""
    game = "volle_wolle"
    env = new_env(game, players=2, seed=3)
    argmax, sampled = (make_agent(f"{kind}:{policy_files[game]}", game, seed=5) for kind in ("policy", "sampled"))
    assert sampled.name.startswith("sampled:") and not sampled.deterministic and argmax.deterministic
    differ = 0
    for agent in env.agent_iter(60):
        if env.terminations[agent] or env.truncations[agent]:
            break
        action = argmax.act(env, agent)
        differ += sampled.act(env, agent) != action
        env.step(action)
    assert differ > 0


def test_unknown_agent_named():
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("nobody", "haste_bock")
