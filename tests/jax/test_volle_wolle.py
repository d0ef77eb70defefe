"""Volle Wolle JAX engine: identical to the PettingZoo env (differential harness on every player
count), hidden information, conversion both ways, jit + vmap, clear errors.

JAX compiles each player count's program once per test module (module-scoped engines; the
harness caches the jitted functions per engine object). The long run is ``test_harness_long``
(``-m slow``): 300 games per player count.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("pgx")

import jax.numpy as jnp  # noqa: E402

import meadowzoo.jax as mjax  # noqa: E402
from meadowzoo.envs.core import jax_harness  # noqa: E402
from meadowzoo.envs.core.jax_core import MeadowJaxEnv  # noqa: E402
from meadowzoo.envs.volle_wolle import env as pz_env  # noqa: E402
from meadowzoo.envs.volle_wolle.jax_engine import VolleWolleJax  # noqa: E402

PLAYER_COUNTS = (2, 3, 4, 5, 6)
#: the default suite's player counts (each costs a compile): two players (VW-13, the rest to the
#: other), three (the last takes the rest) and six (the largest shapes); every count in the slow run
QUICK_COUNTS = (2, 3, 6)


@pytest.fixture(scope="module")
def engines():
    """One engine per player count, shared by the module's tests (one compile each)."""
    return {n: mjax.make("volle_wolle", num_players=n) for n in PLAYER_COUNTS}


# ---- identity with the reference engine ----------------------------------------------------------
@pytest.mark.parametrize("n", QUICK_COUNTS)
def test_harness_every_decision_identical(engines, n):
    """VW-1..VW-17: mask, every player's observation, the state after each move, final scores,
    places and rewards equal the reference engine's, given the same chance."""
    figures = jax_harness.run_differential(engines[n], games=3, seed=100 + n)
    assert figures.games == 3
    assert figures.decisions > 3 * 60  # at least one decision per card
    assert figures.observations == figures.decisions * n


@pytest.mark.slow
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_harness_long(engines, n):
    figures = jax_harness.run_differential(engines[n], games=300, seed=10_000 + n)
    print(f"\n{n} players: {figures.games} games, {figures.decisions} decisions, "
          f"{figures.observations} observations compared in {figures.seconds:.0f} s")
    assert figures.games == 300


def test_harness_detects_a_difference(engines, monkeypatch):
    """The harness can fail: a reference engine fed other dice than the JAX engine rolled is
    caught at the first roll that matters."""
    env = engines[2]
    feed = env.feed_chance
    monkeypatch.setattr(env, "feed_chance", lambda game, key: feed(game, jax.random.fold_in(key, 1)))
    with pytest.raises(jax_harness.Mismatch, match="differs"):
        jax_harness.run_differential(env, games=1, seed=1)


def test_hidden_information(engines):
    """Bids before the reveal and the pile order: a player's observation ignores what it cannot
    see (the reference's resample_hidden redraws them; at least some redraws change the state)."""
    changed = jax_harness.check_hidden_information(engines[3], games=1, seed=7, every=2)
    assert changed > 20


def test_visible_change_changes_the_observation(engines):
    """The counter-check of the hidden-information test: a change a player can see (its wool)
    does change its observation."""
    env = engines[3]
    ref = env.reference_env()
    ref.reset(seed=3)
    state = env.from_snapshot(ref.snapshot())
    ref.game.wool[0] += 1
    ref.game.supply -= 1
    twin = env.from_game(ref.game)
    observe = jax.jit(env.observe_player)
    assert not np.array_equal(observe(state, 0), observe(twin, 0))


# ---- conversion --------------------------------------------------------------------------------
def test_conversion_round_trip(engines):
    """JAX state -> snapshot -> JAX state is the identity, and a reference game played by the
    PettingZoo env converts to a JAX state and back to the same snapshot, up to the end."""
    env = engines[3]
    ref = env.reference_env()
    ref.reset(seed=11)
    rng = np.random.default_rng(11)
    observe_all = jax.jit(env.observe_all)
    steps = 0
    while True:
        snapshot = ref.snapshot()
        state = env.from_snapshot(snapshot)
        back = env.to_snapshot(state)
        assert back["game"] | {"rng": None} == snapshot["game"] | {"rng": None}
        assert jax_harness.equal_states(env.from_snapshot(back), state)
        assert np.array_equal(observe_all(state), np.stack([ref.observe(a)["observation"] for a in ref.agents]))
        if ref.game.is_over:
            assert bool(state.terminated)
            assert np.asarray(state.rewards).tolist() == [ref.rewards[a] for a in ref.agents]
            assert back["cumulative_rewards"] == snapshot["cumulative_rewards"]
            break
        ref.step(int(rng.choice(np.flatnonzero(ref.action_mask()))))
        steps += 1
    assert steps > 60


def test_snapshot_of_a_jax_state_restores_in_the_env(engines):
    env = engines[2]
    state = env.init(jax.random.PRNGKey(5))
    ref = pz_env.VolleWolleEnv(num_players=2)
    ref.restore(env.to_snapshot(state))
    assert ref.agent_selection == "player_0"
    assert np.array_equal(ref.observe("player_1")["observation"], env.observe_player(state, 1))
    assert np.array_equal(ref.action_mask().astype(bool), np.asarray(state.legal_action_mask))


# ---- jit and vmap --------------------------------------------------------------------------------
def test_jit_vmap_batch_equals_games_alone(engines):
    """A batch under jit(vmap(...)) plays each game exactly as it plays alone, finished games
    included (a step on a finished game changes nothing and rewards nothing)."""
    compared = jax_harness.check_batched(engines[2], batch=4, steps=160, seed=3)
    assert compared == 4 * 160


@pytest.mark.parametrize("share", [1 / 16, 0.5])
def test_batched_new_rounds_equal_games_alone_whatever_the_share(share):
    """Under vmap a new round is dealt only on the games whose round ended (``rows_cond``):
    gathered when they fit in the share of the batch (a block of one game, or half), on every game
    otherwise. Either way each of 16 four-player games equals the same game alone, through many
    rounds (VW-6)."""
    env = mjax.make("volle_wolle", num_players=4)
    env.new_round_share = share
    assert jax_harness.check_batched(env, batch=16, steps=120, seed=4) == 16 * 120


def test_finished_batch_games_stay_finished(engines):
    env = engines[2]
    batched = jax_harness.compiled(env)  # the programs check_batched uses: no compile of its own
    step, init = batched.batched_step, batched.batched_init
    states = init(jax.random.split(jax.random.PRNGKey(0), 4))
    key = jax.random.PRNGKey(1)
    totals = np.zeros((4, 2))
    for _ in range(400):
        key, a_key, s_key = jax.random.split(key, 3)
        actions = jax.random.categorical(a_key, jnp.where(states.legal_action_mask, 0.0, -jnp.inf), axis=-1)
        states = step(states, actions, jax.random.split(s_key, 4))
        totals += np.asarray(states.rewards)
    assert np.asarray(states.terminated).all()
    # every game paid out once: one +1 and one -1, or a shared 0
    assert np.allclose(totals.sum(1), 0) and set(np.abs(totals).ravel()) <= {0.0, 1.0}
    assert np.asarray(states.legal_action_mask).all()  # Pgx: all true once terminated


# ---- chance ------------------------------------------------------------------------------------
def test_dice_and_shuffles_agree_with_the_reference_side():
    """The JAX chance helpers and StreamRandom give the same outcomes from the same stream."""
    from meadowzoo.envs.core import jax_core

    key = jax.random.PRNGKey(9)
    uniforms = jax_core.host_stream(key, 40)
    fed = jax_core.StreamRandom(uniforms)
    for i, sides in enumerate((12, 10, 8, 6, 100)):
        assert int(jax_core.stream_int(jnp.int32(uniforms[i]), sides)) + 1 == int(fed.random() * sides) + 1
    assert fed.integers(3, 10) == 3 + int(jax_core.stream_int(jnp.int32(uniforms[5]), 7))
    perm = np.asarray(jax_core.stream_permutation(jnp.asarray(uniforms[6:15])))
    assert sorted(perm.tolist()) == list(range(10))
    assert fed.permutation(10).tolist() == perm.tolist()
    with pytest.raises(RuntimeError, match="more than"):
        for _ in range(40):
            fed.random()


def test_host_stream_is_the_engines_stream():
    """The reference side's stream (numpy, on the host) is the engines' ``chance_stream``,
    uniform for uniform, for raw and typed keys."""
    from meadowzoo.envs.core import jax_core

    for seed in (0, 9, 2**31 - 1):
        key = jax.random.fold_in(jax.random.PRNGKey(seed), 7)
        expected = np.asarray(jax_core.chance_stream(key, 50))
        assert np.array_equal(jax_core.host_stream(key, 50), expected)
        assert np.array_equal(jax_core.host_stream(np.asarray(key), 50), expected)
        typed = jax.random.wrap_key_data(key)
        assert np.array_equal(jax_core.host_stream(typed, 50), np.asarray(jax_core.chance_stream(typed, 50)))
    assert len(set(jax_core.host_stream(jax.random.PRNGKey(1), 1000).tolist())) > 990  # no short cycle
    index = np.array([0, 5, 1000, 2**31])
    assert np.array_equal(jax_core.host_stream_at(np.uint32(12345), index),
                          np.asarray(jax_core.stream_at(jnp.uint32(12345), jnp.asarray(index, jnp.uint32))))


def test_faces_cover_every_side():
    from meadowzoo.envs.core import jax_core

    uniforms = jax_core.chance_stream(jax.random.PRNGKey(0), 4000)
    for sides in (12, 10, 8):
        faces = np.asarray(jax_core.stream_int(uniforms, sides)) + 1
        assert set(faces.tolist()) == set(range(1, sides + 1))
        assert abs(faces.mean() - (sides + 1) / 2) < 0.3


def test_rank_rewards_match_the_core_rule():
    from meadowzoo.envs.core.jax_core import rank_rewards
    from meadowzoo.envs.core.rewards import rank_rewards as reference

    rng = np.random.default_rng(0)
    for n in (2, 3, 4, 6):
        for _ in range(20):
            scores = rng.integers(0, 4, n)  # many ties
            places = [int((scores > s).sum()) for s in scores]
            assert np.allclose(np.asarray(rank_rewards(jnp.asarray(scores))), reference(places))


# ---- errors and packaging ------------------------------------------------------------------------
def test_make_refuses_clearly(monkeypatch):
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        mjax.make("chess")
    with pytest.raises(ValueError, match="num_players must be an integer 2..6"):
        mjax.make("volle_wolle", num_players=7)
    with pytest.raises(ValueError, match="num_players"):
        mjax.make("volle_wolle", num_players=True)
    with pytest.raises(ValueError, match=r"unsupported option\(s\) \['max_turns'\]"):
        mjax.make("volle_wolle", max_turns=50)
    with pytest.raises(ValueError, match="deck"):
        mjax.make("volle_wolle", deck=[{"kind": "dog"}])
    real = mjax._plugin

    def without_engine(name):
        import dataclasses

        return dataclasses.replace(real(name), jax_engine=None)

    monkeypatch.setattr(mjax, "_plugin", without_engine)
    with pytest.raises(ValueError, match="volle_wolle has no JAX engine yet"):
        mjax.make("volle_wolle")


def test_make_builds_a_pgx_env(engines):
    import pgx

    env = engines[4]
    assert isinstance(env, pgx.Env) and isinstance(env, MeadowJaxEnv)
    assert "volle_wolle" in mjax.available()
    assert (env.num_players, env.num_actions, env.observation_shape) == (4, 27, (176,))
    assert env.observation_shape == pz_env.VolleWolleEnv(num_players=4).observation_space("player_0")["observation"].shape


def test_step_needs_a_key(engines):
    env = engines[2]
    state = env.init(jax.random.PRNGKey(0))
    with pytest.raises(ValueError, match="needs a key"):
        env.step(state, 0)


def test_from_snapshot_refuses_bad_snapshots(engines):
    env = engines[2]
    ref = pz_env.VolleWolleEnv(num_players=3)
    ref.reset(seed=0)
    with pytest.raises(ValueError, match="options"):
        env.from_snapshot(ref.snapshot())  # three players into a two-player engine
    ref = pz_env.VolleWolleEnv(num_players=2)
    ref.reset(seed=0)
    broken = ref.snapshot()
    broken["game"]["wool"] = [30, 2]
    with pytest.raises(ValueError, match="wool"):
        env.from_snapshot(broken)
    with pytest.raises(ValueError, match="does not fit"):
        env.from_game(pz_env.VolleWolleEnv(num_players=3).game)


def test_illegal_action_ends_the_game_the_pgx_way(engines):
    env = engines[2]
    state = env.init(jax.random.PRNGKey(0))
    mover = int(state.current_player)
    state = env.step(state, jnp.int32(13), jax.random.PRNGKey(1))  # claim while bidding
    assert bool(state.terminated)
    assert float(state.rewards[mover]) == -1.0 and float(state.rewards[1 - mover]) == 1.0


def test_importing_meadowzoo_does_not_import_jax():
    code = ("import sys, meadowzoo, meadowzoo.envs, meadowzoo.envs.volle_wolle_v0; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('jax', 'jaxlib', 'pgx')); "
            "print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=".")
    assert result.returncode == 0, result.stdout + result.stderr
