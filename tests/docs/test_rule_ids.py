"""The rule ids (HUI-n, HB-n, VW-n) of ``docs/rules/<game>.md`` and the code agree.

Every rule id that code, tests or notebooks cite is defined on its game's rules page, and every
rule of a page is cited by at least one test (by name, e.g. ``test_HB_13_...``, or in a test's
text), except the rules listed in :data:`WITHOUT_TEST` with the reason.
"""

import re
from pathlib import Path

import pytest

from meadowzoo.envs.registry import GAMES

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"

#: rule id -> why no test checks it (none at present: every rule has one)
WITHOUT_TEST: dict[str, str] = {}

#: an id as cited: ``HB-13``, ``HB_13`` (test names), with followers ``HB-19/20/21``, ``HUI_19_and_29``
CITATION = re.compile(r"(?<![A-Za-z])(HUI|HB|VW)[-_](\d+)((?:(?:/|_and_)(?:(?:HUI|HB|VW)-)?\d+)*)")
#: a range written in a docstring ("HB-1 … HB-24"): names its ends, tests neither
RANGE = re.compile(r"(?:HUI|HB|VW)-\d+\s*(?:…|\.\.\.?)\s*(?:HUI|HB|VW)-\d+")
DEFINITION = re.compile(r"^- ((?:HUI|HB|VW)-\d+) ", re.MULTILINE)
#: folders whose files may cite rules
SOURCES = ("envs", "agents", "training", "benchmarks", "notebooks", "tests", "meadowzoo")


def defined() -> dict[str, set[str]]:
    """Game -> the rule ids its page defines (each exactly once)."""
    pages = {}
    for game in GAMES:
        text = (RULES / f"{game}.md").read_text(encoding="utf-8")
        ids = DEFINITION.findall(text)
        assert len(ids) == len(set(ids)), f"{game}.md defines a rule id twice"
        pages[game] = set(ids)
    return pages


def citations(text: str) -> set[str]:
    """The rule ids a text cites (ranges count for their two ends only)."""
    found = set()
    for prefix, number, followers in CITATION.findall(text):
        found.add(f"{prefix}-{number}")
        found.update(f"{prefix}-{n}" for n in re.findall(r"(\d+)", followers))
    return found


def cited_in(folder: str, suffixes=(".py", ".ipynb", ".md")) -> dict[str, set[str]]:
    """File -> rule ids it cites, for the files under ``folder``."""
    return {str(path.relative_to(ROOT)): ids for path in sorted((ROOT / folder).rglob("*"))
            if path.suffix in suffixes and (ids := citations(path.read_text(encoding="utf-8")))}


def test_every_game_has_a_rules_page_with_numbered_rules():
    for game, ids in defined().items():
        prefix = ids and next(iter(ids)).split("-")[0]
        numbers = sorted(int(i.split("-")[1]) for i in ids)
        assert numbers == list(range(1, len(numbers) + 1)), f"{game}.md: rule ids are not 1..n"
        assert len(numbers) >= 10 and all(i.startswith(f"{prefix}-") for i in ids)


def test_citation_parser_reads_every_form():
    assert citations("HB-19/20/21 and test_HUI_19_and_29_x, HUI-5/HUI-30; HUI-7a") == {
        "HB-19", "HB-20", "HB-21", "HUI-19", "HUI-29", "HUI-5", "HUI-30", "HUI-7"}
    assert citations("LHB-3 VW3") == set()


@pytest.mark.parametrize("folder", SOURCES)
def test_every_cited_rule_id_exists(folder):
    known = set().union(*defined().values())
    unknown = {path: sorted(ids - known) for path, ids in cited_in(folder).items() if ids - known}
    assert not unknown, f"rule ids cited but not defined in docs/rules/: {unknown}"


def test_every_rule_is_cited_by_a_test():
    cited = set()
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path.parent.name != "docs":  # this folder only names ids to check them
            cited |= citations(RANGE.sub(" ", path.read_text(encoding="utf-8")))
    untested = {game: sorted(ids - cited - set(WITHOUT_TEST), key=lambda i: int(i.split("-")[1]))
                for game, ids in defined().items()}
    assert not any(untested.values()), f"rules without a test (add one or list it in WITHOUT_TEST): {untested}"
    stale = set(WITHOUT_TEST) & cited
    assert not stale, f"WITHOUT_TEST lists rules that have a test now: {sorted(stale)}"
