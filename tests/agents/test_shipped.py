"""The shipped trained agents load weights-only, carry their training record and play legally."""

import json
from pathlib import Path

import torch

from meadowzoo.agents import make_agent
from meadowzoo.envs import game_module

TRAINED = Path(__file__).resolve().parents[2] / "agents" / "trained"


def plays_legal_moves(agent, game: str, players: int, seed: int, moves: int) -> None:
    """``agent`` takes every seat of a seeded game for up to ``moves`` decisions; each must be legal."""
    env = game_module(game).raw_env(num_players=players)
    env.reset(seed=seed)
    for _ in range(moves):
        seat = env.agent_selection
        if env.terminations[seat] or env.truncations[seat]:
            break
        action = agent.act(env, seat)
        assert action in env.legal_actions()
        env.step(action)


def test_every_shipped_agent_loads_and_plays_legal_moves():
    """A policy file plays as ``policy:<file>``; an afterstate value file as ``lookahead:<file>``
    (fitted on recorded games) or as its record's player, ``lookahead:<file>:prior=none`` (learnt
    in self-play from the rules alone); each carries the record of the command that made it."""
    from meadowzoo.agents.afterstate_value import FORMAT as VALUE_FORMAT

    files = sorted(TRAINED.glob("*.pt"))
    assert files, "no shipped agents in agents/trained/"
    for path in files:
        payload = torch.load(path, weights_only=True)
        record = json.loads(path.with_suffix(".json").read_text())
        if payload["format"] == VALUE_FORMAT:
            game, players = payload["game"], payload["num_players"]
            assert record["kind"] == "afterstate-value" and record["samples"] > 0
            if record["command"].startswith("python -m meadowzoo.training.afterstate_selfplay"):
                assert record["player"] == "lookahead:<value file>:prior=none" and record["rounds"][0]["player"] == "random"
                spec = record["player"].replace("<value file>", str(path))
            else:
                assert record["command"].startswith("python -m meadowzoo.training.fit_afterstate_value")
                spec = f"lookahead:{path}"
        else:
            game, players = payload["game"], payload["env_options"]["num_players"]
            assert record["command"].startswith("python -m meadowzoo.training.train") and record["timesteps"] > 0
            spec = f"policy:{path}"
        plays_legal_moves(make_agent(spec, game), game, players, seed=1, moves=40)


def test_every_shipped_from_scratch_network_plays_without_jax_and_carries_its_record():
    """A network of the compiled trainer (``*.npz``, issue 19) plays as ``policy:`` (argmax) and
    ``sampled:`` through numpy alone; its record names the ``train_jax`` command and says it was
    learnt from scratch; a flipped byte fails the recorded sha256."""
    import shutil
    import tempfile

    import pytest

    files = sorted(TRAINED.glob("*.npz"))
    assert files, "no shipped from-scratch networks in agents/trained/"
    for path in files:
        record = json.loads(path.with_suffix(".json").read_text())
        assert record["kind"] == "from-scratch" and record["timesteps"] > 0
        assert record["command"].startswith("python -m meadowzoo.training.train_jax")
        for mode in ("policy", "sampled"):
            agent = make_agent(f"{mode}:{path}", record["game"], seed=0)
            plays_legal_moves(agent, record["game"], record["players"], seed=2, moves=60)
        with tempfile.TemporaryDirectory() as folder:
            copy = Path(folder) / path.name
            shutil.copyfile(path, copy)
            shutil.copyfile(path.with_suffix(".json"), copy.with_suffix(".json"))
            data = bytearray(copy.read_bytes())
            data[len(data) // 2] ^= 0xFF
            copy.write_bytes(bytes(data))
            with pytest.raises(ValueError, match="sha256"):
                make_agent(f"policy:{copy}", record["game"])
