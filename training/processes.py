"""Child processes that never outlive their parent.

A run killed with SIGKILL cannot clean up, and a worker blocked on a queue or pipe may wait for
ever. On Linux the kernel can send a child a signal when its parent dies (``prctl`` with
``PR_SET_PDEATHSIG``); every worker of the project (self-play env processes, tournament, imitation
and afterstate pools) calls :func:`die_with_parent` first. Elsewhere it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent_pid: int | None = None) -> None:
    """Ask the kernel to terminate this process when its parent exits (Linux only).

    ``parent_pid``: the expected parent; if it already died before this call (the signal would then
    never come), exit at once.
    """
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if parent_pid is not None and os.getppid() != parent_pid:
        os._exit(1)


def worker_pool(workers: int, start_method: str = "fork", initializer=None):
    """A ``multiprocessing`` pool of ``workers`` processes that each call :func:`die_with_parent`
    first (then ``initializer``, a module-level function, if given): the pools of tournaments,
    imitation and afterstate data never outlive a killed run."""
    from multiprocessing import get_context

    return get_context(start_method).Pool(workers, initializer=_start_worker, initargs=(os.getpid(), initializer))


def _start_worker(parent_pid: int, initializer) -> None:
    die_with_parent(parent_pid)
    if initializer is not None:
        initializer()
