"""Checkpoints of the compiled trainer: the whole training state as numpy arrays plus JSON, no pickle.

A checkpoint is a folder ``<out>/checkpoints/step_<learner steps>/`` (the same layout, atomic
build-then-rename and keep-the-newest-two policy as the SB3 trainer's
:mod:`meadowzoo.training.checkpoints`) holding

* ``state.npz``: every leaf of the trainer's ``Runner`` pytree (network, Adam moments, the games in
  flight, the learner's seats, the opponent population and its ratings, the random key) as
  ``leaf_00000 …``, read with ``allow_pickle=False``;
* ``meta.json``: format, learner steps, updates, the game, options, seed and trainer settings,
  every leaf's shape and dtype, and the run's own state (evaluations so far, wall time …).

Restoring rebuilds the pytree's structure from a fresh ``setup`` of the same settings and pours the
arrays in (shapes and dtypes checked), so the run continues exactly where it stopped.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import jax
import numpy as np

from meadowzoo.training import checkpoints
from meadowzoo.training.checkpoints import CorruptCheckpoint, building_folder, publish
from meadowzoo.training.files import atomic_write, atomic_write_json

FORMAT = "meadowzoo-jax-ppo-checkpoint-1"


def save(runner: Any, out: str | Path, timesteps: int, meta: dict[str, Any]) -> Path:
    """Write the checkpoint of ``runner`` at ``timesteps`` learner steps; returns its folder."""
    leaves = [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(jax.device_get(runner))]
    buffer = io.BytesIO()
    np.savez(buffer, **{f"leaf_{i:05d}": leaf for i, leaf in enumerate(leaves)})
    building = building_folder(out)
    atomic_write(building / "state.npz", lambda handle: handle.write(buffer.getvalue()))
    atomic_write_json(building / "meta.json", {
        **meta, "format": FORMAT, "timesteps": int(timesteps),
        "leaves": [[list(leaf.shape), str(leaf.dtype)] for leaf in leaves],
    })
    return publish(building, out, timesteps)


def read(path: str | Path) -> tuple[dict, list[np.ndarray]]:
    """The meta data and leaves of one checkpoint folder; :class:`CorruptCheckpoint` says what is wrong."""
    path = Path(path)
    meta = checkpoints.read_meta(path, FORMAT)
    if not isinstance(meta.get("leaves"), list) or not isinstance(meta.get("timesteps"), int):
        raise CorruptCheckpoint(f"{path / 'meta.json'}: fields 'leaves' or 'timesteps' missing")
    try:
        with np.load(path / "state.npz", allow_pickle=False) as archive:
            leaves = [archive[f"leaf_{i:05d}"] for i in range(len(meta["leaves"]))]
    except Exception as error:  # truncated, missing, object arrays …
        raise CorruptCheckpoint(f"{path / 'state.npz'}: {type(error).__name__}: {error}") from None
    for i, (leaf, (shape, dtype)) in enumerate(zip(leaves, meta["leaves"])):
        if list(leaf.shape) != shape or str(leaf.dtype) != dtype:
            raise CorruptCheckpoint(f"{path / 'state.npz'}: leaf {i} is {leaf.shape} {leaf.dtype}, meta says {shape} {dtype}")
    return meta, leaves


def latest(out: str | Path) -> tuple[dict, list[np.ndarray]] | None:
    """The newest usable checkpoint of a run (older ones when the newest is unreadable), or ``None``."""
    return checkpoints.latest(out, reader=read)


def restore(template: Any, leaves: list[np.ndarray]) -> Any:
    """``template`` (a fresh runner of the same settings) with the checkpoint's leaves poured in."""
    expected = jax.tree_util.tree_leaves(template)
    treedef = jax.tree_util.tree_structure(template)
    if len(expected) != len(leaves):
        raise CorruptCheckpoint(f"the checkpoint holds {len(leaves)} arrays; these settings need {len(expected)}")
    for i, (want, got) in enumerate(zip(expected, leaves)):
        if tuple(want.shape) != tuple(got.shape) or np.dtype(want.dtype) != got.dtype:
            raise CorruptCheckpoint(f"array {i} of the checkpoint is {got.shape} {got.dtype}; "
                                    f"these settings need {tuple(want.shape)} {want.dtype}")
    return jax.tree_util.tree_unflatten(treedef, [jax.numpy.asarray(leaf) for leaf in leaves])
