"""The result tables of results/README.md are generated from stored tournament JSON, never typed."""

import json
from pathlib import Path

import pytest

from meadowzoo.training import evaluate, results, stats


@pytest.fixture
def stored(tmp_path):
    out = tmp_path / "results" / "vw_2p"
    evaluate.main(["--game", "volle_wolle", "--players", "2", "--agents", "mcts:3:depth=4,random", "--games", "4",
                   "--workers", "1", "--out", str(out), "--quiet"])
    readme = tmp_path / "results" / "README.md"
    readme.write_text(f"# x\n\nbefore\n{results.START}\nold text\n{results.END}\nafter\n")
    return tmp_path, readme, json.loads((out / "results.json").read_text())


def test_regenerates_the_marked_section(stored):
    root, readme, result = stored
    assert not results.update(readme, root / "results")
    text = readme.read_text()
    assert "old text" not in text and text.startswith("# x\n\nbefore\n") and text.endswith(f"{results.END}\nafter\n")
    assert result["command"] in text
    assert "(vw_2p/results.json)" in text  # linked relative to the page: results/README.md
    wins = result["per_agent"]["random"]
    assert f"| `random` | {wins['wins']}–{wins['draws']}–{wins['losses']} |" in text
    assert "| `mcts:3:depth=4` | `random` | 4 |" in text
    assert results.update(readme, root / "results")  # second run: nothing to change


def test_check_mode_reports_stale_readme_without_writing(stored):
    root, readme, _ = stored
    before = readme.read_text()
    with pytest.raises(SystemExit):
        results.main(["--readme", str(readme), "--results", str(root / "results"), "--check"])
    assert readme.read_text() == before


def test_missing_markers_are_an_error(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("no markers\n")
    with pytest.raises(ValueError, match="markers"):
        results.update(readme, tmp_path)


def test_the_committed_tables_are_what_the_stored_results_give(monkeypatch, capsys):
    """``python -m meadowzoo.training.results`` from the checkout root writes results/README.md by
    default, and the committed page is up to date; the front README holds no generated tables."""
    root = Path(__file__).resolve().parents[2]
    assert results.START not in (root / "README.md").read_text()
    monkeypatch.chdir(root)
    results.main(["--check"])  # exits 1 when stale
    assert capsys.readouterr().out.strip() == "results/README.md: up to date"


def test_tables_compute_the_statistics_from_the_records(stored):
    """A stored result whose statistics were computed by older definitions (here: tampered) shows
    what ``stats`` gives for its records today, so a change of definition reaches every table."""
    root, readme, result = stored
    path = root / "results" / "vw_2p" / "results.json"
    stale = json.loads(path.read_text())
    stale["per_agent"]["random"]["win_share_ci"] = [0.123, 0.456]
    stale["head_to_head"]["mcts:3:depth=4|random"]["share_ci"] = [0.111, 0.222]
    path.write_text(json.dumps(stale))
    results.update(readme, root / "results")
    text = readme.read_text()
    assert "[12.3, 45.6]" not in text and "[11.1, 22.2]" not in text
    fresh = stats.tournament_stats(result["records"], result["agents"])
    assert stats.interval_text(fresh["per_agent"]["random"]["win_share_ci"], percent=True) in text


def test_training_lines_name_each_kind_of_trained_agent():
    """The training record of a network is cited for ``policy:``/``sampled:`` agents and for a search
    it guides (``mctx:…:net=``), the JAX trainer's records (commands as plain strings) included."""
    root = Path(__file__).resolve().parents[2]
    record = json.loads((root / "agents/trained/volle_wolle_2p_scratch.json").read_text())
    net = "agents/trained/volle_wolle_2p_scratch.npz"
    assert results.agent_file(f"mctx:16:k=2:net={net}") == net and results.agent_file("mctx:16") is None
    assert results.agent_file(f"lookahead:{net}:prior=none") == net and results.agent_file("strong") is None
    for label, subject in ((f"policy:{net}", f"`policy:{net}` was trained"),
                           (f"mctx:16:net={net}", f"The network of `mctx:16:net={net}` was trained")):
        line = " ".join(results._training_lines([label], root))
        assert subject in line and f"`{record['invocations'][0]}`" in line
        assert f"{record['timesteps']:,} timesteps" in line
