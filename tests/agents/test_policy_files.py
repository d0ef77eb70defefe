"""Issue #16: policy and value files are checked — a corrupt, tampered or foreign file, or one
trained for another player count, is refused with a ValueError naming the file and never runs code."""

from __future__ import annotations

import pickle
import shutil
from pathlib import Path

import pytest
import torch

from meadowzoo.agents import make_agent
from meadowzoo.agents.policy import load_policy, weights_sha256
from meadowzoo.agents.shipped import TRAINED, file_sha256
from meadowzoo.envs import game_module


class _Payload:
    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def _shipped_copy(tmp_path: Path, name: str) -> Path:
    for suffix in (".pt", ".json"):
        shutil.copyfile(TRAINED / f"{name}{suffix}", tmp_path / f"{name}{suffix}")
    return tmp_path / f"{name}.pt"


def _flip(path: Path, count: int = 64) -> None:
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    for i in range(count):
        data[middle + i] ^= 0xFF
    path.write_bytes(bytes(data))


def test_shipped_records_hold_the_files_sha256():
    for weights in TRAINED.glob("*.pt"):
        record = weights.with_suffix(".json").read_text()
        assert file_sha256(weights) in record, weights.name


def test_a_shipped_file_with_flipped_bytes_is_refused(tmp_path):
    path = _shipped_copy(tmp_path, "volle_wolle_2p")
    load_policy(path)  # the intact copy loads
    _flip(path)
    with pytest.raises(ValueError, match="volle_wolle_2p.pt: its sha256 differs"):
        load_policy(path)


def test_weights_digest_catches_flipped_tensor_bytes_without_a_record(tmp_path):
    payload = torch.load(TRAINED / "volle_wolle_2p.pt", weights_only=True)
    payload["weights_sha256"] = weights_sha256(payload["state_dict"])
    name = next(iter(payload["state_dict"]))
    payload["state_dict"][name] = payload["state_dict"][name].clone()
    payload["state_dict"][name].view(-1)[:8] += 1.0  # damage the weights, keep the stored digest
    path = tmp_path / "damaged.pt"
    torch.save(payload, path)
    with pytest.raises(ValueError, match="damaged.pt: the weights do not match their recorded digest"):
        load_policy(path)


@pytest.mark.parametrize("content", [b"", b"not a torch file at all", b"PK\x03\x04truncated zip"])
def test_unreadable_files_name_the_file(tmp_path, content):
    path = tmp_path / "broken.pt"
    path.write_bytes(content)
    with pytest.raises(ValueError, match="broken.pt: not a readable meadowzoo policy file"):
        load_policy(path)


def test_a_truncated_policy_file_is_refused(tmp_path):
    path = tmp_path / "cut.pt"
    data = (TRAINED / "volle_wolle_2p.pt").read_bytes()
    path.write_bytes(data[: len(data) // 3])
    with pytest.raises(ValueError, match="cut.pt"):
        load_policy(path)


def test_a_pickle_with_code_never_runs(tmp_path):
    marker = tmp_path / "pwned"
    path = tmp_path / "evil.pt"
    path.write_bytes(pickle.dumps(_Payload(marker)))
    with pytest.raises(ValueError, match="evil.pt"):
        load_policy(path)
    with pytest.raises(ValueError, match="evil.pt"):
        make_agent(f"lookahead:{path}", "haste_bock", seed=0)
    assert not marker.exists()


def test_malformed_metadata_is_named(tmp_path):
    payload = torch.load(TRAINED / "volle_wolle_2p.pt", weights_only=True)
    payload["num_actions"] = "many"
    path = tmp_path / "odd.pt"
    torch.save(payload, path)
    with pytest.raises(ValueError, match="odd.pt: policy file field 'num_actions'"):
        load_policy(path)


@pytest.mark.parametrize("game, file", [("volle_wolle", "volle_wolle_2p"), ("haste_bock", "haste_bock_2p")])
def test_a_two_player_policy_refuses_a_three_player_game(game, file):
    player = make_agent(f"policy:agents/trained/{file}.pt", game, seed=0)
    env = game_module(game).raw_env(num_players=3)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=f"{file}.pt was trained for 2 players; this game has 3"):
        player.act(env, env.agent_selection)


@pytest.mark.parametrize("spec, game, hint", [
    ("policy:agents/trained/haste_bock_2p_scratch.pt", "haste_bock", "play it with lookahead:"),
    ("lookahead:agents/trained/volle_wolle_2p_scratch.npz", "haste_bock", "play it with policy:"),
    ("lookahead:agents/trained/hase_und_igel_4p_scratch.npz", "hase_und_igel", "play it with policy:"),
])
def test_a_file_given_to_the_wrong_kind_of_player_says_which_kind_plays_it(spec, game, hint):
    with pytest.raises(ValueError, match=hint):
        make_agent(spec, game, seed=0)
