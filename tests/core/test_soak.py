"""The soak script (benchmarks/soak.py) in small: a few seeded games of every configuration with
its invariants at every step, its summary and its exit status; and that it catches a broken env."""

from __future__ import annotations

import json

import pytest

from benchmarks import soak


def test_a_small_soak_run_plays_every_configuration_and_passes(capsys, tmp_path):
    configs = soak.configurations()
    out_file = tmp_path / "soak.json"
    assert soak.main(["--games", str(len(configs)), "--seed", "3", "--probe", "1", "--json", str(out_file)]) == 0
    out = capsys.readouterr().out
    for label, _, _ in configs:
        assert label in out
    summary = json.loads(out_file.read_text())
    tallies = summary["configurations"]
    assert summary["games"] == len(configs) and all(t["games"] == 1 and not t["failures"] for t in tallies.values())
    assert sum(t["ended"] for t in tallies.values()) > 0 and sum(t["steps"] for t in tallies.values()) > 100
    assert summary["rss_kib_after"] > 0 and summary["tracemalloc_retained_last_probe"] >= 0


def test_the_soak_records_a_broken_invariant(monkeypatch):
    """A mask that offers nothing to the agent to move is reported as a failure of its game."""
    from meadowzoo.envs.core.aec import MeadowEnv

    original = MeadowEnv.legal_actions
    monkeypatch.setattr(MeadowEnv, "legal_actions", lambda self: original(self)[:0])
    tallies = soak.soak_range((5, 6, 1, 0))  # configuration 5: a Haste Bock? game (no override)
    failures = [message for t in tallies.values() for message in t.failures]
    assert len(failures) == 1 and "no legal action" in failures[0]


@pytest.mark.parametrize("bad", ["0", "-3"])
def test_soak_arguments_are_checked(bad):
    with pytest.raises(SystemExit):
        soak.main(["--games", bad])
