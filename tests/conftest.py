"""Suite-wide fixtures."""

import os

import pytest


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
