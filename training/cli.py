"""Console-script entry points (``meadowzoo-train``, ``meadowzoo-evaluate`` …).

Each runs the ``main()`` of its module, which is also reachable as
``python -m meadowzoo.training.<module>``. The ``main()`` functions return their results for
callers in Python; a console script must return an exit status instead, so these wrappers drop it.
"""

from __future__ import annotations

import importlib


def _run(module: str) -> int:
    importlib.import_module(f"meadowzoo.training.{module}").main()
    return 0


def train() -> int:
    return _run("train")


def evaluate() -> int:
    return _run("evaluate")


def play() -> int:
    return _run("play")


def results() -> int:
    return _run("results")


def ship() -> int:
    return _run("ship")


def fit_afterstate_value() -> int:
    return _run("fit_afterstate_value")


def serve() -> int:
    return _run("serve")
