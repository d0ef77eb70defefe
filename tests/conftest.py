"""Suite-wide fixtures and settings."""

import os
import shutil
import tempfile

import pytest

#: the compilation cache this process made for the run (removed at its end); None where the
#: user named one or where it was inherited from the process that made it (an xdist worker)
_jax_cache_made_here = None


#: the variable that has JAX compile with XLA's optimisations mostly off (read when JAX is imported)
CHEAP_COMPILES = "JAX_DISABLE_MOST_OPTIMIZATIONS"


def wants_cheap_compiles(markexpr: str, environ) -> bool:
    """Whether this run should compile its JAX programs cheaply: the default run (slow tests left
    out, ``-m 'not slow'`` of ``pyproject.toml``) unless the user set the variable. Most of that
    run's time is XLA compiling engines and trainers that then run a few steps; with its
    optimisations mostly off XLA compiles them faster than the programs lose in running (the
    JAX-heavy test files ×1.32 on two cores, session 34). The programs compute the same results
    (the tests compare them as before and all pass either way); a slow run (``-m slow``: the
    identity suites, the learning runs) compiles as users' programs do."""
    return CHEAP_COMPILES not in environ and markexpr == "not slow"


def pytest_configure(config):
    """Cheap compiles for the default run (:func:`wants_cheap_compiles`), then one persistent JAX
    compilation cache for the whole run, shared by the xdist workers and the
    subprocesses that tests start (they inherit the variable). Many tests compile the same program
    again (a trainer of the same settings in another test, the same engine in another worker);
    with the cache the second compile is a lookup (``tests/jax/test_train_jax.py`` alone: 344 s ->
    230 s on two workers). The key is the program itself (XLA's HLO, compile options, backend),
    so a hit runs the very program a compile would have made. A fresh folder per run: nothing
    outlives it, so a clean checkout's run is what CI measures."""
    global _jax_cache_made_here
    if wants_cheap_compiles(config.getoption("markexpr", ""), os.environ):  # inherited by workers and subprocesses
        os.environ[CHEAP_COMPILES] = "1"
    if os.environ.get("JAX_COMPILATION_CACHE_DIR"):  # the user's, or the run's (made by the parent)
        return
    _jax_cache_made_here = tempfile.mkdtemp(prefix="meadowzoo-jax-cache-")
    # JAX reads the variable when it is imported, which no test module has done yet
    # (tests/jax/test_compilation_cache.py checks that JAX uses the folder)
    os.environ["JAX_COMPILATION_CACHE_DIR"] = _jax_cache_made_here


def pytest_unconfigure(config):
    if _jax_cache_made_here:
        shutil.rmtree(_jax_cache_made_here, ignore_errors=True)


@pytest.fixture(scope="session", autouse=True)
def sb3_logs_in_pytest_tmp(tmp_path_factory):
    """SB3 makes an empty ``SB3-<time>`` folder in the system temp dir for every model that learns
    without a log folder; a CI machine running the suite day after day fills its /tmp with them.
    Point them at pytest's own temp dir, which pytest prunes (subprocesses inherit the variable)."""
    previous = os.environ.get("SB3_LOGDIR")
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3_logs"))
    yield
    if previous is None:
        os.environ.pop("SB3_LOGDIR", None)
    else:
        os.environ["SB3_LOGDIR"] = previous
