"""The compiled trainer data-parallel over two CPU devices (``devices=2``), checked in a fresh
process by ``two_devices_check.py``: copies identical on both devices, the devices' games differ,
same seed same run, exact resume from a checkpoint of the gathered runner, clear refusals."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("jax")
pytest.importorskip("flax")

ROOT = Path(__file__).resolve().parents[2]


def test_two_devices_train_as_one_network():
    done = subprocess.run([sys.executable, str(Path(__file__).with_name("two_devices_check.py"))], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert done.stdout.strip().endswith("ok")


def test_more_devices_than_jax_has_are_refused():
    """In this process JAX already runs with the devices it has: asking for more is a clear error."""
    import jax

    import meadowzoo.jax
    from meadowzoo.training.jax_config import jax_config_for
    from meadowzoo.training.jax_ppo import SelfPlayPPO

    too_many = jax.local_device_count() + 1
    config = jax_config_for("volle_wolle", num_envs=8 * too_many, num_steps=2, num_minibatches=1, opponent_slots=1,
                            devices=too_many)
    with pytest.raises(ValueError, match="use_cpu_devices"):
        SelfPlayPPO(meadowzoo.jax.make("volle_wolle", num_players=2), config)
