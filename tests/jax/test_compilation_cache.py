"""The test run's JAX compilation settings (tests/conftest.py): one shared persistent cache, and
cheap compiles in the default run."""

import os

import jax
import jax.numpy as jnp


def test_the_run_shares_one_persistent_compilation_cache():
    folder = os.environ.get("JAX_COMPILATION_CACHE_DIR")
    assert folder and os.path.isdir(folder)  # made for the run (or named by the user) and not yet removed
    assert jax.config.jax_compilation_cache_dir == folder  # the folder this process's compilations use
    # a cached program runs as a compiled one does
    assert int(jax.jit(lambda x: (x * 2).sum())(jnp.arange(4))) == 12


def test_the_default_run_compiles_cheaply_and_a_slow_run_as_users_do(pytestconfig):
    from tests.conftest import CHEAP_COMPILES, wants_cheap_compiles

    assert wants_cheap_compiles("not slow", {})
    assert not wants_cheap_compiles("slow", {})  # the identity suites and learning runs
    assert not wants_cheap_compiles("", {})  # every test, as `-m ""` asks
    assert not wants_cheap_compiles("not slow", {CHEAP_COMPILES: "0"})  # the user's choice stands
    if pytestconfig.getoption("markexpr") == "not slow":  # this is the default run: the variable reached this process
        assert CHEAP_COMPILES in os.environ
    # JAX follows the variable this process was given
    assert jax.config.read("jax_disable_most_optimizations") == (os.environ.get(CHEAP_COMPILES, "0").lower() in ("1", "true"))
