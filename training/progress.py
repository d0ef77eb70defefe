"""Progress lines for long steps without a progress bar: ``done / total``, rate and ETA.

    collecting strong's games: 60/150 (40%), 2.9 games/s, ETA 31 s

Plain lines (not a bar redrawn with carriage returns) so that logs of the main job and CI show
them; at most one line per ``interval`` seconds, and always the first and the last.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


def duration(seconds: float) -> str:
    """``42 s``, ``3 min 5 s``, ``1 h 12 min``."""
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60} min"


class Progress:
    """Counts work done towards ``total`` and prints a line now and then (see the module docstring)."""

    def __init__(self, what: str, total: int, unit: str, *, interval: float = 5.0, stream: TextIO | None = None,
                 enabled: bool = True, clock=time.monotonic) -> None:
        self.what, self.total, self.unit = what, total, unit
        self.interval, self.stream, self.enabled, self.clock = interval, stream, enabled, clock
        self.done = 0
        self.started = clock()
        self.last_line = None

    def update(self, n: int = 1, note: str = "") -> None:
        self.done += n
        now = self.clock()
        finished = self.done >= self.total
        if not self.enabled or not (finished or self.last_line is None or now - self.last_line >= self.interval):
            return
        self.last_line = now
        print(self.line(now, note), file=self.stream or sys.stdout, flush=True)

    def line(self, now: float, note: str = "") -> str:
        elapsed = max(now - self.started, 1e-9)
        rate = self.done / elapsed
        share = self.done / self.total if self.total else 1.0
        text = f"{self.what}: {self.done}/{self.total} ({share:.0%}), {rate:.3g} {self.unit}/s"
        if self.done < self.total:
            text += f", ETA {duration((self.total - self.done) / rate) if rate > 0 else '?'}"
        else:
            text += f", {duration(elapsed)} in all"
        return text + (f"; {note}" if note else "")
