"""A few RLlib self-play iterations on the local two-node Ray cluster (conftest.py), the learner's
snapshots, and the trained module exported and played in a tournament."""

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

from meadowzoo.training import evaluate, rllib_export, rllib_selfplay  # noqa: E402


def _actor_weights(state: dict) -> dict:
    return {k: np.asarray(v) for k, v in state.items() if k.startswith(("encoder.actor_encoder", "pi.net"))}


def test_selfplay_trains_on_the_cluster_freezes_snapshots_and_exports_a_playable_policy(ray_cluster, tmp_path):
    config = rllib_selfplay.build_config("haste_bock", {"num_players": 2}, fixed_opponents="greedy,random",
                                         fixed_share=0.5, snapshots=2, snapshot_every=1, env_runners=1,
                                         batch=128, minibatch=64, epochs=1, hidden=(16, 16), seed=0)
    log = []
    algorithm, history = rllib_selfplay.train(config, iterations=2, log=log.append)
    try:
        assert [row["iteration"] for row in history] == [1, 2] and len(log) == 2
        assert history[-1]["env_steps"] >= 256 and history[-1]["episodes"] >= 1
        assert -1.0 <= history[-1]["learner_return"] <= 1.0
        learner = algorithm.learner_group.get_weights(module_ids=["main", "snapshot_0", "snapshot_1"])
        main, first, second = (_actor_weights(learner[m]) for m in ("main", "snapshot_0", "snapshot_1"))
        # after iteration 2 snapshot_1 is the current main; snapshot_0 is main after iteration 1
        assert all(np.array_equal(main[k], second[k]) for k in main)
        assert not all(np.array_equal(main[k], first[k]) for k in main)
        # ... and the rollout actor plays with the same frozen weights
        remote = algorithm.env_runner_group.foreach_env_runner(
            lambda runner: {k: v.detach().numpy() for k, v in runner.module["snapshot_1"].state_dict().items()},
            local_env_runner=False)[0]
        assert all(np.array_equal(remote[k], second[k]) for k in second)
        path = rllib_export.export_policy(algorithm, tmp_path / "rllib.pt", "haste_bock", {"num_players": 2})
    finally:
        algorithm.stop()
    result = evaluate.evaluate("haste_bock", 2, [f"policy:{path}", "random"], games=2, seed=0, progress=False)
    assert result["games"] == 2 and sum(result["per_agent"][f"policy:{path}"][k] for k in ("wins", "draws", "losses")) == 2
