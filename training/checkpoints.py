"""Resumable training checkpoints without pickle, written crash-safely.

A checkpoint is a folder ``<out>/checkpoints/step_<timesteps>/`` holding

* ``weights.pt``: tensors only (policy parameters, optimizer state, torch's RNG state), written by
  ``torch.save`` and read with ``torch.load(weights_only=True)``, which refuses anything but tensors
  and plain containers — a crafted file cannot run code;
* ``meta.json``: counters (timesteps, updates, episodes), the PPO settings the model was built with,
  numpy's and Python's RNG states, the run's own state (opponent snapshots, invocations …) and
  ``envs``, the envs' games in progress as replayable records (:mod:`meadowzoo.training.resume`;
  absent in checkpoints made before them, and None when taken before the first rollout).

Stable-Baselines3's own ``save``/``load`` (a zip of cloudpickled objects, unpickled before any
check) is never used for resuming: a ``checkpoint.zip`` left in a run folder is ignored.

A checkpoint is built in a temporary folder and renamed into place, so a kill during a save leaves
the previous checkpoints whole; the newest :data:`KEEP` are kept, and :func:`latest` falls back to
an older one, with a warning, when the newest cannot be read.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from meadowzoo.training.files import atomic_write, atomic_write_json, fsync_directory

FORMAT = "meadowzoo-ppo-checkpoint-1"
#: checkpoints kept on disk: the newest and the one before it (the fallback)
KEEP = 2
FOLDER = "checkpoints"
_STEP = re.compile(r"^step_(\d{12})$")


class CorruptCheckpoint(ValueError):
    """A checkpoint folder that cannot be used (truncated, tampered with, wrong format)."""


@dataclass
class Checkpoint:
    path: Path
    timesteps: int
    meta: dict[str, Any]
    weights: dict[str, Any]

    @property
    def settings(self) -> dict[str, Any]:
        return self.meta["settings"]

    @property
    def state(self) -> dict[str, Any]:
        return self.meta["state"]


def folders(out: str | Path) -> list[Path]:
    """Checkpoint folders of a run, newest first."""
    root = Path(out) / FOLDER
    if not root.is_dir():
        return []
    found = [path for path in root.iterdir() if path.is_dir() and _STEP.match(path.name)]
    return sorted(found, key=lambda path: path.name, reverse=True)


def save(model, out: str | Path, settings: dict[str, Any], state: dict[str, Any],
         envs: dict[str, Any] | None = None) -> Path:
    """Write a checkpoint of ``model`` (a MaskablePPO), the run ``state`` and ``envs``
    (:func:`meadowzoo.training.resume.env_state`); returns its folder."""
    import torch

    timesteps = int(model.num_timesteps)
    building = building_folder(out)
    weights = {
        "format": FORMAT,
        "policy": {name: tensor.detach().cpu().clone() for name, tensor in model.policy.state_dict().items()},
        "optimizer": model.policy.optimizer.state_dict(),
        "torch_rng": torch.get_rng_state(),
    }
    atomic_write(building / "weights.pt", lambda handle: torch.save(weights, handle))
    name, keys, position, has_gauss, cached = np.random.get_state()
    python_version, python_state, python_gauss = random.getstate()
    atomic_write_json(building / "meta.json", {
        "format": FORMAT,
        "timesteps": timesteps,
        "n_updates": int(model._n_updates),
        "episode_num": int(model._episode_num),
        "settings": settings,
        "state": state,
        "numpy_rng": [name, keys.tolist(), int(position), int(has_gauss), float(cached)],
        "python_rng": [python_version, list(python_state), python_gauss],
        "envs": envs,
    })
    return publish(building, out, timesteps)


def building_folder(out: str | Path) -> Path:
    """A fresh temporary folder inside the run's checkpoint folder to build a checkpoint in."""
    root = Path(out) / FOLDER
    root.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=".building-", dir=root))


def publish(building: Path, out: str | Path, timesteps: int) -> Path:
    """Rename a fully written ``building`` folder into place as the checkpoint of ``timesteps``
    and drop all but the newest :data:`KEEP`; returns its folder."""
    root = Path(out) / FOLDER
    final = root / f"step_{timesteps:012d}"
    if final.exists():  # the same step saved twice (the end of a run): the new one wins
        replaced = Path(tempfile.mkdtemp(prefix=".replaced-", dir=root))
        os.replace(final, replaced / final.name)
        os.replace(building, final)
        shutil.rmtree(replaced)
    else:
        os.replace(building, final)
    fsync_directory(root)
    for old in folders(out)[KEEP:]:
        shutil.rmtree(old, ignore_errors=True)
    return final


def read_meta(path: Path, expected_format: str) -> dict[str, Any]:
    """A checkpoint folder's ``meta.json`` as a dict of the expected format (shared by both
    trainers' checkpoints); :class:`CorruptCheckpoint` if it is unreadable or of another format."""
    try:
        meta = json.loads((path / "meta.json").read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise CorruptCheckpoint(f"{path / 'meta.json'}: {error}") from None
    if not isinstance(meta, dict) or meta.get("format") != expected_format:
        raise CorruptCheckpoint(f"{path / 'meta.json'}: not a {expected_format} checkpoint")
    return meta


def read(path: str | Path) -> Checkpoint:
    """Load and check one checkpoint folder; :class:`CorruptCheckpoint` says what is wrong."""
    import torch

    path = Path(path)
    meta = read_meta(path, FORMAT)
    for field, kind in (("timesteps", int), ("n_updates", int), ("episode_num", int), ("settings", dict),
                        ("state", dict), ("numpy_rng", list), ("python_rng", list)):
        if not isinstance(meta.get(field), kind) or isinstance(meta.get(field), bool):
            raise CorruptCheckpoint(f"{path / 'meta.json'}: field {field!r} missing or not a {kind.__name__}")
    if meta["timesteps"] < 0:
        raise CorruptCheckpoint(f"{path / 'meta.json'}: field 'timesteps' is negative")
    if not isinstance(meta.get("envs"), (dict, type(None))):
        raise CorruptCheckpoint(f"{path / 'meta.json'}: field 'envs' is not a dict")
    try:
        weights = torch.load(path / "weights.pt", map_location="cpu", weights_only=True)
    except Exception as error:  # truncated zip, a pickle with code in it, a missing file …
        raise CorruptCheckpoint(f"{path / 'weights.pt'}: {type(error).__name__}: {error}") from None
    if not isinstance(weights, dict) or weights.get("format") != FORMAT or not all(
            isinstance(weights.get(key), dict) for key in ("policy", "optimizer")):
        raise CorruptCheckpoint(f"{path / 'weights.pt'}: not a {FORMAT} weights file")
    if not isinstance(weights.get("torch_rng"), torch.Tensor):
        raise CorruptCheckpoint(f"{path / 'weights.pt'}: field 'torch_rng' missing")
    return Checkpoint(path, meta["timesteps"], meta, weights)


def latest(out: str | Path, reader=None) -> Checkpoint | None:
    """The newest usable checkpoint of a run, or ``None``; unusable newer ones are skipped with a
    warning (a kill during the save, a tampered file). ``reader`` reads one folder (default
    :func:`read`; the JAX trainer passes its own)."""
    for path in folders(out):
        try:
            return (reader or read)(path)
        except CorruptCheckpoint as error:
            warnings.warn(f"skipping unusable checkpoint {path.name} ({error}); falling back to an older one",
                          RuntimeWarning, stacklevel=2)
    return None


def restore(model, checkpoint: Checkpoint) -> None:
    """Put the checkpoint's weights, optimizer state, counters and RNG states into ``model`` (a
    MaskablePPO built with ``checkpoint.settings``)."""
    import torch

    try:
        model.policy.load_state_dict(checkpoint.weights["policy"])
        model.policy.optimizer.load_state_dict(checkpoint.weights["optimizer"])
    except (RuntimeError, ValueError, KeyError) as error:
        raise CorruptCheckpoint(f"{checkpoint.path}: weights do not fit the network its settings build: {error}") from None
    model.num_timesteps = checkpoint.timesteps
    model._n_updates = checkpoint.meta["n_updates"]
    model._episode_num = checkpoint.meta["episode_num"]
    torch.set_rng_state(checkpoint.weights["torch_rng"])
    name, keys, position, has_gauss, cached = checkpoint.meta["numpy_rng"]
    np.random.set_state((name, np.asarray(keys, dtype=np.uint32), position, has_gauss, cached))
    version, state, gauss = checkpoint.meta["python_rng"]
    random.setstate((version, tuple(state), gauss))


def discard(out: str | Path) -> None:
    """Remove every checkpoint of a run (``--fresh``)."""
    shutil.rmtree(Path(out) / FOLDER, ignore_errors=True)


def start_afresh(out: str | Path, outputs: tuple[str, ...]) -> None:
    """``--fresh``: remove a run's checkpoints, the given output files and its TensorBoard curves
    (``tb/``, which would otherwise be drawn together with the new run's)."""
    out = Path(out)
    discard(out)
    for name in outputs:
        (out / name).unlink(missing_ok=True)
    shutil.rmtree(out / "tb", ignore_errors=True)


def other_settings(recorded: dict, run: dict, optional: tuple[str, ...] = ()) -> list[str]:
    """The settings of ``run`` that a checkpoint's ``recorded`` ones contradict; an ``optional``
    setting that the checkpoint does not record (it is older than the setting) is not compared."""
    return [key for key in run if (key in recorded or key not in optional) and recorded.get(key) != run[key]]


def other_run_message(out: str | Path, differing: list[str]) -> str:
    return (f"{out} holds a checkpoint of other settings ({', '.join(differing)} differ); "
            "use the same settings to resume, --fresh to start over, or another --out")
