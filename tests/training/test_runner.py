"""The one game runner (training/runner.py): set-up, seeding, the decision loop and its hooks."""

import numpy as np
import pytest

from meadowzoo.training import runner, tournament


def test_seat_seeds_are_stable_distinct_and_follow_the_game_seed():
    seeds = runner.seat_seeds(5, 3)
    assert seeds == runner.seat_seeds(5, 3) and len(set(seeds)) == 3
    assert runner.seat_seeds(5, 4)[:3] == seeds  # one more seat draws one more stream
    assert runner.seat_seeds(6, 3) != seeds
    assert runner.play_seeds(2, 3) == [2000, 2001, 2002]
    assert runner.imitation_seeds(3, 2) == [48, 49]


def test_pinned_tournament_games():
    """Same master seed, same games: the seeding scheme and the loop may not drift (these numbers
    were recorded before the five loops became one runner)."""
    tasks = tournament.make_tasks("volle_wolle", tournament.schedule(["strong", "greedy"], 2, 2), 0,
                                  {"num_players": 2})
    records = [tournament.play_task(task) for task in tasks]
    assert [(r["seed"], r["rewards"], r["scores"], r["decisions"]) for r in records] == [
        (7896617691693857887, [1.0, -1.0], [151.0, 34.0], 121),
        (2918264622725855778, [-1.0, 1.0], [53.0, 127.0], 117),
    ]


def test_start_seeds_env_and_agents_and_checks_the_seats():
    env, players = runner.start("haste_bock", ["random"], seed=3, options={"num_players": 3})
    assert list(players) == env.possible_agents and len(set(map(id, players.values()))) == 3
    twin, twins = runner.start("haste_bock", ["random"] * 3, seed=3, options={"num_players": 3})
    assert env.snapshot() == twin.snapshot()
    assert [p.rng.integers(2**31) for p in players.values()] == [p.rng.integers(2**31) for p in twins.values()]
    with pytest.raises(ValueError, match="3 seats, got 2 agents"):
        runner.start("haste_bock", ["random", "greedy"], seed=3, options={"num_players": 3})
    shown, _ = runner.start("volle_wolle", ["random"], seed=1, options={"num_players": 2}, render_mode="ansi")
    assert isinstance(shown.render(), str)


def test_advance_hooks_see_every_decision_and_stop_where_asked():
    env, players = runner.start("volle_wolle", ["random"], seed=2, options={"num_players": 3})
    seen, done = [], []

    def before(agent):
        assert agent == env.agent_selection
        seen.append((agent, list(env.legal_actions())))

    taken = runner.advance(env, players, until="player_0", before=before, after=lambda a, x: done.append((a, x)))
    assert env.agent_selection == "player_0" and taken == len(done) == len(seen)  # player_0 moves first
    assert taken == 0
    thinking = dict.fromkeys(env.possible_agents, 0.0)
    taken = runner.advance(env, players, before=before, after=lambda a, x: done.append((a, x)), thinking=thinking)
    assert taken == len(done) == len(seen) > 0
    assert all(action in legal for (agent, legal), (mover, action) in zip(seen, done)) and \
        [a for a, _ in seen] == [a for a, _ in done]
    assert all(env.terminations.values()) or all(env.truncations.values())
    assert all(t > 0 for t in thinking.values())
    assert runner.advance(env, players) == 0  # an ended game takes no decision


def test_advance_is_the_self_play_opponents_loop():
    """The self-play view plays its opponents with ``advance(until=learner)``: after reset and every
    step it is the learner's decision or the game is over."""
    from meadowzoo.training.selfplay import SelfPlayEnv

    view = SelfPlayEnv("haste_bock", opponents="random", num_players=3)
    _, info = view.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(200):
        assert view.raw.agent_selection == view.learner
        _, _, terminated, truncated, _ = view.step(int(rng.choice(np.flatnonzero(view.action_masks()))))
        if terminated or truncated:
            break
    assert terminated or truncated


def test_final_scores():
    class Scored:
        def scores(self):
            return [2, 5]

    class Race:  # a game ranked without points (the contract's scores() is None)
        def scores(self):
            return None

    assert runner.final_scores(Scored()) == [2.0, 5.0]
    assert runner.final_scores(Race()) is None
