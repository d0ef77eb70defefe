"""The shipped trained agents load weights-only, carry their training record and play legally."""

import json
from pathlib import Path

import torch

from agents import make_agent
from envs import game_module

TRAINED = Path(__file__).resolve().parents[2] / "agents" / "trained"


def test_every_shipped_agent_loads_and_plays_legal_moves():
    files = sorted(TRAINED.glob("*.pt"))
    assert files, "no shipped agents in agents/trained/"
    for path in files:
        payload = torch.load(path, weights_only=True)
        record = json.loads(path.with_suffix(".json").read_text())
        game, players = payload["game"], payload["env_options"]["num_players"]
        assert record["command"].startswith("python -m training.train") and record["timesteps"] > 0
        env = game_module(game).raw_env(num_players=players)
        env.reset(seed=1)
        agent = make_agent(f"policy:{path}", game)
        for _ in range(40):
            seat = env.agent_selection
            if env.terminations[seat] or env.truncations[seat]:
                break
            action = agent.act(env, seat)
            assert action in env.legal_actions()
            env.step(action)
