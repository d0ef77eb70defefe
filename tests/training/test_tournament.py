"""Tournament scheduling, seeds, parallel reproducibility and the evaluate command's outputs."""

import csv
import json
from collections import Counter
from itertools import combinations

import pytest

from meadowzoo.training import evaluate, stats, tournament


def test_table_mode_rotates_every_agent_through_every_seat():
    seatings = tournament.schedule(["a", "b", "c", "d"], 4, 10)
    assert len(seatings) == 12  # rounded up to whole rotations
    for agent in "abcd":
        assert Counter(s.index(agent) for s in seatings) == {0: 3, 1: 3, 2: 3, 3: 3}


def test_pairs_mode_plays_every_pairing_seat_balanced():
    seatings = tournament.schedule(["a", "b", "c"], 2, 4, mode="pairs")
    assert Counter(frozenset(s) for s in seatings) == {frozenset("ab"): 4, frozenset("ac"): 4, frozenset("bc"): 4}
    assert Counter(s for s in seatings if set(s) == {"a", "b"}) == {("a", "b"): 2, ("b", "a"): 2}


def _followers(seatings):
    """How often each ordered pair of labels sits right after one another (seat i, then i + 1 mod n)."""
    return Counter((s[i], s[(i + 1) % len(s)]) for s in seatings for i in range(len(s)))


@pytest.mark.parametrize("players, cycle", [(2, 2), (3, 6), (4, 24), (5, 120)])
def test_orders_mode_balances_seats_and_who_sits_after_whom(players, cycle):
    agents = "abcde"[:players]
    seatings = tournament.schedule(list(agents), players, 1, mode="orders")
    assert len(seatings) == cycle and len(set(seatings)) == cycle  # n! distinct seatings
    for agent in agents:  # every seat equally often
        assert set(Counter(s.index(agent) for s in seatings).values()) == {cycle // players}
    followers = _followers(seatings)
    assert set(followers) == {(a, b) for a in agents for b in agents if a != b}
    assert len(set(followers.values())) == 1  # every agent right before every other equally often


def test_table_mode_does_not_balance_who_sits_after_whom():
    """What orders mode adds: table mode's rotations keep the list's order around the table."""
    followers = _followers(tournament.schedule(list("abcd"), 4, 4))
    assert followers[("a", "b")] == 4 and followers[("b", "a")] == 0


def test_orders_mode_with_repeated_labels_keeps_the_shares_in_fewer_games():
    seatings = tournament.schedule(["x", "s", "s", "s"], 4, 1, mode="orders")
    assert len(seatings) == 4 and set(Counter(s.index("x") for s in seatings).values()) == {1}
    assert "orders mode: a cycle of 4 games" in tournament.cycle_text(["x", "s", "s", "s"], 4, 1, "orders")
    assert "shortened from 24" in tournament.cycle_text(["x", "s", "s", "s"], 4, 1, "orders")
    assert "rounded up to 6" in tournament.cycle_text(list("abc"), 3, 5, "orders")


def test_orders_mode_refuses_team_games_and_wrong_counts():
    with pytest.raises(ValueError, match="without teams"):
        tournament.schedule(list("abcd"), 4, 4, mode="orders", teams=[0, 1, 0, 1])
    with pytest.raises(ValueError, match="one agent per seat"):
        tournament.schedule(list("ab"), 3, 4, mode="orders")


def test_evaluate_plays_orders_mode():
    result = evaluate.main(["--game", "volle_wolle", "--players", "3", "--agents", "random,greedy,random",
                            "--games", "6", "--mode", "orders", "--workers", "1", "--quiet"])
    seats = [tuple(record["agents"]) for record in result["records"]]
    assert len(seats) == 6 and len(set(seats)) == 3  # two random entries: each circular order twice


@pytest.mark.parametrize("specs, players, mode", [(["a", "b"], 3, "table"), (["a", "b", "c"], 3, "pairs"), (["a"], 2, "x")])
def test_bad_schedules_are_refused(specs, players, mode):
    with pytest.raises(ValueError):
        tournament.schedule(specs, players, 4, mode)


def test_the_schedule_without_teams_is_the_one_stored_results_were_played_with():
    """Stored tournaments are re-run from their commands: a game without teams keeps exactly the
    seatings it had before team games rotated partners (the list's rotations, repeats and all)."""
    rotations = [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]
    assert tournament.schedule(["a", "b", "c"], 3, 5) == rotations * 2
    assert tournament.schedule(["a", "b", "c"], 3, 5, teams=[0, 1, 2]) == rotations * 2  # every seat its own team
    assert tournament.schedule(["s", "r", "r", "r"], 4, 4, teams=None) == [
        ("s", "r", "r", "r"), ("r", "r", "r", "s"), ("r", "r", "s", "r"), ("r", "s", "r", "r")]
    assert tournament.schedule(["s", "s"], 2, 3) == [("s", "s")] * 4  # not shortened
    # the tournament asks the game for its teams: none in the games without a team option
    assert tournament.seat_teams("haste_bock", {"num_players": 4}) is None
    assert tournament.seat_teams("volle_wolle", {"num_players": 3}) is None
    assert tournament.seat_teams("hase_und_igel", {"num_players": 4}) is None


# the team layouts of the rules (Hase und Igel's teams option): players, option, cycle length,
# games each agent plays at each seat in a cycle, games each pair of agents are partners in
HUI_TEAMS = [(4, "2x2", 12, 3, 4), (6, "3x2", 30, 5, 6), (6, "2x3", 60, 10, 24)]


def partners(seatings: list[tuple[str, ...]], teams: list[int]) -> Counter:
    """How often each pair of agents sat in one team (a pair of seats of one team counts once)."""
    return Counter(frozenset((seats[i], seats[j])) for seats in seatings
                   for i, j in combinations(range(len(teams)), 2) if teams[i] == teams[j])


@pytest.mark.parametrize("players, layout, cycle, per_seat, together", HUI_TEAMS)
def test_a_team_game_seats_every_agent_at_every_seat_equally_often(players, layout, cycle, per_seat, together):
    teams = tournament.seat_teams("hase_und_igel", {"num_players": players, "teams": layout})
    specs = [f"agent{i}" for i in range(players)]
    seatings = tournament.schedule(specs, players, 1, teams=teams)
    assert len(seatings) == cycle  # one whole cycle
    assert len(tournament.schedule(specs, players, cycle + 1, teams=teams)) == 2 * cycle  # rounded up to cycles
    for agent in specs:
        assert Counter(s.index(agent) for s in seatings) == dict.fromkeys(range(players), per_seat)
    for start in range(0, cycle, players):  # every block of one partnering is seat-balanced already
        block = seatings[start:start + players]
        assert all(sorted(s.index(agent) for s in block) == list(range(players)) for agent in specs)


@pytest.mark.parametrize("players, layout, cycle, per_seat, together", HUI_TEAMS)
def test_a_team_game_partners_every_pair_of_agents_equally_often(players, layout, cycle, per_seat, together):
    teams = tournament.seat_teams("hase_und_igel", {"num_players": players, "teams": layout})
    specs = [f"agent{i}" for i in range(players)]
    seatings = tournament.schedule(specs, players, cycle, teams=teams)
    every_pair = {frozenset(pair) for pair in combinations(specs, 2)}
    assert partners(seatings, teams) == dict.fromkeys(every_pair, together)


def test_repeated_agents_in_a_team_game_give_the_others_the_same_partners():
    teams = [0, 1, 0, 1]
    seatings = tournament.schedule(["A", "B", "strong", "strong"], 4, 12, teams=teams)
    assert len(seatings) == 12
    for agent, other in (("A", "B"), ("B", "A")):  # A and B: the same partners, so comparable
        mates = Counter(s[(s.index(agent) + 2) % 4] for s in seatings)
        assert mates == {other: 4, "strong": 8}
    assert Counter(s.index("A") for s in seatings) == {0: 3, 1: 3, 2: 3, 3: 3}
    assert Counter(i for s in seatings for i, a in enumerate(s) if a == "strong") == {0: 6, 1: 6, 2: 6, 3: 6}
    # seatings made equal by repeats are kept in the same shares, in fewer games
    assert tournament.schedule(["strong"] * 4, 4, 1, teams=teams) == [("strong",) * 4]
    halved = tournament.schedule(["A", "A", "B", "B"], 4, 1, teams=teams)
    assert len(halved) == 6 and len(set(halved)) == 6
    assert Counter(i for s in halved for i, a in enumerate(s) if a == "A") == {0: 3, 1: 3, 2: 3, 3: 3}
    assert sum(s[0] == s[2] for s in halved) == 2  # A with A (or B with B) in a third of the games, as in 12


@pytest.mark.parametrize("teams, mode, problem", [([0, 0, 1, 1], "table", "rotation"), ([0, 1, 0], "table", "teams"),
                                                  ([0, 0], "pairs", "without teams")])
def test_team_layouts_the_schedule_cannot_balance_are_refused(teams, mode, problem):
    players = 2 if mode == "pairs" else 4
    with pytest.raises(ValueError, match=problem):
        tournament.schedule(["a", "b", "c", "d"][:players], players, 4, mode, teams)


def test_a_team_tournament_records_every_partnering(capsys):
    agents = ["random", "greedy", "strong", "mcts:2:depth=2"]
    result = evaluate.main(["--game", "hase_und_igel", "--players", "4", "--agents", ",".join(agents), "--games", "5",
                            "--option", "teams=2x2", "--option", "max_turns=40", "--workers", "1", "--quiet"])
    printed = capsys.readouterr().out
    assert "a cycle of 12 games" in printed and "5 games rounded up to 12" in printed
    assert len(result["records"]) == 12
    assert all(record["teams"] == [0, 1, 0, 1] for record in result["records"])
    seatings = [tuple(record["agents"]) for record in result["records"]]
    assert partners(seatings, [0, 1, 0, 1]) == {frozenset(pair): 4 for pair in combinations(agents, 2)}
    for agent in agents:
        assert Counter(s.index(agent) for s in seatings) == {0: 3, 1: 3, 2: 3, 3: 3}


def test_game_seeds_differ_and_are_stable():
    seeds = [tournament.game_seed(0, i) for i in range(100)]
    assert len(set(seeds)) == 100 and seeds == [tournament.game_seed(0, i) for i in range(100)]
    assert tournament.game_seed(1, 0) != seeds[0]


def test_results_do_not_depend_on_worker_count():
    kwargs = dict(game="volle_wolle", players=2, specs=["mcts:3:depth=5", "random"], games=6, seed=4, progress=False)
    one = evaluate.evaluate(workers=1, **kwargs)
    two = evaluate.evaluate(workers=2, **kwargs)
    strip = lambda r: [{k: v for k, v in rec.items() if k != "seconds"} for rec in r["records"]]  # noqa: E731
    assert strip(one) == strip(two)
    assert one["per_agent"] == two["per_agent"]


def test_command_writes_table_json_csv_and_plot(tmp_path, capsys):
    out = tmp_path / "run"
    result = evaluate.main(["--game", "haste_bock", "--players", "4", "--agents", "random,random,mcts:2:depth=4,random",
                            "--games", "4", "--workers", "1", "--seed", "3", "--out", str(out), "--quiet"])
    printed = capsys.readouterr().out
    assert "mcts:2:depth=4" in printed and "win share" in printed
    stored = json.loads((out / "results.json").read_text())
    assert stored["command"].startswith("python -m meadowzoo.training.evaluate --game haste_bock")
    import subprocess  # the code that played: this checkout's commit (the tests run from a git checkout)
    head = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    assert stored["code"]["commit"] == head and isinstance(stored["code"]["dirty"], bool)
    assert stored["games"] == 4 and len(stored["records"]) == 4
    assert set(stored["per_agent"]) == {"random", "mcts:2:depth=4"}
    assert stored["per_agent"]["random"]["games"] == 12  # three seats a game
    assert stored["margin_unit"] == "score"
    with open(out / "agents.csv") as f:
        assert [row["agent"] for row in csv.DictReader(f)] == ["random", "mcts:2:depth=4"]
    assert (out / "seats.csv").exists() and (out / "head_to_head.csv").exists()
    assert (out / "summary.png").read_bytes()[:4] == b"\x89PNG"
    assert result["openskill"].keys() == {"random", "mcts:2:depth=4"}


def test_env_options_are_parsed():
    assert evaluate.parse_option("two_runners=false") == ("two_runners", False)
    assert evaluate.parse_option("max_turns=50") == ("max_turns", 50)
    assert evaluate.parse_option("layout=fixed") == ("layout", "fixed")


def test_truncated_games_can_be_scored_by_standing():
    kwargs = dict(game="hase_und_igel", players=2, specs=["greedy", "random"], games=2, seed=1, progress=False,
                  options={"max_turns": 6})
    draw = evaluate.evaluate(**kwargs)
    standing = evaluate.evaluate(truncated="standing", **kwargs)
    assert draw["truncated_games"] == standing["truncated_games"] == 2
    assert all(r["rewards"] == [0.0, 0.0] for r in draw["records"])
    assert all(sorted(r["rewards"]) in ([-1.0, 1.0], [0.0, 0.0]) for r in standing["records"])
    assert standing["records"][0]["env_rewards"] == [0.0, 0.0]


def test_plot_accepts_an_interval_end_a_hair_past_its_estimate(tmp_path):
    """Wilson's formula at 0 wins gives a lower end of ~2e-19 in floating point, not 0 (found in a
    1000-game 4-player table, where it crashed the plot); the summary plot must still be drawn."""
    from meadowzoo.training.evaluate import plot
    from meadowzoo.training.stats import wilson

    per_agent = {
        "strong": {"win_share": 0.49, "win_share_ci": list(wilson(490, 1000)), "mean_rank": 1.6,
                   "mean_rank_ci": [1.58, 1.66]},
        "random": {"win_share": 0.0, "win_share_ci": list(wilson(0, 1000)), "mean_rank": 3.8,
                   "mean_rank_ci": [3.79, 3.85]},
    }
    plot({"per_agent": per_agent, "game": "haste_bock", "players": 4, "games": 1000}, tmp_path / "summary.png")
    assert (tmp_path / "summary.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("players, agents, mode", [(4, ["greedy", "random", "random", "greedy"], "table"),
                                                   (2, ["random", "greedy", "strong"], "pairs")])
def test_seconds_per_decision_divide_each_agents_time_by_its_own_decisions(players, agents, mode):
    """An agent holding two seats, or playing only some games of a pairs series, is timed over the
    decisions it took (the column had divided by an equal share of every game's decisions)."""
    result = evaluate.evaluate("volle_wolle", players, agents, games=6, seed=2, mode=mode, progress=False)
    for record in result["records"]:
        assert sum(record["seat_decisions"]) == record["decisions"] == len(record["actions"])
    for label in dict.fromkeys(agents):
        seconds = sum(s for r in result["records"] for a, s in zip(r["agents"], r["seconds"]) if a == label)
        taken = sum(n for r in result["records"] for a, n in zip(r["agents"], r["seat_decisions"]) if a == label)
        assert result["seconds_per_decision"][label] == pytest.approx(seconds / taken)


def test_seconds_per_decision_of_records_without_seat_counts_credit_each_seat_an_equal_share():
    old = [{"agents": ["A", "B", "B"], "seconds": [3.0, 1.0, 2.0], "decisions": 30},
           {"agents": ["B", "C", "A"], "seconds": [1.0, 4.0, 1.0], "decisions": 60}]
    # A: 4 s over 10 + 20 decisions; B: 4 s over 10 + 10 + 20; C: 4 s over 20
    assert stats.thinking_seconds(old, ["A", "B", "C"]) == pytest.approx({"A": 4 / 30, "B": 4 / 40, "C": 4 / 20})


def test_a_team_win_is_a_win_for_each_member_and_team_mates_do_not_meet():
    """HUI-29 teams 2x2 (seats 0+2 against 1+3): the schedule partners strong and greedy in a third
    of the games; their team's first place is a win for both, not a draw, and they meet head to
    head only in the games where they are opponents."""
    result = evaluate.evaluate("hase_und_igel", 4, ["strong", "random", "greedy", "random"], games=4, seed=1,
                               options={"teams": "2x2"}, progress=False)
    records = result["records"]
    assert len(records) == 12  # one cycle: 3 partnerings at 4 rotations
    assert all(record["teams"] == [0, 1, 0, 1] for record in records)
    together = [r for r in records if (r["agents"].index("strong") - r["agents"].index("greedy")) % 2 == 0]
    assert len(together) == 4
    per = result["per_agent"]
    finished = [r for r in records if not r["truncated"]]
    for agent in ("strong", "greedy"):
        team_won = sum(1 for r in finished if r["rewards"][r["agents"].index(agent)] == 1.0)
        assert per[agent]["wins"] == team_won > 0
        assert per[agent]["draws"] == len(records) - len(finished)
    assert result["head_to_head"]["strong|greedy"]["meetings"] == len(records) - len(together)


@pytest.mark.parametrize("game, players, agent, message", [
    ("haste_bock", 4, "policy:agents/trained/haste_bock_2p.pt", "trained for 2 players; this game has 4"),
    ("haste_bock", 3, "lookahead:agents/trained/haste_bock_2p_scratch.pt:prior=none", "fitted for 2 players"),
    ("hase_und_igel", 3, "lookahead:agents/trained/hase_und_igel_2p_scratch.pt:prior=none", "is for 2 players"),
])
def test_an_agent_file_of_another_player_count_is_a_one_line_error_before_any_game(game, players, agent, message,
                                                                                  capsys):
    from meadowzoo.training import play

    lineup = ",".join([agent] + ["greedy"] * (players - 1))
    for main in (evaluate.main, play.main):
        with pytest.raises(SystemExit) as stopped:
            main(["--game", game, "--players", str(players), "--agents", lineup, "--seed", "0"])
        err = capsys.readouterr().err
        assert stopped.value.code == 2 and message in err and "Traceback" not in err


def test_team_cycles_take_the_fewest_partnerings_that_balance_partners():
    # six players in three pairs: a round robin of 5 pairings (every two agents paired once)
    # instead of all 15; no fewer can pair 15 pairs equally, as each pairing holds 3 of them
    assert len(tournament.partnerings(6, 2)) == 15
    assert len(tournament.balanced_partnerings(6, 2)) == 5
    # two teams of three: every one of the 10 splits is needed (no 5 splits balance the pairs)
    assert tournament.balanced_partnerings(6, 3) == tournament.partnerings(6, 3)
    assert tournament.balanced_partnerings(4, 2) == tournament.partnerings(4, 2)
    for chosen in combinations(tournament.partnerings(6, 3), 5):
        together = Counter(p for split in chosen for team in split for p in combinations(team, 2))
        assert len(set(together.values())) > 1 or len(together) < 15
