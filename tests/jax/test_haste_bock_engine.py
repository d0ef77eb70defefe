"""The Haste Bock? JAX engine against the reference engine (rules HB-1 … HB-24).

The differential harness (:mod:`meadowzoo.envs.core.jax_harness`) plays seeded random games on both
engines with the same dice and compares, at every decision, the legal mask, every player's
observation and the whole state, and at the end places and rewards. The default suite plays a few
games per player count (4 and 3 players with the default rules, 2 players with every rule option
changed); the slow runs (``MEADOWZOO_SLOW=1 pytest -m slow tests/jax/test_haste_bock_engine.py``)
play 300 games per player count and variant and check that the games reached every kind of
decision and both ends of the game. ``check_batched`` proves the ``vmap``-ed engine equal to the
unbatched one the harness drives.
"""

from __future__ import annotations

import os
from collections import Counter

import jax
import jax.numpy as jnp
import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("pgx")

import meadowzoo.jax  # noqa: E402
from meadowzoo.envs.core.jax_harness import check_batched, compiled, run_differential  # noqa: E402
from meadowzoo.envs.core.rewards import rank_rewards  # noqa: E402
from meadowzoo.envs.haste_bock import data as D  # noqa: E402
from meadowzoo.envs.haste_bock.jax_engine import HasteBockJax  # noqa: E402
from meadowzoo.envs.haste_bock.rules import DISCARD_BASE, MOVE_BASE, NUM_ACTIONS, PANIC_BASE, TILE_BASE  # noqa: E402

SLOW = pytest.mark.skipif(not os.environ.get("MEADOWZOO_SLOW"), reason="slow run: set MEADOWZOO_SLOW=1")

#: every rule option changed at once: fixed layout, another facing, the Chinese phase-2 reading and
#: a replacement rule table (other cards, more panic spaces, other tiles and tile penalty)
OTHER_RULES = {
    "layout": "fixed",
    "facing": "E",
    "phase2_rows": "consecutive",
    "rule_data": {
        "cards": [["leap", 1], ["ram", 3], ["trough", 1], ["herd", 2], ["step", 3],
                  ["diagonal_caravan", 3], ["row_column_caravan", 1], ["ram", 1], ["trough", 2]],
        "panic_spaces": [2, 5, 9, 13, 25, 31, 38, 40, 44, 63, 70],
        "three_player_tiles": [3, 3, 1],
        "unused_tile_penalty": 5,
        "two_player_tiles": [1, 2, 3, 3, 2],
    },
}

_ENGINES: dict[tuple, HasteBockJax] = {}


def engine(num_players: int, variant: str = "default") -> HasteBockJax:
    """One engine object per configuration, so that the harness compiles each once per session."""
    key = (num_players, variant)
    if key not in _ENGINES:
        options = OTHER_RULES if variant == "options" else {}
        _ENGINES[key] = HasteBockJax(num_players=num_players, **options)
    return _ENGINES[key]


class Coverage:
    """Counts what the games reached (decision kinds, moves, ends), from the reference env."""

    def __init__(self) -> None:
        self.seen: Counter = Counter()

    def __call__(self, state, ref) -> None:
        game = ref.game
        if game.is_over:
            self.seen["end on 74" if game.time == D.PEN_2 else "end without cards"] += 1
            return
        if bool(state.truncated):
            self.seen["truncated"] += 1
            return
        legal = game.legal_actions()
        if legal[0] >= TILE_BASE:
            self.seen["time tile"] += 1
        elif legal[0] >= PANIC_BASE:
            self.seen["opening panic" if game.time == 0 else "panic space"] += 1
        elif legal[0] >= MOVE_BASE:
            self.seen[("step", "ram", "leap", "diagonal", "row/column", "trough", "herd")[game.card_kind // 3]] += 1
        elif legal[0] >= DISCARD_BASE:
            self.seen["discard fallback"] += 1
        if game.no_trough >= 0 or game.no_herd >= 0:
            self.seen["no-undo rule"] += 1


# ---- the differential harness ------------------------------------------------------------------------------
@pytest.mark.parametrize("num_players, variant, games", [(4, "default", 6), (3, "default", 6), (2, "options", 6)])
def test_identical_to_the_reference_engine(num_players, variant, games):
    figures = run_differential(engine(num_players, variant), games, seed=num_players)
    assert figures.games == games and figures.decisions > games * 20


@pytest.mark.slow
@SLOW
@pytest.mark.parametrize("variant", ["default", "options"])
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_identical_to_the_reference_engine_slow(num_players, variant):
    coverage = Coverage()
    games = 300
    figures = run_differential(engine(num_players, variant), games, seed=1000 + num_players, on_state=coverage)
    print(f"\nhaste_bock {num_players}p {variant}: {figures}; reached {dict(sorted(coverage.seen.items()))}")
    assert figures.games == games
    wanted = {"step", "ram", "leap", "diagonal", "row/column", "trough", "herd", "opening panic", "panic space",
              "no-undo rule", "end on 74" if variant == "default" else "end without cards"}
    if num_players < 4:
        wanted.add("time tile")
    assert wanted <= set(coverage.seen), f"never reached: {wanted - set(coverage.seen)}"


def test_batched_games_equal_the_same_games_alone():
    """``jit(vmap(step))`` plays every game of a batch exactly as the unbatched program does."""
    assert check_batched(engine(4), batch=4, steps=40) == 4 * 40


@pytest.mark.parametrize("share", [1 / 16, 0.5])
def test_batched_final_rewards_equal_single_games_whatever_the_share_hb24(share):
    """HB-24's rank rewards are computed, under vmap, only on the games that end in a step
    (``rows_cond``): gathered when they fit in the share of the batch (a block of one game, or
    half), on every game otherwise. Either way the games that end (here at least four of 16) get
    the rewards of the same games played alone."""
    env = HasteBockJax(num_players=2)
    env.end_share = share
    assert check_batched(env, batch=16, steps=150, seed=3, min_ended=4) == 16 * 150


# ---- hidden information -------------------------------------------------------------------------------------
def test_observations_hold_only_public_information():
    """Everything but future die rolls is public (the cards lie open): the state carries no key or
    generator, and rebuilding a state from the reference game after ``resample_hidden`` (which
    redraws the future dice) leaves every player's observation unchanged."""
    env = engine(4)
    state, _ = compiled(env).init(jax.random.PRNGKey(5))
    for leaf in jax.tree_util.tree_leaves(state):
        assert not jnp.issubdtype(leaf.dtype, jax.dtypes.prng_key) and leaf.dtype != jnp.uint32
    checked = Counter()
    rng = np.random.default_rng(0)
    observe_all = jax.jit(env.observe_all)

    def check(host_state, ref):
        checked["seen"] += 1
        if bool(host_state.terminated) or checked["seen"] % 6:
            return
        twin = ref.game.clone()
        twin.resample_hidden(0, rng)
        before = np.asarray(observe_all(host_state))
        after = np.asarray(observe_all(env.from_game(twin)))
        assert np.array_equal(before, after)
        checked["states"] += 1

    run_differential(env, 2, seed=11, on_state=check)
    assert checked["states"] > 15


def test_a_players_observation_is_its_own_view():
    """The egocentric rotation: seat k's observation shows its own sheep on planes 0/1 and the
    decider relative to itself, so observations of different seats differ in exactly those
    places (a policy never sees another seat's view)."""
    env = engine(4)
    state, obs = compiled(env).init(jax.random.PRNGKey(3))
    obs, pos = np.asarray(obs), np.asarray(state.pos)
    for seat in range(4):
        assert obs[seat, pos[2 * seat]] == 1.0 and obs[seat, 81 + pos[2 * seat + 1]] == 1.0
    assert not np.array_equal(obs[0], obs[1])


# ---- options, packaging, conversion ---------------------------------------------------------------------------
def test_make_by_name_gives_the_engine_with_the_envs_shapes():
    env = meadowzoo.jax.make("haste_bock", num_players=3)
    assert isinstance(env, HasteBockJax) and env.num_players == 3
    assert env.num_actions == NUM_ACTIONS and env.observation_shape == (1036,)
    reference = env.reference_env()
    assert reference.observation_space("player_0")["observation"].shape == env.observation_shape


@pytest.mark.parametrize("options, message", [
    ({"num_players": 5}, "num_players"),
    ({"num_players": 1}, "num_players"),
    ({"layout": "spiral"}, "layout"),
    ({"facing": "NE"}, "facing"),
    ({"phase2_rows": "all"}, "phase2_rows"),
    ({"rule_data": {"cards": [["jump", 2]]}}, "rule_data"),
    ({"rule_data": {"colours": 3}}, "rule_data"),
    ({"max_turns": 0}, "max_turns"),
    ({"render_mode": "ansi"}, "render_mode"),
])
def test_bad_options_are_refused_naming_them(options, message):
    with pytest.raises(ValueError, match=message):
        HasteBockJax(**options)


def test_snapshot_conversion_round_trips_through_the_pettingzoo_env():
    """to_snapshot → raw_env.restore → snapshot → from_snapshot gives the same state, mid-game."""
    env = engine(4)
    functions = compiled(env)
    rng = np.random.default_rng(2)
    for game in range(3):
        key = jax.random.PRNGKey(9 + game)
        state, _ = functions.init(key)
        for _ in range(10 + 7 * game):
            key, sub = jax.random.split(key)
            state, _ = functions.step(state, jnp.int32(rng.choice(np.flatnonzero(state.legal_action_mask))), sub)
        one = jax.device_get(state)
        reference = env.reference_env()
        reference.reset(seed=0)
        reference.restore(env.to_snapshot(one))
        back = jax.device_get(env.from_snapshot(reference.snapshot()))
        for name in ("pos", "scores", "hands", "tiles", "time", "pending", "player", "die", "legal_action_mask"):
            assert np.array_equal(np.asarray(getattr(back, name)), np.asarray(getattr(one, name))), name
        assert np.array_equal(np.asarray(back.observation), np.asarray(one.observation))


# ---- rare paths from constructed positions -------------------------------------------------------------------
BLOCK = """
.........
.........
.........
...BYG...
...RTB...
...YGR...
.........
.........
.........
"""


#: a blue sheep moved out of the block: a trough S moves the green sheep above the gap
GAPPED = """
.........
.........
....B....
...BYG...
...RT....
...YGR...
.........
.........
.........
"""


def _play_from(env: HasteBockJax, game, actions: list[str]):
    """From the reference ``game``, play ``actions`` (by name) on both engines with the same dice,
    comparing state, mask and every observation before each action and at the end."""
    functions = compiled(env)
    state = env.from_game(game)
    key = jax.random.PRNGKey(0)
    for index in range(len(actions) + 1):
        reference = env.reference_env()
        reference.reset(seed=0)
        # a finished game's snapshot carries its final rewards (restore() refuses any other)
        rewards = rank_rewards(game.places()) if game.is_over else [0.0] * len(reference.possible_agents)
        reference.restore(reference.snapshot_of(game.to_dict(), reference.possible_agents,
                                                dict(zip(reference.possible_agents, rewards))))
        game_dict = game.to_dict()
        game_dict.pop("rng")
        assert env.to_game_dict(state) == game_dict, index
        observations = np.asarray(env.observe_all(state))
        for seat, agent in enumerate(reference.possible_agents):
            assert np.array_equal(observations[seat], reference.observe(agent)["observation"]), (index, seat)
        if game.is_over:
            assert bool(state.terminated)
            break
        assert np.flatnonzero(np.asarray(state.legal_action_mask)).tolist() == game.legal_actions(), index
        if index == len(actions):
            break
        action = game.string_to_action(actions[index])
        key, sub = jax.random.split(key)
        env.feed_chance(game, sub)
        game.apply(action)
        state, _ = functions.step(state, jnp.int32(action), sub)
    return state


def test_discard_fallback_when_no_card_has_a_move_hb11():
    """HB-11: in the closed start block no trough moves a sheep; a hand of troughs is discarded."""
    from meadowzoo.envs.haste_bock.rules import HasteBockGame

    env = engine(4)
    game = HasteBockGame.from_position(BLOCK, num_players=4, time=3)
    game.hands[0] = [0] * 21
    game.hands[0][5 * 3 + 1] = game.hands[0][5 * 3 + 2] = 1  # trough 2, trough 3
    game._legal = None
    assert game.legal_actions() == [DISCARD_BASE + 16, DISCARD_BASE + 17]
    _play_from(env, game, ["discard trough (card 3)"])


@pytest.mark.parametrize("die", D.DIE_FACES)
def test_panic_ram_of_every_die_face_hb6(die):
    """HB-6/HB-9: the panic ram offers exactly the sheep of the rolled colour (black Thea, white any)."""
    from meadowzoo.envs.haste_bock.rules import HasteBockGame

    env = engine(4)
    game = HasteBockGame.from_position(BLOCK, num_players=4, time=7, die=die)
    first = game.action_to_string(game.legal_actions()[0])
    _play_from(env, game, [first])


def test_no_undo_and_end_without_cards_with_the_tile_penalty_hb16_hb22_hb24():
    """A trough forbids the next player the opposite side (HB-16); a herd turn forbids turning back
    (HB-17); the game ends when nobody holds a card, 3 players losing points for unused tiles."""
    from meadowzoo.envs.haste_bock.rules import HasteBockGame

    env = engine(3)
    game = HasteBockGame.from_position(GAPPED, num_players=3, time=30)
    for p in range(3):
        game.hands[p] = [0] * 21
    game.hands[0][5 * 3 + 1] = 1  # trough 2
    game.hands[1][6 * 3] = 1  # herd 1
    game.hands[2][6 * 3] = 1  # herd 1
    game.tiles[2] = [0, 0, 1]
    game._legal = None
    scores = game.scores()
    state = _play_from(env, game, [
        "play trough (card 2)", "trough S", "no time tile",
        "play herd (card 1)", "herd cw", "time tile 1",
        "play herd (card 1)", "herd cw", "no time tile",
    ])
    assert game.is_over and bool(state.terminated)
    penalty = 2 * np.array([3, 2, 1])  # unused tiles: 3, 2 and 1
    assert np.array_equal(np.asarray(state.scores), np.array(scores) - penalty)  # phase 2 between walls: no scoring


def test_max_turns_truncates_as_the_pettingzoo_env_does():
    """When the next turn would be turn ``max_turns`` the game is truncated: no legal action, no
    reward, not terminated (the PettingZoo env's truncation)."""
    from meadowzoo.envs.haste_bock.rules import HasteBockGame

    env = engine(4)
    game = HasteBockGame.from_position(BLOCK, num_players=4, time=3)
    game.turn = env.max_turns - 1
    reference = env.reference_env()
    reference.reset(seed=0)
    reference.restore(reference.snapshot_of(game.to_dict(), reference.possible_agents, dict.fromkeys(reference.possible_agents, 0.0)))
    state = env.from_game(game)
    key = jax.random.PRNGKey(1)
    for name in ("play herd (card 1)", "herd cw"):
        action = game.string_to_action(name)
        key, sub = jax.random.split(key)
        env.feed_chance(reference.game, sub)
        reference.step(action)
        state, _ = compiled(env).step(state, jnp.int32(action), sub)
    assert all(reference.truncations.values()) and not any(reference.terminations.values())
    assert bool(state.truncated) and not bool(state.terminated)
    assert not np.any(np.asarray(state.legal_action_mask)) and not np.any(np.asarray(state.rewards))
    assert env.to_game_dict(state) == {k: v for k, v in reference.game.to_dict().items() if k != "rng"}


def test_ray_bits_equal_the_pair_table_on_random_flocks_hb13_hb14():
    """HB-13, HB-14 (rams and leaps along the eight rays): the engine's per-pair bit arithmetic
    gives, for every sheep and direction, the occupied squares on its ray exactly as the
    square-pair table ``RAY_BITS`` (built from the board's rays) sums them, on 20,000 random flocks."""
    from meadowzoo.envs.haste_bock import jax_tables as T

    rng = np.random.default_rng(31)
    flocks = np.stack([rng.choice(D.SQUARES, D.NUM_SHEEP, replace=False) for _ in range(20_000)]).astype(np.int32)
    bits = np.asarray(jax.jit(jax.vmap(HasteBockJax._ray_bits))(flocks))
    expected = np.stack([T.RAY_BITS[flocks[:, k, None] * D.SQUARES + flocks].sum(1) for k in range(D.NUM_SHEEP)], axis=1)
    assert bits.shape == (20_000, D.NUM_SHEEP, 8)
    np.testing.assert_array_equal(bits, expected)


def test_jump_words_follow_the_rays_on_random_flocks_hb13_hb14():
    """HB-13 / HB-14: a sheep may ram or leap over the k-th sheep on one of its eight rays when the
    square right behind that sheep is on the pasture and empty. The engine's jump words (ray masks
    looked up in ``JUMP_TABLE``) against that statement, walked square by square along each ray
    (``RAY_SQ``), on 5,000 random flocks."""
    from meadowzoo.envs.haste_bock import jax_tables as T

    rng = np.random.default_rng(35)
    flocks = np.stack([rng.choice(D.SQUARES, D.NUM_SHEEP, replace=False) for _ in range(5_000)]).astype(np.int32)
    got = np.asarray(jax.jit(jax.vmap(lambda pos: HasteBockJax._jumps(pos, HasteBockJax._ray_bits(pos))))(flocks))
    expected = np.zeros((len(flocks), D.NUM_SHEEP, 8), np.int64)
    for g, flock in enumerate(flocks):
        occupied = set(flock.tolist())
        for sheep, square in enumerate(flock):
            for d in range(8):
                ray = [sq for sq in T.RAY_SQ[square, d] if sq != T.OFF]
                ahead = [i for i, sq in enumerate(ray) if sq in occupied]  # the sheep on the ray, nearest first
                for k, i in enumerate(ahead):
                    if i + 1 < len(ray) and ray[i + 1] not in occupied:
                        expected[g, sheep, d] |= 1 << k
    assert got.shape == (5_000, D.NUM_SHEEP, 8)
    assert expected.any() and (expected != (1 << 8) - 1).any()
    np.testing.assert_array_equal(got, expected)


def test_trough_sides_from_row_masks_on_random_flocks_hb16():
    """HB-16 (troughs): a side N E S W moves a sheep when some sheep that is not on the flock's
    outermost line that way has an empty neighbour that way. The engine's row-bitmask arithmetic
    against that statement checked sheep by sheep, on 20,000 random flocks (with no side forbidden)."""
    rng = np.random.default_rng(32)
    flocks = np.stack([rng.choice(D.SQUARES, D.NUM_SHEEP, replace=False) for _ in range(20_000)]).astype(np.int32)
    got = np.asarray(jax.jit(jax.vmap(lambda pos: HasteBockJax._troughs(pos, jnp.int32(-1))))(flocks))
    rows, cols = flocks // D.SIZE, flocks % D.SIZE
    occupied = np.zeros((len(flocks), D.SIZE + 2, D.SIZE + 2), bool)  # a border of empty squares
    occupied[np.arange(len(flocks))[:, None], rows + 1, cols + 1] = True
    expected = np.zeros((len(flocks), 4), bool)
    for side, (dr, dc, line) in enumerate([(-1, 0, rows.min(1)), (0, 1, cols.max(1)), (1, 0, rows.max(1)), (0, -1, cols.min(1))]):
        along = rows if dc == 0 else cols
        neighbour_empty = ~occupied[np.arange(len(flocks))[:, None], rows + 1 + dr, cols + 1 + dc]
        expected[:, side] = ((along != line[:, None]) & neighbour_empty).any(1)
    assert got.shape == (20_000, 4)
    np.testing.assert_array_equal(got, expected)
