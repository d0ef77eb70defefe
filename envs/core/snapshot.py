"""Validation helpers for JSON snapshots: every error names the offending field."""

from __future__ import annotations

from typing import Any

import numpy as np


def require(data: Any, field: str, kind: type | tuple[type, ...], where: str = "snapshot") -> Any:
    """Return ``data[field]`` after checking it exists and has the expected type."""
    if not isinstance(data, dict):
        raise ValueError(f"{where}: expected an object, got {type(data).__name__}")
    if field not in data:
        raise ValueError(f"{where}: missing field {field!r}")
    value = data[field]
    # bool is an int subclass; never accept it where a number is expected
    if isinstance(value, bool) and kind in (int, float, (int, float)):
        raise ValueError(f"{where}: field {field!r} must be {_name(kind)}, got bool")
    if not isinstance(value, kind):
        raise ValueError(f"{where}: field {field!r} must be {_name(kind)}, got {type(value).__name__}")
    return value


def require_int(data: Any, field: str, lo: int, hi: int, where: str = "snapshot") -> int:
    """An integer field within ``lo..hi`` inclusive."""
    value = require(data, field, int, where)
    if not lo <= value <= hi:
        raise ValueError(f"{where}: field {field!r}={value} outside {lo}..{hi}")
    return value


def require_int_list(
    data: Any, field: str, length: int | None, lo: int, hi: int, where: str = "snapshot"
) -> list[int]:
    """A list of integers, optionally of a given length, each within ``lo..hi``."""
    value = require(data, field, list, where)
    if length is not None and len(value) != length:
        raise ValueError(f"{where}: field {field!r} must have {length} entries, has {len(value)}")
    for i, item in enumerate(value):
        if isinstance(item, bool) or not isinstance(item, int) or not lo <= item <= hi:
            raise ValueError(f"{where}: field {field!r}[{i}]={item!r} must be an integer in {lo}..{hi}")
    return list(value)


def require_choice(data: Any, field: str, choices: tuple[str, ...], where: str = "snapshot") -> int:
    """A string field naming one of ``choices``; returns its index."""
    value = require(data, field, str, where)
    if value not in choices:
        raise ValueError(f"{where}: field {field!r} must be one of {choices}, got {value!r}")
    return choices.index(value)


def rename_fields(data: dict, renames: dict[str, str]) -> dict:
    """A copy of ``data`` with fields renamed (``old -> new``), for :meth:`Game.upgrade`."""
    return {renames.get(key, key): value for key, value in data.items()}


def require_bool_list(data: Any, field: str, length: int, where: str = "snapshot") -> list[bool]:
    value = require(data, field, list, where)
    if len(value) != length or not all(isinstance(v, bool) for v in value):
        raise ValueError(f"{where}: field {field!r} must be a list of {length} booleans")
    return list(value)


def rng_to_dict(rng: np.random.Generator) -> dict:
    """The generator's state as plain JSON data."""
    return rng.bit_generator.state


def rng_from_dict(state: Any, where: str = "snapshot") -> np.random.Generator:
    """Rebuild a PCG64 generator from :func:`rng_to_dict` output. Anything else (other keys,
    numbers out of range, a state numpy would store differently) raises ``ValueError``."""
    if not isinstance(state, dict) or state.get("bit_generator") != "PCG64":
        raise ValueError(f"{where}: field 'rng' must be a PCG64 generator state")
    inner = state.get("state")
    if set(state) != {"bit_generator", "state", "has_uint32", "uinteger"} or not isinstance(inner, dict) \
            or set(inner) != {"state", "inc"} or not all(_is_int(inner[k], 2**128 - 1) for k in ("state", "inc")) \
            or not _is_int(state["has_uint32"], 1) or not _is_int(state["uinteger"], 2**32 - 1):
        raise ValueError(f"{where}: field 'rng' is not a valid PCG64 state (keys bit_generator, state {{state, inc < "
                         f"2**128}}, has_uint32 0/1, uinteger < 2**32)")
    bit_generator = np.random.PCG64()
    try:
        bit_generator.state = state
    except (TypeError, ValueError, KeyError, OverflowError) as error:
        raise ValueError(f"{where}: field 'rng' is not a valid generator state ({error})") from None
    if bit_generator.state != state:  # e.g. an even increment: numpy would run another generator
        raise ValueError(f"{where}: field 'rng' is not a state a PCG64 generator can hold")
    return np.random.Generator(bit_generator)


def _is_int(value: Any, hi: int) -> bool:
    return type(value) is int and 0 <= value <= hi


def same_json(a: Any, b: Any) -> bool:
    """Equal as JSON values, types included (``True`` is not ``1``, ``1.0`` is not ``1``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    return a == b


def _name(kind: type | tuple[type, ...]) -> str:
    if isinstance(kind, tuple):
        return " or ".join(k.__name__ for k in kind)
    return kind.__name__
