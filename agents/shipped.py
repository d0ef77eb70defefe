"""Where the shipped agents live: ``agents/trained/`` in the repository, ``meadowzoo/agents/trained/``
in an installed wheel.

Agent specs, tables and docs name shipped files as ``agents/trained/<file>`` (a path relative to the
repository root, so that every recorded command runs in a checkout). :func:`resolve_agent_file`
makes the same spec work from any folder of an installed package: a path that does not exist as
given but names a shipped file is looked up in the package. A shipped file's record
(``<name>.json``) holds its sha256, checked on load by :func:`verify_recorded_sha256`.
"""

from __future__ import annotations

import hashlib
import json
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
    """Every shipped weights file (``*.pt``; ``*.npz``: networks of the compiled JAX trainer)."""
    return sorted([*TRAINED.glob("*.pt"), *TRAINED.glob("*.npz")])


def file_sha256(path: str | Path) -> str:
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify_recorded_sha256(path: str | Path) -> None:
    """If ``<path without suffix>.json`` is a shipping record with a ``sha256`` (written by
    ``meadowzoo.training.ship``), the file must match it: a flipped byte in the weights would
    otherwise load and play, wrongly, without a word."""
    path = Path(path)
    record_path = path.with_suffix(".json")
    if not record_path.is_file():
        return
    try:
        expected = json.loads(record_path.read_text()).get("sha256")
    except (json.JSONDecodeError, UnicodeDecodeError, AttributeError):
        return  # not a shipping record
    if isinstance(expected, str) and file_sha256(path) != expected:
        raise ValueError(f"{path}: its sha256 differs from the one recorded in {record_path.name} "
                         "(the file is corrupt or was replaced)")
