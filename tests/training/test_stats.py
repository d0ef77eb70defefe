"""Tournament statistics and ratings on rigged results whose answers are known."""

import math
import random

import pytest

from meadowzoo.training import ratings, stats


def rigged(wins: int, draws: int, losses: int, a: str = "A", b: str = "B", scores=None) -> list[dict]:
    """2-player records: A wins, draws and loses the given numbers, alternating seats."""
    records = []
    outcomes = [1.0] * wins + [0.0] * draws + [-1.0] * losses
    for i, r in enumerate(outcomes):
        agents, rewards = [a, b], [r, -r]
        if i % 2:
            agents, rewards = agents[::-1], rewards[::-1]
        records.append({"index": i, "agents": agents, "rewards": rewards, "scores": scores})
    return records


def test_wilson_matches_reference_values():
    lo, hi = stats.wilson(75, 100)
    assert lo == pytest.approx(0.6569, abs=1e-4) and hi == pytest.approx(0.8245, abs=1e-4)
    assert stats.wilson(0, 10)[0] == pytest.approx(0.0) and stats.wilson(10, 10)[1] == pytest.approx(1.0)
    assert stats.wilson(0, 0) == (0.0, 1.0)


def test_wilson_interval_always_contains_its_estimate():
    # at 0 or all wins the formula's float ends miss the estimate by ~1e-19 (it crashed a plot)
    for n in (1, 7, 400, 1000, 12345):
        for successes in (0, 0.5, 1, n / 3, n - 1, n):
            low, high = stats.wilson(successes, n)
            assert 0.0 <= low <= successes / n <= high <= 1.0
    assert stats.wilson(0, 1000)[0] == 0.0 and stats.wilson(1000, 1000)[1] == 1.0


@pytest.mark.parametrize("df, t", [(3, 3.182), (6, 2.447), (9, 2.262), (30, 2.042), (1000, 1.962)])
def test_t_quantile(df, t):
    assert stats.t_quantile(df) == pytest.approx(t, abs=0.002)


def test_mean_interval():
    mean, lo, hi = stats.mean_ci([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0])
    half = 2.262 * math.sqrt(55 / 6 / 10)
    assert mean == 5.5 and lo == pytest.approx(5.5 - half, abs=0.01) and hi == pytest.approx(5.5 + half, abs=0.01)


def test_rigged_two_player_match():
    records = rigged(70, 10, 20)
    result = stats.tournament_stats(records, ["A", "B"])
    a, b = result["per_agent"]["A"], result["per_agent"]["B"]
    assert (a["wins"], a["draws"], a["losses"]) == (70, 10, 20)
    assert (b["wins"], b["draws"], b["losses"]) == (20, 10, 70)
    assert a["win_share"] == pytest.approx(0.75) and b["win_share"] == pytest.approx(0.25)
    assert a["win_share_ci"] == pytest.approx(list(stats.wilson(75, 100)))
    assert a["mean_rank"] == pytest.approx(1 + 0.25) and b["mean_rank"] == pytest.approx(1.75)
    assert a["mean_rank_ci"][1] < 1.5 < b["mean_rank_ci"][0]
    assert a["mean_margin"] == pytest.approx(2 * 0.5)  # reward margin: +2 per win, -2 per loss
    h = result["head_to_head"]["A|B"]
    assert h["meetings"] == 100 and h["share"] == pytest.approx(0.75) and h["significant"]
    assert not result["head_to_head"]["B|A"]["significant"]
    seats = result["per_seat"]["A"]
    assert seats["0"]["games"] == seats["1"]["games"] == 50


def test_even_match_is_not_significant():
    h = stats.tournament_stats(rigged(26, 0, 24), ["A", "B"])["head_to_head"]["A|B"]
    assert h["share"] == 0.52 and not h["significant"]


def test_multiplayer_ranks_ties_and_score_margin():
    # A first alone, B and C share second, D last; scores 10, 7, 7, 2
    record = {"agents": ["A", "B", "C", "D"], "rewards": [1.0, 0.0, 0.0, -1.0], "scores": [10, 7, 7, 2]}
    rows = {r["agent"]: r for r in stats.seat_outcomes(record)}
    assert [rows[x]["rank"] for x in "ABCD"] == [1.0, 2.5, 2.5, 4.0]
    assert [rows[x]["outcome"] for x in "ABCD"] == ["win", "loss", "loss", "loss"]
    assert [rows[x]["margin"] for x in "ABCD"] == [3, -3, -3, -8]


def test_shared_first_place_is_a_draw():
    record = {"agents": ["A", "B", "C"], "rewards": [0.5, 0.5, -1.0], "scores": None}
    assert [r["outcome"] for r in stats.seat_outcomes(record)] == ["draw", "draw", "loss"]


def test_bradley_terry_recovers_known_strengths():
    elo = ratings.bradley_terry(rigged(75, 0, 25), ["A", "B"], prior=0.0)
    assert elo["A"] - elo["B"] == pytest.approx(400 * math.log10(3), abs=0.5)
    assert elo["A"] + elo["B"] == pytest.approx(0, abs=1e-6)


def test_bradley_terry_stays_finite_for_a_clean_sweep():
    elo = ratings.bradley_terry(rigged(40, 0, 0), ["A", "B"])
    assert math.isfinite(elo["A"]) and elo["A"] > 300


def test_openskill_orders_the_stronger_agent_first():
    records = rigged(30, 0, 10)
    random.Random(0).shuffle(records)  # sequential ratings weigh recent games: mix the losses in
    result = ratings.openskill_ratings(records, ["A", "B"])
    assert result["A"]["mu"] > 25 > result["B"]["mu"]
    assert result["A"]["ordinal"] == pytest.approx(result["A"]["mu"] - 3 * result["A"]["sigma"])


def test_openskill_with_an_agent_in_two_seats():
    record = {"agents": ["A", "R", "R"], "rewards": [1.0, 0.0, -1.0], "scores": None}
    result = ratings.openskill_ratings([record] * 5, ["A", "R"])
    assert result["A"]["mu"] > result["R"]["mu"]
