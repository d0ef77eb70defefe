"""The Pgx reference benchmark's own pieces: which engines it builds, its refusals and its table
(its figures are recorded by running it, not asserted here)."""

from __future__ import annotations

import pytest

pytest.importorskip("pgx")

from benchmarks.pgx_reference import main, make_engines, markdown_table, parse_ours  # noqa: E402


def test_parse_ours_reads_game_and_players_and_refuses_the_rest():
    assert parse_ours("volle_wolle:4") == ("volle_wolle", 4)
    for bad in ("volle_wolle", "volle_wolle:x", "chess:2", ":2"):
        with pytest.raises(ValueError, match="GAME:PLAYERS"):
            parse_ours(bad)


def test_unknown_pgx_game_is_refused_with_pgx_names():
    with pytest.raises(ValueError, match="not a Pgx game.*backgammon"):
        make_engines([], ["checkers"])


def test_table_sorts_fastest_first_marks_ours_and_divides_by_connect_four():
    rows = [{"engine": "pgx connect_four", "ours": False, "steps": 2_000_000.0, "compile_s": 0.8, "actions": 7},
            {"engine": "volle_wolle 2p", "ours": True, "steps": 500_000.0, "compile_s": 3.9, "actions": 27},
            {"engine": "pgx backgammon", "ours": False, "steps": 100_000.0, "compile_s": 2.4, "actions": 162}]
    lines = markdown_table(rows).splitlines()
    assert lines[2].startswith("| pgx connect_four |") and lines[2].endswith(" 1.00 |")
    assert lines[3] == "| **volle_wolle 2p** | 27 | 500,000 | 3.9 | 0.25 |"
    assert lines[4].endswith(" 0.05 |")
    assert "connect four" not in markdown_table(rows[1:]).splitlines()[0]  # no yardstick, no column


def test_a_short_run_measures_every_engine_named(tmp_path):
    out = tmp_path / "figures.json"
    result = main(["--ours", "volle_wolle:2", "--pgx", "connect_four", "--batch", "8", "--unroll", "2",
                   "--seconds", "0.05", "--rounds", "1", "--json", str(out)])
    assert [row["engine"] for row in result["rows"]] == ["volle_wolle 2p", "pgx connect_four"]
    assert all(row["steps"] > 0 for row in result["rows"])
    assert [row["actions"] for row in result["rows"]] == [27, 7]
    assert out.read_text().count('"engine"') == 2


def test_bad_arguments_exit_with_a_usage_error():
    for argv in (["--batch", "0"], ["--ours", "--pgx"], ["--pgx", "checkers"]):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2
