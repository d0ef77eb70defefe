"""The test run's shared JAX compilation cache (tests/conftest.py)."""

import os

import jax
import jax.numpy as jnp


def test_the_run_shares_one_persistent_compilation_cache():
    folder = os.environ.get("JAX_COMPILATION_CACHE_DIR")
    assert folder and os.path.isdir(folder)  # made for the run (or named by the user) and not yet removed
    assert jax.config.jax_compilation_cache_dir == folder  # the folder this process's compilations use
    # a cached program runs as a compiled one does
    assert int(jax.jit(lambda x: (x * 2).sum())(jnp.arange(4))) == 12
