"""The terminal player: what it shows, what it accepts, how it re-asks and how it quits."""

import io

import pytest

from meadowzoo.agents import make_agent
from meadowzoo.agents.human import HumanAgent, HumanQuit
from tests.agents.helpers import new_env


def ask(env, typed: str) -> tuple[int, str]:
    out = io.StringIO()
    action = HumanAgent(input_stream=io.StringIO(typed), output_stream=out).act(env, env.agent_selection)
    return action, out.getvalue()


@pytest.mark.parametrize("game", ["hase_und_igel", "haste_bock", "volle_wolle"])
def test_shows_board_and_numbered_legal_actions(game):
    env = new_env(game)
    legal = env.legal_actions()
    action, shown = ask(env, "0\n")
    assert action == legal[0]
    assert env._render_ansi() in shown
    for i, a in enumerate(legal):
        assert f"  {i}: {env.action_to_string(a)}" in shown


def test_accepts_an_action_name_in_any_case_and_spacing():
    env = new_env("haste_bock")
    target = env.legal_actions()[-1]
    typed = "  " + env.action_to_string(target).upper().replace(" ", "   ") + "\n"
    assert ask(env, typed)[0] == target


def test_reasks_after_bad_input_until_a_legal_answer():
    env = new_env("haste_bock")
    legal = env.legal_actions()
    illegal = next(a for a in range(env.num_actions) if a not in legal)
    typed = f"\nfoo bar\n{len(legal)}\n{env.action_to_string(illegal)}\n-1\n1\n"
    action, shown = ask(env, typed)
    assert action == legal[1]
    assert "please type something" in shown
    assert "unknown action 'foo bar'" in shown
    assert f"{len(legal)} is not on the list" in shown
    assert "is not legal now" in shown
    assert "unknown action '-1'" in shown
    assert shown.count("choose a number") == 6


@pytest.mark.parametrize("typed", ["quit\n", "Q\n", "exit\n", "", "foo\n"])
def test_quit_and_end_of_input_stop_cleanly(typed):
    env = new_env("volle_wolle")
    with pytest.raises(HumanQuit):
        ask(env, typed)
    assert issubclass(HumanQuit, SystemExit)


def test_registry_builds_a_human():
    assert isinstance(make_agent("human", "volle_wolle"), HumanAgent)


def test_play_command_with_a_human_seat(monkeypatch, capsys):
    from meadowzoo.training import play

    monkeypatch.setattr("sys.stdin", io.StringIO("0\n" * 500))
    result = play.play_game("haste_bock", ["human", "random"], seed=1, show="end", num_players=2)
    assert sorted(result.values()) == [-1.0, 1.0] or set(result.values()) == {0.0}
    assert "your move" in capsys.readouterr().out


def test_play_command_quits_cleanly(monkeypatch, capsys):
    from meadowzoo.training import play

    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    play.main(["--game", "volle_wolle", "--players", "2", "--agents", "human,random"])
    assert "game stopped" in capsys.readouterr().out


def test_play_command_exits_1_when_the_input_ends_before_the_game(monkeypatch, capsys):
    from meadowzoo.training import play

    monkeypatch.setattr("sys.stdin", io.StringIO("0\n"))
    with pytest.raises(SystemExit) as stopped:
        play.main(["--game", "volle_wolle", "--players", "2", "--agents", "human,random"])
    assert stopped.value.code == 1
    assert "game stopped: input ended" in capsys.readouterr().out
