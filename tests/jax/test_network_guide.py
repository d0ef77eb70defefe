"""The search guided by a trained network (``mctx:N:net=FILE``, :func:`meadowzoo.agents.gumbel_search.network_guide`):
the portable network evaluated with ``jax.numpy`` is the numpy one (both file formats and a plain
SB3 policy converted), the prior reads the mover's observation and the value the evaluated player's,
the prior steers the search, and the spec and the fit are checked."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("pgx")
pytest.importorskip("mctx")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import meadowzoo.jax as mjax  # noqa: E402
from meadowzoo.agents import make_agent  # noqa: E402
from meadowzoo.agents.gumbel_search import MctxAgent, network_guide  # noqa: E402
from meadowzoo.agents.mlp_policy import MlpPolicy, from_sb3, load_mlp_policy, save_mlp_policy  # noqa: E402
from meadowzoo.agents.policy import load_network, load_policy  # noqa: E402
from meadowzoo.training.runner import check_fit  # noqa: E402
from tests.agents.helpers import new_env, play  # noqa: E402

VW_NET = "agents/trained/volle_wolle_2p_scratch.npz"  # JAX trainer, format v1, 2 players
VW_SB3 = "agents/trained/volle_wolle_2p.pt"  # SB3 MaskableActorCriticPolicy, plain MLP


def _random_states(engine, games: int, steps: int, seed: int):
    """A batch of mid-game states of ``engine`` after ``steps`` random moves."""
    init, step = jax.jit(jax.vmap(engine.init)), jax.jit(jax.vmap(engine.step))
    key = jax.random.PRNGKey(seed)
    state = init(jax.random.split(key, games))
    for i in range(steps):
        pick, chance = jax.random.split(jax.random.fold_in(key, i))
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        state = step(state, jax.random.categorical(pick, logits), jax.random.split(chance, games))
    return state


@pytest.mark.parametrize("path", [VW_NET, VW_SB3])
def test_jax_forward_is_the_numpy_forward(path):
    network = load_network(path)
    observation = np.random.default_rng(0).random((6, network.meta["observation_size"]), dtype=np.float32)
    for part in ("actor", "critic"):
        np.testing.assert_allclose(np.asarray(jax.jit(lambda x: network.mlp(part, x, xp=jnp))(observation)),
                                   network.mlp(part, observation), rtol=1e-4, atol=1e-5)


def test_conv_network_forward_on_jax(tmp_path):
    """Format v2 (3x3 convolutions over Haste Bock?'s board planes): jax.numpy equals numpy."""
    from meadowzoo.training.jax_network import ActorCritic, export_arrays

    engine = mjax.make("haste_bock", num_players=2)
    size, actions = engine.observation_shape[0], engine.num_actions
    net = ActorCritic(size, actions, (16,), "relu", conv=(4,), board=engine.board_shape)
    path = save_mlp_policy(tmp_path / "conv.npz", export_arrays(net.init(jax.random.PRNGKey(3))), "haste_bock",
                           {"num_players": 2}, [16], "relu", conv=[4], board=list(engine.board_shape))
    network = load_mlp_policy(path)
    observation = (np.random.default_rng(1).random((3, size)) < 0.2).astype(np.float32)
    for part in ("actor", "critic"):
        np.testing.assert_allclose(np.asarray(network.mlp(part, jnp.asarray(observation), xp=jnp)),
                                   network.mlp(part, observation), rtol=1e-4, atol=1e-4)


def test_sb3_policy_converts_to_the_same_function():
    """A plain SB3 policy read as a portable network gives torch's logits and values."""
    import torch

    policy = load_policy(VW_SB3)
    network = from_sb3(policy, VW_SB3)
    observation = np.random.default_rng(2).random((5, network.meta["observation_size"]), dtype=np.float32)
    with torch.no_grad():
        obs = torch.as_tensor(observation)
        logits = policy.get_distribution(obs).distribution.logits.numpy()
        values = policy.predict_values(obs).numpy()[:, 0]
    ours, our_values = network.forward(observation)
    # torch normalises its logits (log-probabilities): compare up to each row's constant
    np.testing.assert_allclose(ours - ours.max(1, keepdims=True), logits - logits.max(1, keepdims=True), atol=1e-4)
    np.testing.assert_allclose(our_values, values, rtol=1e-4, atol=1e-5)


def test_advised_policies_are_refused():
    with pytest.raises(ValueError, match="advised policy"):
        load_network("agents/trained/hase_und_igel_2p.pt")


def test_prior_reads_the_mover_and_value_the_evaluated_player():
    """At mid-game Volle Wolle states: the prior is the actor on the player to move's own
    observation, masked; the value for each seat (the mover and not) is the critic on that seat's
    observation, as the PettingZoo env shows it (``observe_player``)."""
    engine = mjax.make("volle_wolle", num_players=2)
    network = load_network(VW_NET)
    guide = network_guide(engine, network)
    state = _random_states(engine, games=12, steps=9, seed=5)
    mask = np.asarray(state.legal_action_mask)
    mover_obs = np.asarray(jax.vmap(engine.observe_player)(state, state.current_player))
    prior = np.asarray(jax.jit(guide.prior)(state))
    expected, _ = network.forward(mover_obs, mask)
    np.testing.assert_allclose(prior[mask], expected[mask], rtol=1e-4, atol=1e-5)
    assert (prior[~mask] == np.finfo(np.float32).min).all()
    players = np.arange(12) % 2
    assert 0 < (players != np.asarray(state.current_player)).sum() < 12  # both kinds of seat are checked
    values = np.asarray(jax.jit(guide.value)(state, jax.random.PRNGKey(0), jnp.asarray(players)))
    seat_obs = np.asarray(jax.vmap(engine.observe_player)(state, jnp.asarray(players)))
    np.testing.assert_allclose(values, network.forward(seat_obs)[1], rtol=1e-4, atol=1e-5)
    other = np.asarray(jax.jit(guide.value)(state, jax.random.PRNGKey(0), jnp.asarray(1 - players)))
    assert not np.allclose(values, other)  # the seat matters: each reads its own observation


def test_the_prior_steers_the_search(tmp_path):
    """A network whose actor puts +50 on one action (zero weights, critic zero): with a single
    simulation Gumbel MuZero plays that action wherever it is legal (uniform prior would not)."""
    engine = mjax.make("volle_wolle", num_players=2)
    size, actions, favourite = engine.observation_shape[0], engine.num_actions, 0  # action 0: bid 0
    arrays = {"actor/0/kernel": np.zeros((size, 4)), "actor/0/bias": np.zeros(4),
              "actor/1/kernel": np.zeros((4, actions)), "actor/1/bias": np.eye(actions)[favourite] * 50,
              "critic/0/kernel": np.zeros((size, 4)), "critic/0/bias": np.zeros(4),
              "critic/1/kernel": np.zeros((4, 1)), "critic/1/bias": np.zeros(1)}
    path = save_mlp_policy(tmp_path / "fav.npz", arrays, "volle_wolle", {"num_players": 2}, [4], "tanh")
    env = new_env("volle_wolle", players=2, seed=1, max_turns=60)
    guided = make_agent(f"mctx:1:net={path}", "volle_wolle", seed=0)
    uniform = make_agent("mctx:1:depth=0", "volle_wolle", seed=0)
    rng, legal_favourite, moves = np.random.default_rng(0), 0, []
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]) and legal_favourite < 8:
        if favourite in env.legal_actions():
            legal_favourite += 1
            assert guided.act(env, env.agent_selection) == favourite
            moves.append(uniform.act(env, env.agent_selection))
        env.step(int(rng.choice(env.legal_actions())))
    assert legal_favourite == 8 and set(moves) != {favourite}


def test_guided_agent_is_legal_and_reproducible():
    spec = f"mctx:4:net={VW_NET}"
    runs = [play(new_env("volle_wolle", players=2, seed=3),
                 [make_agent(spec, "volle_wolle", seed=11), make_agent("random", "volle_wolle", seed=12)])
            for _ in range(2)]
    assert runs[0] == runs[1] and len(runs[0]) > 5
    agent = make_agent(spec, "volle_wolle", seed=1)
    assert isinstance(agent, MctxAgent) and agent.name == spec and agent.network is not None


def test_a_network_of_another_player_count_is_refused_before_play():
    agent = make_agent(f"mctx:4:net={VW_NET}", "volle_wolle", seed=1)
    env = new_env("volle_wolle", players=3, seed=0)
    with pytest.raises(ValueError, match="trained for 2 players; this game has 3"):
        check_fit(agent, env, env.agent_selection)
    check_fit(agent, new_env("volle_wolle", players=2, seed=0), "player_0")  # fits: no error


@pytest.mark.parametrize("spec, message", [
    (f"mctx:8:depth=3:net={VW_NET}", "leave depth out"),
    ("mctx:8:net=", "needs a policy file"),
    (f"mctx:8:net={VW_NET}:net={VW_NET}", "bad mctx setting"),
    ("mctx:8:net=agents/trained/hase_und_igel_4p_scratch.npz", "is a policy for hase_und_igel, not volle_wolle"),
    ("mctx:8:net=agents/trained/haste_bock_4p.pt", "afterstate value file"),
])
def test_bad_network_specs_are_refused(spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec, "volle_wolle")


def test_a_network_of_another_size_is_refused_by_the_guide():
    network = MlpPolicy({"format": "meadowzoo-mlp-policy-v1", "game": "volle_wolle", "env_options": {},
                         "observation_size": 5, "num_actions": 27, "hidden": [], "activation": "tanh"},
                        {"actor/0/kernel": np.zeros((5, 27)), "actor/0/bias": np.zeros(27),
                         "critic/0/kernel": np.zeros((5, 1)), "critic/0/bias": np.zeros(1)})
    with pytest.raises(ValueError, match="a policy reads 5 observation values"):
        network_guide(mjax.make("volle_wolle", num_players=2), network)


def test_the_guided_player_searches_with_its_settings(monkeypatch):
    """``mctx:N:net=FILE`` searches with NETWORK_SEARCH (no Gumbel noise, Q-values unstretched);
    the rollout player keeps mctx's defaults."""
    from meadowzoo.agents import gumbel_search

    made = []
    original = gumbel_search.make_search
    monkeypatch.setattr(gumbel_search, "make_search", lambda *args, **kwargs: made.append(kwargs) or original(*args, **kwargs))
    gumbel_search._compiled.cache_clear()
    env = new_env("volle_wolle", players=2, seed=0)
    for spec in (f"mctx:2:net={VW_NET}", "mctx:2:depth=1"):
        make_agent(spec, "volle_wolle", seed=0).act(env, env.agent_selection)
    gumbel_search._compiled.cache_clear()
    assert made == [gumbel_search.NETWORK_SEARCH, {}]
    assert gumbel_search.NETWORK_SEARCH == {"gumbel_scale": 0.0, "rescale_values": False}
