"""The result tables of results/README.md are generated from stored tournament JSON, never typed."""

import json
from pathlib import Path

import pytest

from meadowzoo.training import evaluate, results


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
