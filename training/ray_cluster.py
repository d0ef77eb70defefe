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


def connect(address: str | None = None) -> Connection:
    """Initialise Ray for this process (see the module docstring); reuse a caller's ``ray.init``."""
    ray = _import_ray()
    if ray.is_initialized():
        return Connection(started=False)
    kwargs = {"runtime_env": code_runtime_env(), "logging_level": "WARNING", "log_to_driver": True}
    if address is None and not os.environ.get("RAY_ADDRESS"):
        kwargs["include_dashboard"] = False
    ray.init(address=address, **kwargs)
    return Connection(started=True)


def cluster_size() -> dict:
    """Alive nodes and the CPUs they offer."""
    ray = _import_ray()
    nodes = [n for n in ray.nodes() if n.get("Alive")]
    return {"nodes": len(nodes), "cpus": int(sum(n.get("Resources", {}).get("CPU", 0) for n in nodes))}
