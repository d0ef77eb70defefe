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
    assert stats.wilson(0, 0) is None and stats.wilson(1, 1) is None  # no interval below two games


def test_wilson_interval_always_contains_its_estimate():
    # at 0 or all wins the formula's float ends miss the estimate by ~1e-19 (it crashed a plot)
    for n in (2, 7, 400, 1000, 12345):
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


# ---- intervals stay in range; none below two games (issue 15 item 7) ------------------------------
def four_player(rewards_per_game: list[list[float]], scores=None) -> list[dict]:
    return [{"index": i, "agents": ["A", "B", "C", "D"], "rewards": r, "scores": scores} for i, r in enumerate(rewards_per_game)]


@pytest.mark.parametrize("games", [0, 1])
def test_fewer_than_two_games_have_no_interval(games):
    records = rigged(games, 0, 0)
    result = stats.tournament_stats(records, ["A", "B"])
    for summary in (result["per_agent"]["A"], result["per_agent"]["B"]):
        assert summary["games"] == games
        for key in ("win_share_ci", "win_rate_ci", "draw_rate_ci", "loss_rate_ci", "mean_rank_ci", "mean_margin_ci"):
            assert summary[key] is None, key
        if games == 0:  # a mean of nothing is None, never NaN
            assert summary["win_share"] is None and summary["mean_rank"] is None and summary["mean_margin"] is None
    for pair in result["head_to_head"].values():
        assert pair["share_ci"] is None and not pair["significant"]
    assert stats.mean_ci([]) == (None, None, None) and stats.mean_ci([3.0]) == (3.0, None, None)


def test_tables_print_n_lt_2_not_nan(tmp_path):
    from meadowzoo.training import evaluate, results

    for games in (0, 1):
        result = {"game": "volle_wolle", "players": 2, "agents": ["A", "B"], "games": games, "seed": 0,
                  "truncated_games": 0, "margin_unit": "reward", "seconds_per_decision": {"A": 0.0, "B": 0.0},
                  **stats.tournament_stats(rigged(games, 0, 0), ["A", "B"]),
                  "openskill": ratings.openskill_ratings(rigged(games, 0, 0), ["A", "B"]),
                  "bradley_terry_elo": ratings.bradley_terry(rigged(games, 0, 0), ["A", "B"])}
        for text in (evaluate.report(result), results.result_section(result, "x/results.json")):
            assert "n<2" in text and "nan" not in text.lower() and "inf" not in text


def test_two_games_mean_rank_interval_stays_within_1_to_n():
    # the case: mean rank 1.50 with n = 2 in a 4-player game gave [-4.85, 7.85]
    records = four_player([[1.0, 1 / 3, -1 / 3, -1.0], [1 / 3, 1.0, -1 / 3, -1.0]])
    a = stats.tournament_stats(records, ["A", "B", "C", "D"])["per_agent"]["A"]
    assert a["mean_rank"] == pytest.approx(1.5)
    low, high = a["mean_rank_ci"]
    assert low == 1.0 and 1.5 < high <= 4.0
    assert stats.interval_text(a["mean_rank_ci"]).startswith("[1.00, ")


@pytest.mark.parametrize("wins, draws, losses", [(2, 0, 0), (0, 0, 2), (0, 2, 0), (1, 0, 1), (50, 0, 0), (0, 0, 50)])
def test_extremes_stay_in_range(wins, draws, losses):
    result = stats.tournament_stats(rigged(wins, draws, losses), ["A", "B"])
    for summary in result["per_agent"].values():
        lo, hi = summary["win_share_ci"]
        assert 0.0 <= lo <= summary["win_share"] <= hi <= 1.0
        lo, hi = summary["mean_rank_ci"]
        assert 1.0 <= lo <= summary["mean_rank"] <= hi <= 2.0
        lo, hi = summary["mean_margin_ci"]  # reward margins lie in [-2, 2]
        assert -2.0 <= lo <= summary["mean_margin"] <= hi <= 2.0
    for pair in result["head_to_head"].values():
        assert 0.0 <= pair["share_ci"][0] <= pair["share"] <= pair["share_ci"][1] <= 1.0


def test_score_margin_interval_within_the_spread_of_scores():
    # two games, margins +10 and -10: the raw t interval is ±127; scores seen span 0..10
    records = [{"index": 0, "agents": ["A", "B"], "rewards": [1.0, -1.0], "scores": [10, 0]},
               {"index": 1, "agents": ["B", "A"], "rewards": [1.0, -1.0], "scores": [10, 0]}]
    a = stats.tournament_stats(records, ["A", "B"])["per_agent"]["A"]
    assert a["mean_margin"] == 0.0 and a["mean_margin_ci"] == [-10, 10]


# ---- intervals clustered by game ------------------------------------------------------------------
def one_against_three(wins: int, losses: int) -> list[dict]:
    """4-player tables of A and three B seats: A first (ahead of every B) or last (behind every B)."""
    records = []
    for i in range(wins + losses):
        a_reward = 1.0 if i < wins else -1.0
        b_rewards = [-1.0 / 3, -1.0 / 3, -1.0 / 3] if i < wins else [1.0, 1.0 / 3, -1.0 / 3]
        records.append({"agents": ["A", "B", "B", "B"], "rewards": [a_reward, *b_rewards], "scores": None})
    return records


def test_design_effect_is_exactly_one_with_one_value_per_game():
    values = [random.Random(seed).choice([0.0, 0.5, 1.0]) for seed in range(200)]
    assert stats.design_effect([[v] for v in values]) == 1.0
    assert stats.share_ci(values) == stats.share_ci(values, games=list(range(200)))
    assert stats.share_ci(values) == stats.wilson(sum(values), len(values))


def test_a_games_identical_meetings_count_as_one_game():
    # k copies of each game's outcome carry the information of one: the effective sample size is
    # kG(G-1)/(kG-1), i.e. about G, not kG
    per_game = [1.0] * 58 + [0.0] * 42
    values = [v for v in per_game for _ in range(3)]
    games = [g for g in range(100) for _ in range(3)]
    deff = stats.design_effect([[v] * 3 for v in per_game])
    assert deff == pytest.approx(299 / 99)
    clustered = stats.share_ci(values, games)
    assert clustered == pytest.approx(stats.wilson(58 * 300 / 299 * 99 / 100, 300 * 99 / 299))
    naive = stats.wilson(174, 300)
    assert clustered[0] < naive[0] and clustered[1] > naive[1]


def test_three_meetings_in_one_game_do_not_make_a_win_significant():
    # A is ahead of all three B seats in 58 of 100 games: 174 of 300 meetings. As independent
    # meetings that would be significant (Wilson's lower end 52.4%); it is 100 games' evidence
    result = stats.tournament_stats(one_against_three(58, 42), ["A", "B"])
    pair = result["head_to_head"]["A|B"]
    assert pair["meetings"] == 300 and pair["share"] == pytest.approx(0.58)
    assert stats.wilson(174, 300)[0] > 0.5
    assert pair["share_ci"][0] < 0.5 and not pair["significant"]
    # the same share from 300 independent games would be significant
    assert stats.tournament_stats(one_against_three(174, 126), ["A", "B"])["head_to_head"]["A|B"]["significant"]


def test_negatively_correlated_seats_keep_the_independent_interval():
    # B holds three seats and at most one of them wins a game: the rows vary less between games
    # than independent ones would, and the interval is not narrowed below the plain one
    result = stats.tournament_stats(one_against_three(40, 60), ["A", "B"])
    b = result["per_agent"]["B"]
    assert (b["games"], b["wins"]) == (300, 60)
    assert b["win_share_ci"] == pytest.approx(list(stats.wilson(60, 300)))
    # one row per game for A: the plain interval
    assert result["per_agent"]["A"]["win_share_ci"] == pytest.approx(list(stats.wilson(40, 100)))


def test_clustered_mean_of_copied_games_is_the_mean_of_the_games():
    # four identical rows from each of five games: the cluster-robust variance of the mean is
    # exactly the five games' own (G/(G-1) * sum((4(y - m))^2) / 20^2 = s^2 / 5) and the t
    # quantile has 4 degrees of freedom, so the interval is that of the five games
    per_game = [1.0, 2.0, 3.0, 4.0, 5.0]
    values = [v for v in per_game for _ in range(4)]
    games = [g for g in range(5) for _ in range(4)]
    assert stats.mean_ci(values, games=games) == pytest.approx(stats.mean_ci(per_game))
    _, naive_lo, naive_hi = stats.mean_ci(values)  # 20 "independent" rows: far narrower
    _, lo, hi = stats.mean_ci(values, games=games)
    assert hi - lo > 2 * (naive_hi - naive_lo)
    assert stats.mean_ci(values, games=[0] * 20) == (3.0, None, None)  # one game: no interval


def test_game_ids_must_match_the_values():
    with pytest.raises(ValueError, match="game ids"):
        stats.share_ci([1.0, 0.0], games=[0])


def test_design_effect_of_equal_values_is_one_despite_rounding():
    # 0.1 is not exact in binary: the two variances are rounding noise, and their ratio is not 1
    assert stats.design_effect([[0.1] * 3, [0.1] * 3]) == 1.0
    assert stats.design_effect([[0.0, 0.0], [0.0, 0.0], [0.0]]) == 1.0


def test_rows_that_only_partly_say_their_game_are_refused():
    rows = [dict(row, game=0) for row in stats.seat_outcomes(rigged(1, 0, 0)[0])]
    rows += stats.seat_outcomes(rigged(0, 0, 1)[0])  # no "game": the intervals would silently stop being clustered
    with pytest.raises(ValueError, match="do not say their game"):
        stats.summarise(rows)
    assert stats.summarise(stats.seat_outcomes(rigged(1, 0, 0)[0]))["games"] == 2  # none say it: one game each
