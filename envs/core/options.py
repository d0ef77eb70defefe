"""Checks of constructor options shared by every game: each raises ``ValueError`` naming the option
and the value, and returns the value in the plain Python type a snapshot stores (JSON data).

Integers are Python or numpy integers, never ``bool`` (a subclass of ``int``), floats (``1.5``, nor
``3.0``) or strings (``"10"``); flags are ``bool`` only; choices are strings from a fixed list.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def check_int(name: str, value: Any, lo: int, hi: int | None = None) -> int:
    """``value`` as an ``int`` within ``lo..hi`` (``hi`` None: no upper bound)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer, got {value!r} ({type(value).__name__})")
    value = int(value)
    if value < lo or (hi is not None and value > hi):
        span = f"at least {lo}" if hi is None else f"in {lo}..{hi}"
        raise ValueError(f"{name} must be {span}, got {value}")
    return value


def check_bool(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be a bool, got {value!r} ({type(value).__name__})")
    return bool(value)


def check_choice(name: str, value: Any, choices: tuple[str, ...] | list[str]) -> str:
    """A string among ``choices`` (an unhashable or non-string value is refused, never a TypeError)."""
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}, got {value!r}")
    return value
