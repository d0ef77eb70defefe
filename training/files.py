"""Crash-safe file writing for runs and results: a file is either its old or its new whole self.

Every writer here writes a temporary file next to the target, flushes and fsyncs it, and renames it
over the target (``os.replace`` is atomic on POSIX), so a run killed in the middle of a save leaves
the previous version intact instead of a truncated file that breaks every later resume.
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any


def atomic_write(path: str | Path, write: Callable[[IO[bytes]], Any]) -> Path:
    """Call ``write(handle)`` on a temporary file beside ``path``, then move it over ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def atomic_write_bytes(path: str | Path, data: bytes) -> Path:
    return atomic_write(path, lambda handle: handle.write(data))


def atomic_write_text(path: str | Path, text: str) -> Path:
    return atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_json(path: str | Path, data: Any) -> Path:
    return atomic_write_text(path, json.dumps(data, indent=2) + "\n")


def atomic_write_csv(path: str | Path, rows: Iterable[dict]) -> Path:
    """Write ``rows`` (dicts) as CSV with the union of their keys as header, in first-seen order."""
    rows = list(rows)
    fields: list[str] = []
    for row in rows:
        fields += [key for key in row if key not in fields]
    text = io.StringIO(newline="")
    writer = csv.DictWriter(text, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return atomic_write_text(path, text.getvalue())


def read_csv(path: str | Path) -> list[dict[str, str]]:
    """Rows of a CSV file as dicts (an empty list for a missing file)."""
    path = Path(path)
    if not path.exists():
        return []
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def fsync_directory(path: str | Path) -> None:
    """Make a rename inside ``path`` durable (POSIX: the directory entry itself is synced)."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
