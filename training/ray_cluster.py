"""Connecting to a Ray cluster, shared by distributed tournaments and RLlib training.

* ``address=None``: join the cluster named by ``RAY_ADDRESS`` if that is set, else start a
  private single-machine Ray for this process (it ends with the process).
* ``address="auto"``: the cluster that ``ray start --head`` started on this machine.
* ``address="HOST:6379"``: the cluster whose head node listens there.

Every node of a cluster must be able to import the same meadowzoo (``pip install meadowzoo[ray]``
on each machine, same version). When the driver runs from a source checkout (``pytest`` in the
repository, a git worktree) rather than an installed package, the checkout's root is put first on
the workers' ``PYTHONPATH`` (a job-level ``runtime_env``), so that the workers of a cluster on
this machine play with the checkout's code, not with whatever meadowzoo the venv installed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


def _import_ray():
    try:
        import ray
    except ImportError:
        raise ImportError("the Ray backend needs Ray: pip install 'meadowzoo[ray]'") from None
    return ray


def code_runtime_env() -> dict:
    """The job ``runtime_env`` that lets Ray workers import the driver's meadowzoo."""
    import meadowzoo

    paths = [str(Path(p).resolve()) for p in meadowzoo.__path__]
    if len(paths) < 2:  # an installed package: the workers import their own installation
        return {}
    root = str(Path(paths[0]).parent)  # the checkout root holds meadowzoo/, envs/, agents/ …
    inherited = os.environ.get("PYTHONPATH")
    return {"env_vars": {"PYTHONPATH": root + (os.pathsep + inherited if inherited else "")}}


@dataclass(frozen=True)
class Connection:
    """An open connection; ``started`` says whether :func:`connect` started Ray itself (and so
    should shut it down) rather than finding it already initialised by the caller."""

    started: bool

    def close(self) -> None:
        if self.started:
            _import_ray().shutdown()


class ClusterUnreachable(ConnectionError):
    """No Ray cluster could be joined at the address given; the message says what to check."""


#: seconds to wait for a TCP answer from ``HOST:PORT`` before joining (Ray itself retries for minutes)
PROBE_SECONDS = 5.0

AUTH_HINT = ("a cluster started by `ray start` on Ray 2.59 or later may use token authentication: "
             "set RAY_AUTH_MODE=token here, and on another machine also RAY_AUTH_TOKEN (`ray get-auth-token` "
             "on the head prints it)")


def _probe(address: str) -> None:
    """Refuse at once a ``HOST:PORT`` where nothing listens (``auto``, ``local`` and ``ray://``
    addresses are left to Ray)."""
    import socket

    host, _, port = address.rpartition(":")
    if not host or not port.isdigit() or "://" in address:
        return
    try:
        with socket.create_connection((host, int(port)), timeout=PROBE_SECONDS):
            pass
    except OSError as error:
        raise ClusterUnreachable(f"no Ray cluster answers at {address} ({error.strerror or error}); "
                                 "start one with `ray start --head --port=PORT`, or check HOST:PORT") from None


def connect(address: str | None = None) -> Connection:
    """Initialise Ray for this process (see the module docstring); reuse a caller's ``ray.init``.
    An address where no cluster can be joined raises :class:`ClusterUnreachable` with what to
    check, instead of Ray's traceback or its minutes of retries."""
    ray = _import_ray()
    if ray.is_initialized():
        return Connection(started=False)
    kwargs = {"runtime_env": code_runtime_env(), "logging_level": "WARNING", "log_to_driver": True}
    if address is None and not os.environ.get("RAY_ADDRESS"):
        kwargs["include_dashboard"] = False
    target = address or os.environ.get("RAY_ADDRESS")
    if target:
        _probe(target)
    try:
        ray.init(address=address, **kwargs)
    except Exception as error:  # Ray raises ConnectionError, its AuthenticationError, RuntimeError …
        if not target:
            raise
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        hint = "start one with `ray start --head`" if target == "auto" else AUTH_HINT
        raise ClusterUnreachable(f"cannot join the Ray cluster at {target!r}: {first}; {hint}") from None
    return Connection(started=True)


def cluster_size() -> dict:
    """Alive nodes and the CPUs they offer."""
    ray = _import_ray()
    nodes = [n for n in ray.nodes() if n.get("Alive")]
    return {"nodes": len(nodes), "cpus": int(sum(n.get("Resources", {}).get("CPU", 0) for n in nodes))}
