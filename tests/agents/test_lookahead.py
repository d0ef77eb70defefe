"""The Haste Bock? afterstate encoding, its recorded games and the lookahead player."""

from __future__ import annotations

import numpy as np
import pytest

from meadowzoo.agents import make_agent
from meadowzoo.envs.haste_bock.afterstate import (
    INPUT_SIZE, RECORD_SIZE, ROTATE, dense, next_card_seat, record, slot_colours,
)
from meadowzoo.agents.heuristics.haste_bock_lookahead import AfterstateValue, LookaheadAgent, ended_worth, exact_worth
from meadowzoo.agents.shipped import file_sha256
from meadowzoo.envs.haste_bock.rules import HasteBockGame
from tests.agents.helpers import new_env, play
from meadowzoo.training.afterstate_data import generate, lineup_for
from meadowzoo.training.fit_afterstate_value import fit, save_value

BOARD = """
. . . . . . . . .
. . . . . . . . .
. . . B . . . . .
. . . Y T G . . .
. . . R B Y . . .
. . . . G R . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


def rotated_board(board: str, quarter_turns_cw: int) -> str:
    grid = [line.split() for line in board.strip().splitlines()]
    for _ in range(quarter_turns_cw):
        grid = [list(row) for row in zip(*grid[::-1])]
    return "\n".join(" ".join(row) for row in grid)


@pytest.fixture(scope="module")
def value_file(tmp_path_factory):
    """A value net fitted for one epoch on a few recorded games (enough to exercise the player)."""
    records, beats, gains, _ = generate(6, 3, [("strong", "strong", "greedy", "random")])
    net, _ = fit(records, beats, gains, 4, [16], epochs=1, batch_size=64, lr=1e-3, holdout=0.2, seed=0,
                 log=lambda *_: None)
    return save_value(net, tmp_path_factory.mktemp("value") / "value.pt", 4, [16], {"test": True})


def test_rotation_tables_are_quarter_turns_that_bring_the_faced_edge_north():
    """HB-21: rows count from the edge the flock faces (HB-17); the encoding turns that edge north."""
    for facing in range(4):
        assert sorted(ROTATE[facing]) == list(range(81))
    # facing E: the east column (c = 8) becomes the north row
    assert {ROTATE[1][r * 9 + 8] for r in range(9)} == set(range(9))
    assert {ROTATE[2][8 * 9 + c] for c in range(9)} == set(range(9))  # facing S: south row -> north
    assert {ROTATE[3][r * 9] for r in range(9)} == set(range(9))  # facing W: west column -> north


def test_a_position_turned_with_its_facing_encodes_the_same():
    """The rules are symmetric under quarter turns (HB-10 moves in 8 directions, HB-16/17 act
    relative to the flock): the same position seen facing E, turned a quarter, is facing N."""
    north = HasteBockGame.from_position(BOARD, facing="N", time=20)
    # turning the board a quarter clockwise moves the north edge to the east
    east = HasteBockGame.from_position(rotated_board(BOARD, 1), facing="E", time=20)
    for viewer in range(4):
        a = record(north.pos, north.facing, 20, north.points, north.hands, north.tiles, 1, viewer)
        b = record(east.pos, east.facing, 20, east.points, east.hands, east.tiles, 1, viewer)
        assert np.array_equal(a, b)
    # and the row scoring agrees (HB-21): the same points per colour (a colour's sheep are alike)
    def per_colour(points):
        return [sorted(points[2 * c:2 * c + 2]) for c in range(4)] + [points[8]]

    assert per_colour(north.row_points(2)) == per_colour(east.row_points(2))
    assert per_colour(north.row_points(4)) == per_colour(east.row_points(4))


def test_record_is_seen_from_the_viewer():
    game = HasteBockGame.from_position(BOARD, time=5)
    game.points = [3, 1, 4, 1]
    rec = record(game.pos, game.facing, 5, game.points, game.hands, game.tiles, 2, viewer=2)
    assert rec.shape == (RECORD_SIZE,)
    assert list(rec[10:14]) == [4, 1, 3, 1]  # slots: seats 2, 3, 0, 1
    assert rec[-1] == 0  # seat 2 moves next: the viewer's own slot
    x = dense(rec[None], 4)
    assert x.shape == (1, INPUT_SIZE)
    assert x[0, : 5 * 81].sum() == 9  # every sheep on one square
    assert x[0, 5 * 81 + 5] == 1.0 and x[0, 5 * 81: 5 * 81 + 75].sum() == 1  # time one-hot


def test_neutral_colours_fill_the_last_slots():
    """HB-2: with 2 players green and red are neutral; they come after the players' slots."""
    assert slot_colours(2, 1) == [1, 0, 2, 3]
    assert slot_colours(4, 3) == [3, 0, 1, 2]


def test_next_card_seat_skips_empty_hands_and_starts_with_seat_0():
    hands = [[1] + [0] * 20, [0] * 21, [1] + [0] * 20]
    assert next_card_seat(hands, 0, 2) == 0  # before the first turn (HB-8 rams) the start player
    assert next_card_seat(hands, 10, 0) == 2
    assert next_card_seat([[0] * 21] * 3, 10, 0) == -1


def test_exact_worth_uses_scores_then_unused_card_values():
    """HB-24: highest score wins; ties go to the higher sum of unused card numbers; then shared."""
    empty = [0] * 21
    three = [0] * 21
    three[2] = 1  # one step card of value 3
    game = HasteBockGame.from_position(BOARD)

    def worth(scores, hands, viewer):
        game.points, game.hands = scores, hands
        return exact_worth(game, viewer)

    assert worth([5, 5, 2, 9], [empty, empty, empty, empty], 0) == 0.5 + 1.0
    assert worth([5, 5, 2, 9], [three, empty, empty, empty], 0) == 2.0
    assert worth([9, 5, 2, 9], [empty, empty, empty, empty], 3) == 2.5


def test_recorded_outcomes_are_consistent_and_reproducible():
    pool = [("strong", "strong", "greedy", "random")]
    one = generate(4, 5, pool, workers=1, chunk=1)
    two = generate(4, 5, pool, workers=2, chunk=2)
    for a, b in zip(one, two):
        assert np.array_equal(a, b)
    records, beats, gains, episodes = one
    assert len(records) > 100
    assert np.all(beats[:, 0] == 0.5)
    assert np.all(np.isin(beats, [0.0, 0.5, 1.0]))
    assert np.all(gains >= 0)  # points are never lost with 4 players
    # game 0 seats: strong, strong, greedy, random; the viewers are the two strong seats
    assert lineup_for(0, pool, "strong").viewers == (0, 1)
    assert lineup_for(1, pool, "strong").specs == ("strong", "greedy", "random", "strong")


def test_generate_refuses_a_lineup_without_the_viewer():
    with pytest.raises(ValueError, match="no 'strong' seat"):
        generate(1, 0, [("greedy", "greedy", "random", "random")])


def test_value_file_round_trip_and_rejects_other_files(value_file, tmp_path):
    import torch

    value = AfterstateValue.from_file(value_file)
    game = HasteBockGame.from_position(BOARD, time=30)
    recs = np.stack([record(game.pos, game.facing, 30, game.points, game.hands, game.tiles, 1, v) for v in range(4)])
    beats = value.beats(recs)
    assert beats.shape == (4, 4) and np.all((beats > 0) & (beats < 1))
    assert np.allclose(value.worth(recs), beats[:, 1:].sum(axis=1))
    other = tmp_path / "other.pt"
    torch.save({"format": "something-else"}, other)
    with pytest.raises(ValueError, match="not a meadowzoo afterstate value file"):
        AfterstateValue.from_file(other)


def test_lookahead_plays_legal_reproducible_games(value_file):
    runs = []
    for _ in range(2):
        env = new_env("haste_bock", players=4, seed=9, max_turns=40)
        players = [make_agent(f"lookahead:{value_file}", "haste_bock", seed=1)]
        players += [make_agent(s, "haste_bock", seed=i) for i, s in enumerate(("strong", "greedy", "random"))]
        runs.append(play(env, players))
    assert runs[0] == runs[1] and len(runs[0]) > 20


def test_lookahead_with_width_one_plays_like_strong(value_file):
    """Width 1 keeps only strong's favourite plan, so the choice is strong's (panic rams and time
    tiles aside, where the value ranks all options; none occur before the first panic space)."""
    game = HasteBockGame.from_position(BOARD, time=1)
    env = type("Env", (), {"game": game})()
    lookahead = LookaheadAgent(AfterstateValue.from_file(value_file), width=1, seed=0)
    strong = make_agent("strong", "haste_bock", seed=0)
    scored = strong.action_values(game, game.legal_actions())
    best = max(v for v, _ in scored)
    assert lookahead.act(env, "player_0") in [a for v, a in scored if v >= best - 1e-9]


def test_value_for_other_player_counts_and_malformed_files_are_refused(value_file, tmp_path):
    import torch

    env = new_env("haste_bock", players=2, seed=1)
    agent = make_agent(f"lookahead:{value_file}", "haste_bock")
    with pytest.raises(ValueError, match="fitted for 4 players; the game has 2"):
        agent.act(env, env.agent_selection)
    payload = torch.load(value_file, weights_only=True)
    del payload["state_dict"]["layers.0.bias"]
    broken = tmp_path / "broken.pt"
    torch.save(payload, broken)
    with pytest.raises(ValueError, match="malformed afterstate value file"):
        AfterstateValue.from_file(broken)


def test_lookahead_spec_errors_are_clear(value_file):
    with pytest.raises(ValueError, match="needs a value file"):
        make_agent("lookahead", "haste_bock")
    with pytest.raises(ValueError, match="is for .*haste_bock"):
        make_agent(f"lookahead:{value_file}", "volle_wolle")
    with pytest.raises(ValueError, match="unknown lookahead setting"):
        make_agent(f"lookahead:{value_file}:depth=3", "haste_bock")
    with pytest.raises(ValueError, match="width must be at least 1"):
        make_agent(f"lookahead:{value_file}:width=0", "haste_bock")
    with pytest.raises(ValueError, match="'prior' given twice"):  # one answer per question, as mcts:
        make_agent(f"lookahead:{value_file}:prior=none:prior=strong", "haste_bock")


@pytest.mark.parametrize("facing", ["N", "E", "S", "W"])
@pytest.mark.parametrize("seed", range(6))
def test_scoring_terms_match_the_rules_engine(facing, seed):
    """HB-19/20/21: the encoding's per-colour scoring terms equal what the engine would score,
    for random positions and every facing (the record turns the board; the points must not move)."""
    from meadowzoo.envs.haste_bock.afterstate import scoring_terms
    from meadowzoo.envs.haste_bock.geometry import ADJ

    rng = np.random.default_rng(seed)
    squares = rng.choice(81, size=9, replace=False)
    cells = ["."] * 81
    for sheep, sq in enumerate(squares):
        cells[sq] = "BYGRT"[min(sheep // 2, 4)]
    board = "\n".join(" ".join(cells[r * 9:r * 9 + 9]) for r in range(9))
    game = HasteBockGame.from_position(board, facing=facing, time=30)
    rec = record(game.pos, game.facing, 30, game.points, game.hands, game.tiles, 1, viewer=0)
    terms = scoring_terms(rec[None, :9])[0]
    p2, p4 = game.row_points(2), game.row_points(4)
    t = game.pos[8]
    for c in range(4):
        a, b = game.pos[2 * c], game.pos[2 * c + 1]
        assert terms[c, 0] * 8 == p2[2 * c] + p2[2 * c + 1]
        assert terms[c, 1] * 8 == p4[2 * c] + p4[2 * c + 1]
        assert terms[c, 2] * 2 == ADJ[a * 81 + b]
        assert terms[c, 3] * 4 == ADJ[t * 81 + a] + ADJ[t * 81 + b]


def test_td_lambda_targets_follow_each_episode():
    """λ-returns: λ = 1 gives the final outcome, λ = 0 the next sample's prediction; samples of two
    interleaved episodes never mix, and an episode's last sample keeps its outcome."""
    from meadowzoo.training.fit_afterstate_value import td_lambda_targets

    episodes = np.array([7, 9, 7, 9, 7])
    predicted = np.array([[0.5, 0.1, 0, 0], [0.5, 0.2, 0, 0], [0.5, 0.3, 0, 0], [0.5, 0.4, 0, 0],
                          [0.5, 0.5, 0, 0]], dtype=np.float32)
    outcomes = np.array([[0.5, 1, 0, 0]] * 5, dtype=np.float32)
    outcomes[[1, 3], 1] = 0.0  # episode 9 lost to slot 1, episode 7 won
    assert np.allclose(td_lambda_targets(predicted, outcomes, episodes, 1.0), outcomes)
    zero = td_lambda_targets(predicted, outcomes, episodes, 0.0)
    assert np.allclose(zero[:, 1], [0.3, 0.4, 0.5, 0.0, 1.0])
    half = td_lambda_targets(predicted, outcomes, episodes, 0.5)
    # episode 7: G4 = 1, G2 = .5 * .5 + .5 * 1 = .75, G0 = .5 * .3 + .5 * .75 = .525
    assert np.allclose(half[[4, 2, 0], 1], [1.0, 0.75, 0.525])
    assert np.allclose(half[[3, 1], 1], [0.0, 0.5 * 0.4 + 0.5 * 0.0])


def test_fit_command_is_reproducible_ships_and_plays(tmp_path):
    """The command line end to end: record games, fit (outcomes + one TD refit), write the value
    and its record; the same seeds give the same weights; meadowzoo.training.ship copies both; the results
    tables name the command; the shipped file plays as ``lookahead:<file>``."""
    import json

    import torch

    from meadowzoo.training.fit_afterstate_value import main as fit_main
    from meadowzoo.training.results import _training_lines
    from meadowzoo.training.ship import main as ship

    argv = ["--players", "4", "--games", "4", "--seed", "2", "--pool", "strong,strong,greedy,random",
            "--epochs", "1", "--hidden", "16", "--batch-size", "64", "--td-rounds", "1", "--td-epochs", "1",
            "--workers", "1"]
    fit_main(argv + ["--out", str(tmp_path / "a" / "value.pt")])
    fit_main(argv + ["--out", str(tmp_path / "b" / "value.pt")])
    a = torch.load(tmp_path / "a" / "value.pt", weights_only=True)
    b = torch.load(tmp_path / "b" / "value.pt", weights_only=True)
    assert a["state_dict"].keys() == b["state_dict"].keys()
    assert all(torch.equal(a["state_dict"][k], b["state_dict"][k]) for k in a["state_dict"])
    record = json.loads((tmp_path / "a" / "value.json").read_text())
    assert record["command"].startswith("python -m meadowzoo.training.fit_afterstate_value --players 4")
    assert record["games"] == 4 and record["samples"] > 100 and len(record["history"]) == 2

    ship([str(tmp_path / "a"), str(tmp_path / "shipped" / "hb4")])
    shipped = tmp_path / "shipped" / "hb4.pt"
    shipped_record = json.loads(shipped.with_suffix(".json").read_text())
    assert shipped_record.pop("sha256") == file_sha256(shipped)  # checked on every load
    assert shipped_record == record
    line = " ".join(_training_lines([f"lookahead:{shipped}"]))
    assert record["command"] in line and "4 recorded games" in line
    env = new_env("haste_bock", players=4, seed=4, max_turns=20)
    play(env, [make_agent(f"lookahead:{shipped}", "haste_bock", seed=0)] +
         [make_agent("strong", "haste_bock", seed=s) for s in range(3)])


def test_fit_refuses_a_lineup_of_the_wrong_size(capsys):
    from meadowzoo.training.fit_afterstate_value import parse_args

    with pytest.raises(SystemExit):
        parse_args(["--players", "4", "--pool", "strong,greedy", "--out", "x.pt"])
    assert "has 2 seats" in capsys.readouterr().err




@pytest.fixture(scope="module")
def value_file_3p(tmp_path_factory):
    """A 3-player value net (3 players: time tiles, HB-22), fitted for one epoch on a few games."""
    records, beats, gains, _ = generate(6, 4, [("strong", "strong", "greedy")])
    net, _ = fit(records, beats, gains, 3, [16], epochs=1, batch_size=64, lr=1e-3, holdout=0.2, seed=0,
                 log=lambda *_: None)
    return save_value(net, tmp_path_factory.mktemp("value3") / "value.pt", 3, [16], {"test": True})


@pytest.mark.parametrize("players", [3, 4])
def test_planned_afterstate_is_the_recorded_afterstate(players, value_file, value_file_3p):
    """The value is fitted on afterstates the recorder takes after real turns and used on
    afterstates the player builds for its plans: whenever the player's decision finishes its turn
    (a move with 4 players, a time tile with 3, a discard, a panic ram — also the opening rams at
    time 0) the record it built for the chosen option must equal the recorder's record of the game
    once the engine has played it (HB-9: card, move, marker, scoring; a panic roll moves no sheep);
    a plan that ends the game is valued exactly (HB-24, with 3 players after the HB-22 penalty)."""
    from meadowzoo.envs.haste_bock.afterstate import ends_a_turn, game_record
    from meadowzoo.envs.haste_bock.rules import MOVE, PANIC, TILE

    class Recording(LookaheadAgent):
        def _pick(self, options, game=None):
            action = super()._pick(options, game)
            self.planned = next((rec, exact) for _, a, rec, exact, _ in options if a == action)
            return action

    path = value_file if players == 4 else value_file_3p
    kinds: dict[int, int] = {}
    for seed in range(3):
        player = Recording(AfterstateValue.from_file(path), seed=seed)
        env = new_env("haste_bock", players=players, seed=20 + seed, max_turns=400)
        others = [make_agent(s, "haste_bock", seed=i) for i, s in enumerate(("strong", "random", "greedy"))]
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            game = env.game
            mover, pending = game.player, game.pending
            if mover != 0:
                env.step(others[mover - 1].act(env, env.agent_selection))
                continue
            player.planned = None
            env.step(player.act(env, env.agent_selection))
            game = env.game
            if player.planned is None or not ends_a_turn(pending, 0, game):
                continue
            rec, exact = player.planned
            if rec is None:  # the plan ended the game; the engine's final scores include HB-22
                assert game.is_over
                assert exact == exact_worth(game, 0)
            else:
                assert np.array_equal(rec, game_record(game, 0, 0))
            kinds[pending] = kinds.get(pending, 0) + 1
    assert kinds.get(PANIC, 0) >= 2 and kinds.get(TILE if players == 3 else MOVE, 0) >= 10, kinds


def test_exact_worth_with_three_players_counts_the_tile_penalty():
    """HB-22: with 3 players each unused time tile costs 2 points at the end (before HB-24 places)."""
    empty = [0] * 21
    hands = [empty, empty, empty]
    # 20 points with one tile left (18) is behind 19 points with none
    game = HasteBockGame.from_position(BOARD, num_players=3)
    assert game.rule_data["unused_tile_penalty"] == 2
    assert ended_worth(game, [20, 19, 5], hands, [[1, 0, 0], [0, 0, 0], [0, 0, 0]], 0) == 1.0
    assert ended_worth(game, [20, 19, 5], hands, [[0, 0, 0], [0, 0, 0], [0, 0, 0]], 0) == 2.0
    assert game.scores() == [0, 0, 0] and not game.is_over  # the end is played on a twin


def test_lookahead_reads_no_hidden_information(value_file):
    """Only future dice are hidden (HB 'Observation principle'): reseeding the game's die generator
    never changes the player's decision."""
    player = make_agent(f"lookahead:{value_file}", "haste_bock", seed=0)
    strong = make_agent("strong", "haste_bock", seed=1)
    env = new_env("haste_bock", players=4, seed=31, max_turns=400)
    checked = 0
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        if env.game.player == 0:
            actions = set()
            for die_seed in (1, 2, 3):
                twin = env.clone()
                twin.game.rng = np.random.default_rng(die_seed)
                actions.add(player.act(twin, twin.agent_selection))
            assert len(actions) == 1
            checked += 1
            env.step(actions.pop())
        else:
            env.step(strong.act(env, env.agent_selection))
    assert checked >= 20


def test_lookahead_refuses_other_rules(value_file):
    env = new_env("haste_bock", players=4, seed=1, phase2_rows="consecutive")
    with pytest.raises(ValueError, match="default rules"):
        make_agent(f"lookahead:{value_file}", "haste_bock").act(env, env.agent_selection)


def test_a_file_that_is_not_a_value_file_is_refused(tmp_path):
    text = tmp_path / "notes.pt"
    text.write_text("not a torch file")
    with pytest.raises(ValueError, match="not a meadowzoo afterstate value file"):
        AfterstateValue.from_file(text)


@pytest.mark.parametrize("flags, message", [
    (["--players", "5"], "--players must be one of 2, 3, 4"),
    (["--holdout", "1"], "--holdout must lie in"),
    (["--td-lambda", "3"], "--td-lambda must lie in"),
    (["--games", "0"], "--games must be at least 1"),
    (["--batch-size", "0"], "--batch-size must be at least 1"),
    (["--data", "games"], "must name a .npz file"),
])
def test_fit_arguments_are_checked(flags, message, capsys):
    from meadowzoo.training.fit_afterstate_value import parse_args

    with pytest.raises(SystemExit):
        parse_args(flags + ["--out", "x.pt"])
    assert message in capsys.readouterr().err


def test_fit_refuses_a_training_set_smaller_than_a_batch():
    records, beats, gains, _ = generate(1, 0, [("strong", "strong", "greedy", "random")])
    with pytest.raises(ValueError, match="fewer than one batch"):
        fit(records, beats, gains, 4, [8], epochs=1, batch_size=len(records), lr=1e-3, holdout=0.5, seed=0)


def test_stored_games_are_reused_only_by_the_command_that_recorded_them(tmp_path):
    import json

    from meadowzoo.training.fit_afterstate_value import main as fit_main

    data = str(tmp_path / "games.npz")
    argv = ["--games", "2", "--seed", "1", "--epochs", "1", "--hidden", "8", "--batch-size", "32", "--workers", "1",
            "--data", data, "--out", str(tmp_path / "v.pt")]
    fit_main(argv)
    first = json.loads((tmp_path / "v.json").read_text())
    assert first["games"] == 2 and first["data_reused"] is False
    fit_main(argv)
    assert json.loads((tmp_path / "v.json").read_text())["data_reused"] is True
    with pytest.raises(SystemExit, match="was recorded with"):
        fit_main(["--games", "2", "--seed", "2"] + argv[4:])
