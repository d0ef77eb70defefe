"""meadowzoo's masked PPO RLModule (training/rllib_module.py): RLlib's default PPO module whose
logits obey the env's action mask, built without RLlib's deprecated example classes."""

import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("ray.rllib")

import torch  # noqa: E402
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule  # noqa: E402
from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig  # noqa: E402

from meadowzoo.training.rllib_env import LEARNER, MeadowzooMultiAgentEnv  # noqa: E402
from meadowzoo.training.rllib_module import MaskedPPOTorchRLModule  # noqa: E402

MODEL = DefaultModelConfig(fcnet_hiddens=[16, 8], fcnet_activation="tanh", head_fcnet_hiddens=[],
                           vf_share_layers=False)


def _spaces(game="volle_wolle", players=2):
    env = MeadowzooMultiAgentEnv({"game": game, "num_players": players})
    return env, env.observation_spaces[LEARNER], env.action_spaces[LEARNER]


def _observations(env, count, seed=0):
    """``count`` real observations of random legal play, as one batch of tensors."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    features, masks = [], []
    while len(features) < count:
        (agent, observation), = obs.items()
        features.append(observation["observations"])
        masks.append(observation["action_mask"])
        obs, _, terminated, truncated, _ = env.step({agent: int(rng.choice(np.flatnonzero(observation["action_mask"])))})
        if terminated["__all__"] or truncated["__all__"]:
            obs, _ = env.reset()
    return torch.as_tensor(np.stack(features)), torch.as_tensor(np.stack(masks))


@pytest.mark.parametrize("game", ["volle_wolle", "haste_bock"])
def test_masked_actions_get_probability_zero_and_legal_ones_the_default_modules_odds(game):
    env, space, actions = _spaces(game)
    masked = MaskedPPOTorchRLModule(observation_space=space, action_space=actions, model_config=MODEL)
    plain = DefaultPPOTorchRLModule(observation_space=space["observations"], action_space=actions, model_config=MODEL)
    plain.load_state_dict(masked.state_dict())  # same names and shapes: the default module's layout
    features, mask = _observations(env, 40)
    legal = mask.bool()
    assert (~legal).any() and legal.any(1).all()
    with torch.no_grad():
        for forward in ("forward_inference", "forward_exploration", "forward_train"):
            logits = getattr(masked, forward)({"obs": {"observations": features, "action_mask": mask}})["action_dist_inputs"]
            plain_logits = getattr(plain, forward)({"obs": features})["action_dist_inputs"]
            probs = torch.softmax(logits, -1)
            assert (probs[~legal] == 0).all(), forward
            expected = torch.softmax(plain_logits.masked_fill(~legal, -np.inf), -1)
            torch.testing.assert_close(probs, expected)
            entropy = -(probs * torch.log_softmax(logits, -1)).sum(-1)  # as a hand-written loss computes it
            assert torch.isfinite(entropy).all()  # the float32 floor, not -inf: no 0 · -inf
        values = masked.compute_values({"obs": {"observations": features, "action_mask": mask}})
        torch.testing.assert_close(values, plain.compute_values({"obs": features}))


def test_the_callers_batch_is_left_as_it_was():
    """RLlib hands the same batch to the value pass and the training pass."""
    env, space, actions = _spaces()
    module = MaskedPPOTorchRLModule(observation_space=space, action_space=actions, model_config=MODEL)
    features, mask = _observations(env, 5)
    batch = {"obs": {"observations": features, "action_mask": mask}}
    module.compute_values(batch)
    module.forward_train(batch)
    assert set(batch) == {"obs"} and set(batch["obs"]) == {"observations", "action_mask"}
    assert batch["obs"]["observations"] is features and batch["obs"]["action_mask"] is mask


def test_the_module_shows_rllib_the_dict_space_it_reads():
    env, space, actions = _spaces()
    module = MaskedPPOTorchRLModule(observation_space=space, action_space=actions, model_config=MODEL)
    assert module.observation_space == space


def test_spaces_it_cannot_read_are_refused():
    _, space, actions = _spaces()
    box = space["observations"]
    bad = [(box, "Dict observation space"),
           (gym.spaces.Dict({"observations": box, "mask": space["action_mask"]}), "exactly the keys"),
           (gym.spaces.Dict({"observations": box, "action_mask": gym.spaces.Discrete(3)}), "flat Box"),
           (gym.spaces.Dict({"observations": box, "action_mask": gym.spaces.Box(0, 1, (actions.n + 1,))}),
            "action space")]
    for observation_space, match in bad:
        with pytest.raises(ValueError, match=match):
            MaskedPPOTorchRLModule(observation_space=observation_space, action_space=actions, model_config=MODEL)


def test_a_batch_without_the_mask_is_refused():
    env, space, actions = _spaces()
    module = MaskedPPOTorchRLModule(observation_space=space, action_space=actions, model_config=MODEL)
    features, _ = _observations(env, 3)
    with pytest.raises(ValueError, match="observation dict"):
        module.forward_inference({"obs": features})


def test_the_training_config_no_longer_loads_rllibs_deprecated_example_module():
    """Ray 2.60 warns that the example's base class will raise in a future release."""
    code = ("import sys; from meadowzoo.training.rllib_selfplay import build_config; "
            "build_config('volle_wolle', {'num_players': 2}); "
            "print(sorted(m for m in sys.modules if m.startswith('ray.rllib.examples') "
            "or m.endswith('.ppo_torch_rl_module')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"
