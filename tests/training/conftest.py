"""A real local Ray cluster for the distributed tests: a head node and one worker node on this
machine, one CPU each, started once per test session (in one pytest-xdist worker: the tests that
use it are in the ``ray_cluster`` xdist group, and the suite runs with ``--dist loadgroup``)."""

import pytest


@pytest.fixture(scope="session")
def ray_cluster():
    ray = pytest.importorskip("ray")
    from ray.cluster_utils import Cluster

    from meadowzoo.training.ray_cluster import code_runtime_env

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, runtime_env=code_runtime_env(), logging_level="WARNING")
    try:
        yield cluster
    finally:
        ray.shutdown()
        cluster.shutdown()


@pytest.fixture(scope="session")
def grouping_probe():
    """Nothing but its xdist group, set the way ``ray_cluster``'s is (test_xdist_grouping.py)."""
    return "probe"


#: session fixtures whose tests must share one worker, and their xdist group
GROUPED_FIXTURES = {"ray_cluster": "ray_cluster", "grouping_probe": "grouping_probe"}


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which turns the marks into node ids
def pytest_collection_modifyitems(items):
    for item in items:
        for fixture, group in GROUPED_FIXTURES.items():
            if fixture in getattr(item, "fixturenames", ()):
                item.add_marker(pytest.mark.xdist_group(group))
