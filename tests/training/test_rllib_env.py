"""The RLlib multi-agent adapter (no cluster needed) and the export of RLlib modules to policy files."""

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

from meadowzoo.training.rllib_env import LEARNER, MeadowzooMultiAgentEnv  # noqa: E402
from meadowzoo.training.rllib_selfplay import module_for  # noqa: E402


def _play(env, seed, policy_seed=0):
    """A random legal episode; every step's (agent, observation, rewards, flags)."""
    rng = np.random.default_rng(policy_seed)
    obs, info = env.reset(seed=seed)
    steps = [(None, obs, {}, {"__all__": False}, {"__all__": False})]
    while True:
        assert len(obs) == 1, "a turn-based game has one agent to move"
        (agent, observation), = obs.items()
        assert env.observation_spaces[agent].contains(observation)
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        obs, rewards, terminateds, truncateds, infos = env.step({agent: action})
        steps.append((agent, obs, rewards, terminateds, truncateds))
        if terminateds["__all__"] or truncateds["__all__"]:
            return steps


@pytest.mark.parametrize("game,players,fixed", [("haste_bock", 2, None), ("volle_wolle", 3, "random"),
                                                ("hase_und_igel", 2, "greedy,random")])
def test_episodes_follow_rllibs_multi_agent_api_with_the_seats_rewards(game, players, fixed):
    env = MeadowzooMultiAgentEnv({"game": game, "num_players": players, "fixed_opponents": fixed})
    assert env.possible_agents == [LEARNER] + [f"opponent_{i}" for i in range(1, players)]
    steps = _play(env, seed=4)
    seen = {agent for agent, *_ in steps[1:]}
    assert LEARNER in seen and seen <= set(env.possible_agents)
    returns = {}
    for _, _, rewards, _, _ in steps:
        for agent, reward in rewards.items():
            returns[agent] = returns.get(agent, 0.0) + reward
    *_, (_, last_obs, _, terminateds, truncateds) = steps
    assert env.agents == []
    # a terminated agent gets no last observation; a truncated one does (RLlib bootstraps from it)
    assert last_obs == {} if terminateds["__all__"] else set(last_obs) == seen
    raw = env.raw
    flags = terminateds if terminateds["__all__"] else truncateds
    assert {a for a in flags if a != "__all__"} == seen  # every RLlib agent of the episode ends
    for seat, agent in env._role.items():  # each agent got its seat's whole reward from the env
        assert returns.get(agent, 0.0) == pytest.approx(raw._cumulative_rewards[seat])


def test_observation_is_pettingzoos_under_rllibs_key_with_a_float_mask():
    env = MeadowzooMultiAgentEnv({"game": "haste_bock", "num_players": 2, "learner_seat": 1})
    obs, _ = env.reset(seed=0)
    (agent, observation), = obs.items()
    seat = env.raw.agent_selection
    raw = env.raw.observe(seat)
    assert set(observation) == {"observations", "action_mask"}
    np.testing.assert_array_equal(observation["observations"], raw["observation"])
    assert observation["action_mask"].dtype == np.float32
    np.testing.assert_array_equal(observation["action_mask"], raw["action_mask"])
    assert env._role["player_1"] == LEARNER


def test_episodes_are_reproducible_from_the_reset_seed():
    config = {"game": "volle_wolle", "num_players": 4, "fixed_opponents": "greedy,random", "fixed_share": 0.5}
    one, two = MeadowzooMultiAgentEnv(config), MeadowzooMultiAgentEnv(config)
    first, second = _play(one, seed=9), _play(two, seed=9)
    assert len(first) == len(second)
    for a, b in zip(first, second):
        assert a[0] == b[0] and a[2] == b[2]
        for agent in a[1]:
            np.testing.assert_array_equal(a[1][agent]["observations"], b[1][agent]["observations"])
    assert [s[0] for s in _play(one, seed=10)] != [s[0] for s in first]


def test_only_fixed_opponents_leave_the_learner_alone_in_the_episode():
    env = MeadowzooMultiAgentEnv({"game": "haste_bock", "num_players": 3, "fixed_opponents": "greedy",
                                  "fixed_share": 1.0})
    steps = _play(env, seed=1)
    assert {agent for agent, *_ in steps[1:]} == {LEARNER}
    assert env.agents == [] and len(env._fixed_players) == 2


@pytest.mark.parametrize("config,match", [
    ({}, "game"),
    ({"game": "chess"}, "game"),
    ({"game": "haste_bock", "fixed_opponents": "nobody"}, "nobody"),
    ({"game": "haste_bock", "fixed_opponents": "random", "fixed_share": 1.5}, "fixed_share"),
    ({"game": "haste_bock", "fixed_share": 0.5}, "fixed_opponents"),
    ({"game": "haste_bock", "num_players": 2, "learner_seat": 2}, "learner_seat"),
    ({"game": "haste_bock", "illegal_action": "ignore"}, "illegal_action"),
])
def test_bad_configs_are_refused(config, match):
    with pytest.raises(ValueError, match=match):
        MeadowzooMultiAgentEnv(config)


def test_a_move_for_the_wrong_agent_is_refused_and_changes_nothing():
    env = MeadowzooMultiAgentEnv({"game": "haste_bock", "num_players": 2})
    obs, _ = env.reset(seed=2)
    (agent, _), = obs.items()
    other = "opponent_1" if agent == LEARNER else LEARNER
    turn = env.raw.game.turn
    with pytest.raises(ValueError, match="move"):
        env.step({other: 0})
    assert env.raw.game.turn == turn and env.raw.agent_selection in env._role


def _masked_action(observation):
    return int(np.flatnonzero(observation["action_mask"] == 0)[0])


def test_a_masked_action_raises_by_default_and_changes_nothing():
    env = MeadowzooMultiAgentEnv({"game": "volle_wolle", "num_players": 3})
    obs, _ = env.reset(seed=5)
    (agent, observation), = obs.items()
    before = env.raw.snapshot()
    with pytest.raises(ValueError, match="illegal action"):
        env.step({agent: _masked_action(observation)})
    assert env.raw.snapshot() == before


@pytest.mark.parametrize("bad", [-1, 10_000, 1.5, True, "3"])
def test_an_action_that_is_no_index_raises_in_either_mode(bad):
    env = MeadowzooMultiAgentEnv({"game": "volle_wolle", "num_players": 2, "illegal_action": "lose"})
    obs, _ = env.reset(seed=1)
    (agent, _), = obs.items()
    with pytest.raises(ValueError, match="action"):
        env.step({agent: bad})


def test_lose_mode_ends_the_episode_with_the_last_place_reward_for_the_mover():
    """illegal_action="lose" (as the SB3 self-play env): the game is untouched, every RLlib agent
    of the episode is terminated, −1 for the mover and 0 for the others."""
    env = MeadowzooMultiAgentEnv({"game": "volle_wolle", "num_players": 2, "illegal_action": "lose"})
    obs, _ = env.reset(seed=3)
    for _ in range(2):  # a legal move first, so that both RLlib agents are in the episode
        (agent, observation), = obs.items()
        obs, *_ = env.step({agent: int(np.flatnonzero(observation["action_mask"])[0])})
    (mover, observation), = obs.items()
    before = env.raw.snapshot()
    obs, rewards, terminateds, truncateds, infos = env.step({mover: _masked_action(observation)})
    assert obs == {} and terminateds["__all__"] and not truncateds["__all__"]
    assert rewards[mover] == -1.0 and all(r == 0.0 for a, r in rewards.items() if a != mover)
    assert set(rewards) == {LEARNER, "opponent_1"} and all(terminateds[a] for a in rewards)
    assert "illegal action" in infos[mover]["illegal_action"]
    assert env.raw.snapshot() == before
    with pytest.raises(RuntimeError, match="reset"):
        env.step({mover: 0})
    obs, _ = env.reset(seed=4)
    assert len(obs) == 1


def test_the_learner_plays_main_and_opponents_play_snapshots():
    class Episode:
        def __init__(self, id_):
            self.id_ = id_

    assert module_for(LEARNER, Episode("a"), snapshots=3) == "main"
    picks = {module_for("opponent_1", Episode(f"e{i}"), snapshots=3) for i in range(40)}
    assert picks == {"snapshot_0", "snapshot_1", "snapshot_2"}
    assert module_for("opponent_2", Episode("x"), snapshots=3) == module_for("opponent_2", Episode("x"), snapshots=3)


# ---- export ---------------------------------------------------------------------------------------
def _module(env, vf_share_layers=False):
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig

    from meadowzoo.training.rllib_module import MaskedPPOTorchRLModule

    return MaskedPPOTorchRLModule(
        observation_space=env.observation_spaces[LEARNER], action_space=env.action_spaces[LEARNER],
        model_config=DefaultModelConfig(fcnet_hiddens=[16, 8], fcnet_activation="tanh", head_fcnet_hiddens=[],
                                        vf_share_layers=vf_share_layers))


def test_an_exported_module_is_a_policy_file_with_the_same_probabilities_and_values(tmp_path):
    import torch

    from meadowzoo.agents import make_agent
    from meadowzoo.agents.policy import load_policy
    from meadowzoo.training.rllib_export import export_module_weights

    env = MeadowzooMultiAgentEnv({"game": "hase_und_igel", "num_players": 2})
    module = _module(env)
    path = export_module_weights({k: v.numpy() for k, v in module.state_dict().items()}, tmp_path / "p.pt",
                                 "hase_und_igel", {"num_players": 2})
    policy = load_policy(path)
    assert policy.meadowzoo["net_arch"] == {"pi": [16, 8], "vf": [16, 8]}
    for _, obs, *_ in _play(env, seed=3)[:30]:
        for observation in obs.values():
            features = torch.as_tensor(observation["observations"][None])
            mask = observation["action_mask"][None]
            with torch.no_grad():
                logits = module.forward_inference({"obs": {"observations": features.clone(),
                                                           "action_mask": torch.as_tensor(mask)}})["action_dist_inputs"]
                ours = torch.softmax(logits, -1)[0].numpy()
                theirs = policy.get_distribution(features, action_masks=mask.astype(bool)).distribution.probs[0].numpy()
                values = module.compute_values({"obs": {"observations": features.clone(),
                                                        "action_mask": torch.as_tensor(mask)}}).numpy().ravel()
                their_values = policy.predict_values(features).numpy().ravel()
            np.testing.assert_allclose(ours, theirs, atol=1e-6)
            np.testing.assert_allclose(values, their_values, atol=1e-6)
    agent = make_agent(f"policy:{path}", "hase_und_igel")  # plays in tournaments
    assert agent.name.startswith("policy:")


def test_a_module_of_another_layout_is_not_exported(tmp_path):
    from meadowzoo.training.rllib_export import export_module_weights

    env = MeadowzooMultiAgentEnv({"game": "haste_bock", "num_players": 2})
    module = _module(env, vf_share_layers=True)
    with pytest.raises(ValueError, match="vf_share_layers"):
        export_module_weights(dict(module.state_dict()), tmp_path / "p.pt", "haste_bock", {"num_players": 2})
    assert not (tmp_path / "p.pt").exists()


@pytest.mark.parametrize("game, players, fixed", [("volle_wolle", 3, None), ("hase_und_igel", 2, "random")])
def test_a_game_cut_at_max_turns_gives_every_agent_its_last_observation(game, players, fixed):
    """RLlib refuses an agent truncated without a last observation: each RLlib agent of the episode
    gets its seat's observation, whose mask is all zero (nothing is legal in a cut game)."""
    env = MeadowzooMultiAgentEnv({"game": game, "num_players": players, "max_turns": 4, "fixed_opponents": fixed,
                                  "truncation_scoring": "standing"})
    steps = _play(env, seed=2)
    *_, (_, last_obs, rewards, terminateds, truncateds) = steps
    seen = {agent for agent, *_ in steps[1:]}
    assert truncateds["__all__"] and not terminateds["__all__"]
    assert set(last_obs) == seen == {a for a in truncateds if a != "__all__"}
    for agent, observation in last_obs.items():
        seat = next(s for s, a in env._role.items() if a == agent)
        assert env.observation_spaces[agent].contains(observation)
        assert not observation["action_mask"].any()
        np.testing.assert_array_equal(observation["observations"], env.raw.observe(seat)["observation"])
    assert set(rewards) == seen  # the standing's rewards are paid in the same step
