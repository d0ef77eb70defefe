"""The documentation pages: links that resolve, tables written by code where the code says, the
README's figures taken from the generated result tables, and the pictures redrawn by code."""

import re
from pathlib import Path

import pytest
from PIL import Image

from benchmarks import speed
from docs import pictures

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([ROOT / "README.md", ROOT / "results" / "README.md", ROOT / "agents" / "trained" / "README.md",
                *(ROOT / "docs").rglob("*.md")])
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    return {slug(line.lstrip("#")) for line in page.read_text(encoding="utf-8").splitlines() if line.startswith("#")}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page):
    broken = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):  # http(s), mailto
            continue
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        if not resolved.exists() or (anchor and resolved.suffix == ".md" and anchor not in anchors(resolved)):
            broken.append(target)
    assert not broken, f"{page.relative_to(ROOT)}: broken links {broken}"


#: a file of the repository named in backticks, e.g. `envs/haste_bock/data.py` (placeholders skipped)
CODE_PATH = re.compile(r"`((?:envs|agents|training|tests|docs|scripts|results|benchmarks|notebooks|meadowzoo)/[\w./-]+"
                       r"\.(?:py|md|json|sh|ipynb|png|csv))`")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_named_in_code_font_exists(page):
    missing = [path for path in CODE_PATH.findall(page.read_text(encoding="utf-8")) if not (ROOT / path).exists()]
    assert not missing, f"{page.relative_to(ROOT)} names files that do not exist: {missing}"


def test_readme_names_the_two_commands_that_ci_and_the_main_job_run():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "bash scripts/test.sh" in (ROOT / ".ci" / "run").read_text()
    for command in ("bash scripts/main.sh", "bash scripts/test.sh"):
        assert f"\n{command} " in readme and (ROOT / command.split()[1]).is_file()


def test_readme_headline_figures_come_from_the_generated_tables():
    """Every "share [low, high]" figure in the README appears in a generated table of
    results/README.md, so the headline table cannot drift from the stored results."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    tables = (ROOT / "results" / "README.md").read_text(encoding="utf-8")
    figures = re.findall(r"\d+\.\d% \[\d+\.\d, \d+\.\d\]", readme)
    assert len(figures) >= 12
    assert [f for f in figures if f not in tables] == []


def test_speed_table_is_written_between_the_markers_of_its_page(tmp_path):
    assert "<!-- speed:start -->" in (ROOT / speed.TABLE_PAGE).read_text(encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("intro\n<!-- speed:start -->\nold\n<!-- speed:end -->\noutro\n")
    row = {"raw_steps": 1000.0, "raw_ratio": 1.0, "raw_games": 10.0, "env_steps": 500.0, "env_ratio": 1.0}
    speed.write_table({"connect_four_v3": row}, "python -m benchmarks.speed --docs", str(page))
    text = page.read_text()
    assert "old" not in text and text.startswith("intro\n") and text.endswith("<!-- speed:end -->\noutro\n")
    assert "| connect_four_v3 | 1,000 | 1.00 | 10.0 | 500 | 1.00 |" in text
    page.write_text("no markers\n")
    with pytest.raises(SystemExit, match="markers"):
        speed.write_table({"connect_four_v3": row}, "x", str(page))


def test_pictures_are_redrawn_at_the_committed_size(tmp_path):
    written = pictures.main(str(tmp_path))
    assert sorted(p.name for p in written) == sorted(f"{game}.png" for game in pictures.SCENES)
    for path in written:
        committed = ROOT / "docs" / "images" / path.name
        assert Image.open(path).size == Image.open(committed).size
        assert len(Image.open(path).getcolors(1 << 16) or range(1 << 16)) > 8  # a drawing, not a blank


def test_jax_tables_are_written_between_their_markers(tmp_path):
    from benchmarks import jax_tables

    for page in (jax_tables.DOC, jax_tables.README):
        text = page.read_text(encoding="utf-8")
        assert "<!-- jax-speed:start -->" in text and "<!-- train-speed:start -->" in text
    row = {"game": "volle_wolle", "players": 4, "steps": 1_400_000.0, "compile_s": 7.7, "raw_env": 70_000.0,
           "x_raw_env": 20.0, "connect_four_steps": 2_800_000.0, "x_connect_four": 0.5, "load": "1.0 → 1.2"}
    lines = jax_tables.engine_table([row], "python -m benchmarks.jax_tables")
    assert "| Volle Wolle | 4 | 1,400,000 | 7.7 | 70,000 | **20.0** | 2,800,000 | **0.50** | 1.0 → 1.2 |" in lines
    # the header names the CPU and the program's shape (a row without a device count ran as one program)
    assert f"({jax_tables.describe_cpu()})" in lines[0] and "batch 1024, one program;" in lines[0]
    split = jax_tables.engine_table([{**row, "devices": 2}], "python -m benchmarks.jax_tables --devices 2")
    assert "batch 1024, the batch split over 2 CPU devices;" in split[0] and "one program" not in split[0]
    page = tmp_path / "page.md"
    page.write_text("intro\n<!-- jax-speed:start -->\nold\n<!-- jax-speed:end -->\noutro\n")
    jax_tables.replace_between(page, "jax-speed", lines)
    text = page.read_text()
    assert "old" not in text and "**20.0**" in text and text.endswith("<!-- jax-speed:end -->\noutro\n")
    with pytest.raises(SystemExit, match="markers"):
        jax_tables.replace_between(page, "train-speed", lines)


def test_jax_tables_json_holds_engine_and_trainer_rows(tmp_path, monkeypatch):
    """Without --engines/--trainer the trainer's rows come from a child process; --json must hold
    both tables in the one file asked for (it used to leave the trainer's in a sibling file)."""
    import json

    from benchmarks import jax_tables

    engine_row = {"game": "volle_wolle", "players": 2}
    trainer_row = {"game": "volle_wolle", "steps_per_second": 1.0}

    def child(command, check, cwd):
        assert "--trainer" in command and "--no-write" in command
        Path(command[command.index("--json") + 1]).write_text(json.dumps({"trainer": [trainer_row]}))

    monkeypatch.setattr(jax_tables, "engine_rows", lambda *args: [engine_row])
    monkeypatch.setattr(jax_tables, "engine_table", lambda rows, command: ["table"])
    monkeypatch.setattr(jax_tables.subprocess, "run", child)
    out = tmp_path / "rows.json"
    jax_tables.main(["--no-write", "--json", str(out)])
    assert json.loads(out.read_text()) == {"engines": [engine_row], "trainer": [trainer_row]}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rows.json"]
