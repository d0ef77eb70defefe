"""The conformance suite: what every registered game must do, for every player count of its
plug-in (``meadowzoo.envs.plugin(name).player_counts``) and the variants of its
``tests/<game>/conformance.py`` — PettingZoo's api/seed/render tests, pickling, random games with
invariants, seeds, snapshots and clones, bad input (actions, snapshots, options), rendering, the
registry and the game contract of :mod:`meadowzoo.envs.core.game`. Rule tests stay per game."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pettingzoo
import pytest

from meadowzoo.envs import env_id, game_module
from meadowzoo.envs.core import testkit
from meadowzoo.envs.core.aec import SNAPSHOT_VERSION
from meadowzoo.envs.core.game import Game, IllegalActionError
from meadowzoo.envs.core.rewards import rank_rewards
from tests.core.cases import CASES, GAME_IDS, hooks, max_turns, raw, wrapped

V1_SNAPSHOTS = Path(__file__).resolve().parents[1] / "golden" / "snapshots_v1"


# ---- PettingZoo's own tests -------------------------------------------------------------------------
@pytest.mark.parametrize("game, options", CASES)
def test_pettingzoo_api_seed_render_and_pickle(game, options):
    testkit.check_pettingzoo_api(raw(game, options), wrapped(game, options), cycles=200)


@pytest.mark.parametrize("game", GAME_IDS)
def test_registered_with_pettingzoo(game):
    n = max(hooks_counts(game))
    env = pettingzoo.make("aec", env_id(game), num_players=n)
    env.reset(seed=1)
    assert env.unwrapped.metadata["name"] == f"{game}_v0"
    assert env.possible_agents == [f"player_{i}" for i in range(n)]
    assert env_id(game) == f"meadowzoo/{game}-v0"


def hooks_counts(game: str) -> tuple[int, ...]:
    from meadowzoo.envs import plugin

    return plugin(game).player_counts


# ---- random games -------------------------------------------------------------------------------------
@pytest.mark.parametrize("game, options", CASES)
def test_random_games_keep_the_invariants_and_reward_by_rank(game, options):
    """Whole games with the shared checks at every step (testkit.play_random_games: masks equal
    legal_actions, observations in their spaces, every game ends or truncates, rewards sum to 0),
    the game's own invariants, and final rewards equal to rank_rewards of the game's places."""
    h = hooks(game)

    def invariant(env):
        h.invariant(env)
        g = env.game
        if g.is_over:
            expected = rank_rewards(g.places(), g.teams())
            assert [env._cumulative_rewards[a] for a in env.possible_agents] == pytest.approx(expected)
            assert g.pending == len(g.DECISIONS) - 1 and g.legal_actions() == [] and g.current_agent == -1

    stats = testkit.play_random_games(raw(game, options, **max_turns(h.RANDOM_MAX_TURNS)), h.RANDOM_GAMES,
                                      seed=len(str(options)), invariant=invariant, policy=h.policy)
    assert stats.games == h.RANDOM_GAMES
    if h.ALWAYS_ENDS:
        assert stats.terminated == h.RANDOM_GAMES, "a game that always ends by its rules was truncated"
    else:
        assert stats.terminated > 0, "no random game ever ended"


@pytest.mark.parametrize("game, options", CASES)
def test_agent_iter_last_loop(game, options):
    """The loop users write: agent_iter, last(), step(None) for the finished agents."""
    env = raw(game, options)()
    rng = np.random.default_rng(7)
    policy = hooks(game).policy
    for seed in range(2):
        env.reset(seed=seed)
        finished = set()
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            assert np.array_equal(observation["observation"], env.observe(agent)["observation"])
            if termination or truncation:
                finished.add(agent)
                env.step(None)
                continue
            assert np.flatnonzero(observation["action_mask"]).tolist() == env.legal_actions()
            env.step(policy(env, rng))
        assert finished == set(env.possible_agents) and env.agents == []


# ---- seeds ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game, options", CASES)
def test_same_seed_same_game_other_seed_other_game(game, options):
    a, b = raw(game, options)(), raw(game, options)()
    trace = testkit.playthrough(lambda: a, seed=9, max_steps=120)
    assert trace == testkit.playthrough(lambda: b, seed=9, max_steps=120)
    assert trace == testkit.playthrough(lambda: a, seed=9, max_steps=120), "a reset does not start afresh"
    assert trace != testkit.playthrough(lambda: a, seed=10, max_steps=120)


# ---- snapshots and clones ----------------------------------------------------------------------------------
@pytest.mark.parametrize("game, options", CASES)
def test_snapshot_restore_at_every_step(game, options):
    h = hooks(game)
    checked = testkit.check_snapshots(raw(game, options, **max_turns(h.SNAPSHOT_MAX_TURNS)), games=h.SNAPSHOT_GAMES,
                                      seed=5, policy=h.policy)
    assert checked > 100


@pytest.mark.parametrize("game, options", CASES)
def test_clone_is_identical_and_independent(game, options):
    testkit.check_clone(raw(game, options), seed=3, steps=25)
    env = raw(game, options)()
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(12):
        env.step(hooks(game).policy(env, rng))
    before, seen = env.snapshot(), testkit._observations(env)
    twin = env.clone()
    assert testkit._observations(twin) == seen
    game_twin = env.game.clone()  # the rules' own clone: independent too
    game_twin.apply(game_twin.legal_actions()[0])
    while not (twin.terminations[twin.agent_selection] or twin.truncations[twin.agent_selection]):
        twin.step(hooks(game).policy(twin, rng))
    assert env.snapshot() == before and testkit._observations(env) == seen


@pytest.mark.parametrize("game", GAME_IDS)
def test_version_1_snapshots_still_load(game):
    """Snapshots written by format 1 (before the contract renamed fields) restore to the same
    state: the same observations as the format-1 code gave, and a format-2 snapshot."""
    stored = json.loads((V1_SNAPSHOTS / f"{game}.json").read_text())
    env = game_module(game).raw_env(**stored["snapshot"]["options"])
    env.restore(stored["snapshot"])
    for agent, observation in stored["observations"].items():
        assert env.observe(agent)["observation"].tolist() == observation
        assert env.observe(agent)["action_mask"].tolist() == stored["masks"][agent]
    snapshot = env.snapshot()
    assert snapshot["version"] == SNAPSHOT_VERSION
    assert isinstance(snapshot["game"]["pending"], str) and isinstance(snapshot["game"]["turn"], int)


# ---- bad input ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAME_IDS)
def test_illegal_masked_out_of_range_and_malformed_actions_raise_and_change_nothing(game):
    env = raw(game, {})()
    env.reset(seed=0)
    before = env.snapshot()
    legal = env.legal_actions()
    illegal = next(a for a in range(env.num_actions) if a not in legal)
    assert env.action_mask()[illegal] == 0  # masked
    named = re.escape(f"{legal[0]} ({env.action_to_string(legal[0])})")
    with pytest.raises(ValueError, match=rf"illegal action {illegal} \({re.escape(env.action_to_string(illegal))}\)"
                                         rf" for {env.agent_selection}; legal actions: \[{named}"):
        env.step(illegal)
    for bad in (-1, env.num_actions, 10**9):
        with pytest.raises(ValueError, match="out of range"):
            env.step(bad)
    for bad in ("1", 1.5, None, True, [legal[0]]):
        with pytest.raises(ValueError, match="integer"):
            env.step(bad)
    assert env.snapshot() == before
    env.step(np.int64(legal[0]))  # numpy integers are integers
    # the rules alone: IllegalActionError (a ValueError), nothing changed
    rules = env.game.clone()
    state = rules.to_dict()
    with pytest.raises(IllegalActionError):
        rules.apply(next(a for a in range(env.num_actions) if a not in rules.legal_actions()))
    assert rules.to_dict() == state


@pytest.mark.parametrize("game", GAME_IDS)
def test_wrapped_env_illegal_move_terminates_with_minus_one(game):
    env = wrapped(game, {})()
    env.reset(seed=0)
    mover = env.agent_selection
    mask = env.observe(mover)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[mover] == -1


def _set(path, value):
    def corrupt(snapshot):
        target = snapshot
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return corrupt


GENERIC_CORRUPTIONS = {
    "format": _set(("format",), "pettingzoo"),
    "version": _set(("version",), 99),
    "env": _set(("env",), "connect_four_v3"),
    "options": _set(("options",), {"num_players": -3}),
    "max_turns": _set(("max_turns",), 0),
    "agents": _set(("agents",), ["nobody"]),
    "cumulative_rewards": _set(("cumulative_rewards",), {"player_0": "lots"}),
    "last_action": _set(("last_action",), ["player_0", -4]),
    "game": _set(("game",), None),
}


@pytest.mark.parametrize("game", GAME_IDS)
def test_bad_snapshots_name_the_field_and_change_nothing(game):
    testkit.check_bad_snapshots(lambda: raw(game, {"num_players": 4})(), GENERIC_CORRUPTIONS)
    for path, value, words in hooks(game).CORRUPTIONS:  # one by one: several corruptions share words
        testkit.check_bad_snapshots(lambda: raw(game, {"num_players": 4})(), {words: _set(path, value)})
    env = raw(game, {})()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="snapshot must be a dict"):
        env.restore("not a snapshot")


@pytest.mark.parametrize("game", GAME_IDS)
def test_bad_options_raise_value_error(game):
    for options in hooks(game).BAD_OPTIONS:
        with pytest.raises(ValueError):
            raw(game, {})(**options)
    for bad in ({"render_mode": "video"}, {"max_turns": 0}):
        with pytest.raises(ValueError):
            raw(game, {})(**bad)


# ---- text and rendering -----------------------------------------------------------------------------------
@pytest.mark.parametrize("game, options", CASES)
def test_every_action_index_has_a_unique_name_that_round_trips(game, options):
    env = raw(game, options)()
    env.reset(seed=0)
    names = [env.action_to_string(a) for a in range(env.num_actions)]
    assert len(set(names)) == env.num_actions
    for a, name in enumerate(names):
        assert env.string_to_action(name) == a
        assert env.string_to_action("  " + name.upper().replace(" ", "   ") + " ") == a  # case and spacing forgiven
        assert env.string_to_action(str(a)) == a
    for bad in ("fly to the moon", str(env.num_actions)):
        with pytest.raises(ValueError):
            env.string_to_action(bad)
    with pytest.raises(ValueError):
        env.action_to_string(env.num_actions)


@pytest.mark.parametrize("game", GAME_IDS)
def test_rendering(game, capsys):
    picture = raw(game, {})(render_mode="rgb_array")
    with pytest.raises(RuntimeError):
        picture.render()  # before reset
    picture.reset(seed=0)
    frame = picture.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    assert frame.shape[0] > 200 and frame.shape[1] > 200
    assert len(np.unique(frame.reshape(-1, 3), axis=0)) > 8, "a picture, not a blob"
    text = raw(game, {})(render_mode="ansi")
    text.reset(seed=0)
    board = text.render()
    assert isinstance(board, str) and len(board.splitlines()) > 3
    human = raw(game, {})(render_mode="human")
    human.reset(seed=0)  # prints the text board
    human.step(human.legal_actions()[0])  # and again after every step
    assert capsys.readouterr().out.count("player_0") >= 2
    quiet = raw(game, {})()
    quiet.reset(seed=0)
    assert quiet.render() is None  # no render mode: a warning, no picture


# ---- the game contract (envs/core/game.py) --------------------------------------------------------------
@pytest.mark.parametrize("game, options", CASES)
def test_game_contract(game, options):
    env = raw(game, options)()
    cls = env.game_class
    title = cls.__name__.removesuffix("Game")
    assert issubclass(cls, Game) and cls.__name__ == f"{title}Game" and type(env).__name__ == f"{title}Env"
    assert cls.DECISIONS[-1] == "over"
    env.reset(seed=2)
    rules = env.game
    n = len(env.possible_agents)
    # the same construction everywhere: Game(num_players, *, rng, **options), at its first decision
    fresh = cls(rng=np.random.default_rng(2), **env._game_options())
    assert fresh.num_agents == n and not fresh.is_over and fresh.legal_actions() and fresh.turn >= 0
    rng = np.random.default_rng(2)
    decisions, last_turn = 0, rules.turn
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]) and decisions < 400:
        legal = rules.legal_actions()
        assert legal == sorted(set(legal)) and legal == env.legal_actions()
        legal.append(-99)  # a new list at every call: changing one changes nothing
        env.legal_actions().append(-99)
        assert -99 not in rules.legal_actions() and -99 not in env.legal_actions()
        assert 0 <= rules.pending < len(cls.DECISIONS) - 1 and rules.current_agent == env._agent_index[env.agent_selection]
        scores = rules.scores()
        assert scores is None or (len(scores) == n and scores is not rules.scores())
        state = rules.to_dict()
        assert state["pending"] == cls.DECISIONS[rules.pending] and state["turn"] == rules.turn
        env.step(hooks(game).policy(env, rng))
        decisions += 1
        assert rules.turn >= last_turn, "turn counts the turns begun: it never goes back"
        last_turn = rules.turn
    if rules.is_over:
        assert rules.current_agent == -1 and rules.pending == len(cls.DECISIONS) - 1
        assert len(rules.places()) == n and len(rules.teams()) == n


# ---- lifecycle misuse (issue #16): a clear error naming what to call first ------------------------------
@pytest.mark.parametrize("game", GAME_IDS)
def test_methods_before_reset_say_call_reset_first(game):
    """Case: observe, last, legal_actions before reset() raised AttributeError."""
    env = raw(game, {})()
    calls = {"observe": lambda: env.observe("player_0"), "last": env.last, "legal_actions": env.legal_actions,
             "action_mask": env.action_mask, "step": lambda: env.step(0), "snapshot": env.snapshot}
    for name, call in calls.items():
        with pytest.raises(RuntimeError, match=rf"call reset\(\) before {name}\(\)"):
            call()


@pytest.mark.parametrize("game", GAME_IDS)
def test_step_and_last_once_every_agent_has_left_say_call_reset(game):
    """Case: step/last once every agent has left raised KeyError."""
    env = raw(game, {"num_players": 2})()
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for agent in env.agent_iter():
        _, _, termination, truncation, _ = env.last()
        env.step(None if termination or truncation else hooks(game).policy(env, rng))
    assert env.agents == []
    for name, call in (("step", lambda: env.step(0)), ("last", env.last)):
        with pytest.raises(RuntimeError, match=rf"every agent has left .*call reset\(\) before {name}\(\)"):
            call()
    env.reset(seed=2)  # and reset() starts afresh
    assert env.agents == env.possible_agents


@pytest.mark.parametrize("game", GAME_IDS)
def test_malformed_actions_in_the_wrapped_env_raise_value_error(game):
    """Case: env().step(True) raised "truth value of an array is ambiguous"; 1.5 an AssertionError."""
    env = wrapped(game, {})()
    env.reset(seed=0)
    for bad in (True, False, np.bool_(True), 1.5, 2.0, "1", [1]):
        with pytest.raises(ValueError, match="action must be an integer"):
            env.step(bad)
    assert not any(env.terminations.values())  # refused, not played as an illegal move
    env.step(np.int32(env.unwrapped.legal_actions()[0]))  # numpy integers are integers


@pytest.mark.parametrize("game", GAME_IDS)
def test_action_text_takes_only_integers_and_ascii_digits(game):
    """Cases: string_to_action('٣') returned 3; action_to_string(3.9) was accepted."""
    env = raw(game, {})()
    env.reset(seed=0)
    for text in ("٣", "３", "³", "3\u0663"):  # Arabic-Indic, full-width, superscript digits
        with pytest.raises(ValueError, match="unknown action"):
            env.string_to_action(text)
    for text in (3, None, b"3"):
        with pytest.raises(ValueError, match="string"):
            env.string_to_action(text)
    assert env.string_to_action("3") == 3 and env.string_to_action(" 3 ") == 3
    for bad in (3.9, 3.0, True, "3", None):
        with pytest.raises(ValueError, match="action must be an integer"):
            env.action_to_string(bad)
    assert env.action_to_string(np.int64(3)) == env.action_to_string(3)
