"""The suite's xdist groups hold: tests that share a session fixture (the Ray cluster of
``conftest.py``) run in one worker under ``--dist loadgroup``. With pytest 9.2 pytest-xdist silently ignores the ``xdist_group`` marks
(pytest-dev/pytest-xdist#1386), hence the dev extra's ``pytest<9.2``; this test notices a
combination that breaks it again."""

import os

import pytest


def skip_unless_loadgroup(request) -> None:
    # in a worker, xdist keeps the main process's --dist loadgroup as option.loadgroup
    if "PYTEST_XDIST_WORKER" not in os.environ or not getattr(request.config.option, "loadgroup", False):
        pytest.skip("checks pytest-xdist's --dist loadgroup, the suite's default (run with -n)")


@pytest.mark.xdist_group("grouping_check")
def test_loadgroup_keeps_a_group_in_one_worker(request):
    skip_unless_loadgroup(request)
    # xdist schedules a group as one unit by giving its tests the node id suffix "@<group>"
    assert request.node.nodeid.endswith("@grouping_check"), request.node.nodeid


def test_a_group_given_at_collection_holds_too(grouping_probe, request):
    """The Ray tests get their group from conftest.py's collection hook, by the fixture they use;
    ``grouping_probe`` is grouped the same way."""
    skip_unless_loadgroup(request)
    assert request.node.nodeid.endswith("@grouping_probe"), request.node.nodeid
