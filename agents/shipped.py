"""Where the shipped agents live: ``agents/trained/`` in the repository, ``meadowzoo/agents/trained/``
in an installed wheel.

Agent specs, tables and docs name shipped files as ``agents/trained/<file>`` (a path relative to the
repository root, so that every recorded command runs in a checkout). :func:`resolve_agent_file`
makes the same spec work from any folder of an installed package: a path that does not exist as
given but names a shipped file is looked up in the package.
"""

from __future__ import annotations

from pathlib import Path

#: the shipped agents' folder inside the package
TRAINED = Path(__file__).resolve().parent / "trained"
_PREFIX = ("agents", "trained")


def resolve_agent_file(path: str | Path) -> Path:
    """``path`` itself if it exists; else the shipped file it names; else ``path`` unchanged (the
    loader then reports the missing file)."""
    path = Path(path)
    if path.exists():
        return path
    parts = path.parts
    if len(parts) == 3 and parts[:2] == _PREFIX and (TRAINED / parts[2]).is_file():
        return TRAINED / parts[2]
    return path


def shipped_files() -> list[Path]:
    """Every shipped weights file (``*.pt``)."""
    return sorted(TRAINED.glob("*.pt"))
