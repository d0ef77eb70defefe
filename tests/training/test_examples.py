"""The training examples of ``examples/`` run a few hundred steps each (as ``python examples/<name>.py``
would, through their ``--steps``/``--total-timesteps`` arguments) and learn from legal moves only."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example(name: str):
    spec = importlib.util.spec_from_file_location(f"examples_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cleanrl_ppo_trains_with_masks_on_hase_und_igel(capsys):
    cleanrl = example("cleanrl_ppo")
    args = cleanrl.parse_args(["--total-timesteps", "256", "--num-envs", "2", "--num-steps", "64", "--max-turns", "30"])
    out = cleanrl.train(args)
    assert out["updates"] == 2 and out["episodes"] >= 2
    # 2 players: a win, a loss, or a cut race scored by its standing (a tie there shares 0)
    assert set(out["returns"]) <= {-1.0, 0.0, 1.0} and any(out["returns"])
    assert "update 2/2" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        cleanrl.parse_args(["--total-timesteps", "10"])


def test_tianshou_dqn_trains_with_masks_on_volle_wolle():
    pytest.importorskip("tianshou")
    tianshou = example("tianshou_dqn")
    out = tianshou.train(tianshou.parse_args(["--steps", "200", "--epochs", "2", "--envs", "2", "--test-episodes", "2"]))
    assert out["test"].n_collected_episodes == 2
    assert -1.0 <= out["test"].returns_stat.mean <= 1.0
    # the masked observation Tianshou reads: the view's vector and a bool mask of legal actions
    env = tianshou.make_env(tianshou.parse_args(["--game", "haste_bock"]))
    obs, _ = env.reset(seed=0)
    assert obs["mask"].dtype == bool and obs["mask"].any()
    np.testing.assert_array_equal(obs["mask"], env.unwrapped.action_masks())


def test_rllib_ppo_trains_through_the_shipped_wrapper(ray_cluster):
    pytest.importorskip("ray.rllib")
    rllib = example("rllib_ppo")
    history = rllib.train(rllib.parse_args(["--steps", "200", "--iterations", "2"]))
    assert [row["iteration"] for row in history] == [1, 2]
    assert history[-1]["env_steps"] >= 400 and history[-1]["episodes"] >= 1


def test_rllib_ppo_trains_on_games_cut_at_max_turns(ray_cluster):
    """RLlib refuses a truncated agent without a last observation (it bootstraps the value from it):
    Hase und Igel's random races are cut at --max-turns, here in every episode."""
    pytest.importorskip("ray.rllib")
    rllib = example("rllib_ppo")
    history = rllib.train(rllib.parse_args(["--game", "hase_und_igel", "--max-turns", "12", "--steps", "200",
                                            "--iterations", "2"]))
    assert [row["iteration"] for row in history] == [1, 2] and history[-1]["episodes"] >= 10


@pytest.mark.parametrize("name", ["cleanrl_ppo", "tianshou_dqn", "rllib_ppo"])
@pytest.mark.parametrize("flags, message", [(["--players", "9"], "argument --players"),
                                            (["--opponents", "bogus"], "argument --opponents: unknown agent"),
                                            (["--opponents", "human"], "plays at the terminal")])
def test_example_command_lines_refuse_bad_values_in_one_line(name, flags, message, capsys):
    if name == "tianshou_dqn":
        pytest.importorskip("tianshou")
    if name == "rllib_ppo":
        pytest.importorskip("ray.rllib")
    with pytest.raises(SystemExit) as stopped:
        example(name).parse_args(flags)
    assert stopped.value.code == 2 and message in capsys.readouterr().err


@pytest.mark.parametrize("name", ["cleanrl_ppo", "tianshou_dqn", "rllib_ppo"])
def test_example_help_shows_every_default(name, capsys):
    """examples/README.md: "--help lists every option with its default"."""
    if name == "tianshou_dqn":
        pytest.importorskip("tianshou")
    if name == "rllib_ppo":
        pytest.importorskip("ray.rllib")
    module = example(name)
    with pytest.raises(SystemExit):
        module.parse_args(["--help"])
    shown = " ".join(capsys.readouterr().out.split())
    parser_defaults = vars(module.parse_args([]))
    for option, value in parser_defaults.items():
        assert f"--{option.replace('_', '-')}" in shown
        assert f"(default: {value})" in shown, option
