"""Issue #16, property-based: mutated real snapshots of every game (seeded random games at several
points, finished and truncated ones included) are either refused by ``restore()`` with a
``ValueError`` that changes nothing, or restore to exactly the state they describe: the restored
env's ``snapshot()`` equals the mutated snapshot, and it then plays like a clean restore of that
state (same observations, masks, rewards, terminations, agents; masks non-empty while live,
observations finite, rewards in [-1, 1]).

Mutations (1-3 per example): a number changed (small steps, huge, negative, float, NaN, inf), a value
replaced by another type, a list lengthened, shortened or emptied, a key dropped or added, two
list entries swapped (agents, seats, cards …). The default suite runs a few hundred examples per
game; ``-m slow`` runs 10,000 per game and prints the figures (accepted, rejected, time).
"""

from __future__ import annotations

import copy
import json
import math
import time
from collections import Counter
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meadowzoo.envs.core.aec import REWARD_TOLERANCE
from tests.core.cases import GAME_IDS, hooks, raw

FIGURES: Counter = Counter()


@lru_cache(maxsize=None)
def corpus(game: str) -> tuple[str, ...]:
    """JSON texts of real snapshots: 2 and 4 players (3 for Haste Bock? tiles), several points of
    seeded games, the end of a finished game (before and after an agent left) and a truncation."""
    out = []
    policy = hooks(game).policy
    for players, seed in ((2, 0), (3, 1), (4, 2)):
        for limit in (None, 9):  # the default max_turns, and a truncation after 9 turns
            env = raw(game, {"num_players": players}, **({} if limit is None else {"max_turns": limit}))()
            env.reset(seed=seed)
            rng = np.random.default_rng(seed)
            step = 0
            while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
                if step in (0, 1, 4, 15, 40, 120):
                    out.append(json.dumps(env.snapshot()))
                env.step(policy(env, rng))
                step += 1
                if step > 3000:
                    break
            out.append(json.dumps(env.snapshot()))
            if env.agents and (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
                env.step(None)  # one agent has left
                out.append(json.dumps(env.snapshot()))
    return tuple(out)


@lru_cache(maxsize=None)
def _env(game: str, options_json: str):
    return raw(game, json.loads(options_json))()


def _paths(value, prefix=()):
    """Every path into a JSON value (the root excluded)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield prefix + (key,)
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield prefix + (index,)
            yield from _paths(item, prefix + (index,))


def _parent(root, path):
    for key in path[:-1]:
        root = root[key]
    return root


SCALARS = st.one_of(
    st.integers(-3, 80), st.integers(-(2**70), 2**70), st.sampled_from([2**64, 2**128, -(2**63) - 1]),
    st.floats(allow_nan=True, allow_infinity=True), st.booleans(), st.none(),
    st.text(max_size=6), st.sampled_from(["player_0", "player_1", "player_3", "player_9", "card", "over"]),
)
# fresh containers every draw (st.just would hand out one object, which a later mutation changes)
VALUES = st.one_of(SCALARS, st.lists(st.integers(-2, 60), max_size=6), st.builds(dict), st.builds(lambda: [[]]),
                   st.dictionaries(st.text(max_size=4), st.integers(0, 3), max_size=2))


@st.composite
def mutated(draw, game: str):
    texts = corpus(game)
    snapshot = json.loads(texts[draw(st.integers(0, len(texts) - 1))])
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(snapshot))
        path = paths[draw(st.integers(0, len(paths) - 1))]
        parent, key = _parent(snapshot, path), path[-1]
        old = parent[key]
        op = draw(st.sampled_from(["number", "replace", "grow", "shrink", "drop", "add", "swap"]))
        if op == "number" and isinstance(old, (int, float)) and not isinstance(old, bool):
            parent[key] = draw(st.one_of(st.integers(-2, 2).map(lambda d: old + d), SCALARS))
        elif op == "grow" and isinstance(old, list):
            parent[key] = old + [copy.deepcopy(old[-1]) if old and draw(st.booleans()) else draw(VALUES)]
        elif op == "shrink" and isinstance(old, list) and old:
            del old[draw(st.integers(0, len(old) - 1))]
        elif op == "drop" and isinstance(parent, dict):
            del parent[key]
        elif op == "add" and isinstance(old, dict):
            old[draw(st.sampled_from(["extra", "player_5", "turn", "rng", "x"]))] = draw(VALUES)
        elif op == "swap" and isinstance(parent, list) and len(parent) > 1:
            other = draw(st.integers(0, len(parent) - 1))
            parent[key], parent[other] = parent[other], parent[key]
        elif op == "swap" and isinstance(parent, dict) and len(parent) > 1:
            other = draw(st.sampled_from(sorted(parent, key=str)))
            parent[key], parent[other] = parent[other], parent[key]
        else:
            parent[key] = draw(VALUES)
    return snapshot


def _options_key(snapshot: dict, game: str) -> str:
    """The env to restore into: the one of the snapshot's options if they are valid, else the
    default one (which must then refuse the snapshot)."""
    options = snapshot.get("options")
    try:
        text = json.dumps(options, sort_keys=True)
        _env(game, text)
        return text
    except (ValueError, TypeError):
        return "{}"


def check_mutation(game: str, snapshot: dict, seed: int) -> str:
    """Restore ``snapshot``; 'rejected' (ValueError, env unchanged) or 'accepted' (checked)."""
    env = _env(game, _options_key(snapshot, game))
    env.reset(seed=seed)
    before = env.snapshot()
    text = json.dumps(snapshot)  # a NaN stays a NaN: compared as text below
    try:
        env.restore(snapshot)
    except ValueError:
        assert env.snapshot() == before, "a refused snapshot changed the env"
        assert json.dumps(snapshot) == text, "restore() changed its argument"
        return "rejected"
    restored = env.snapshot()
    given_ = json.loads(text)
    if given_.get("version") == 1:  # an older format is upgraded: its snapshot is written in the current one
        given_["version"] = restored["version"]
    # cumulative rewards within REWARD_TOLERANCE of the rank rewards are restored as the exact ones
    exact = restored["cumulative_rewards"]
    if all(abs(given_["cumulative_rewards"][a] - r) <= REWARD_TOLERANCE for a, r in exact.items()):
        given_["cumulative_rewards"] = exact
    assert _same(restored, given_), (
        f"the restored env's snapshot differs from the snapshot it was restored from: "
        f"{_differences(restored, given_)}")
    twin = env.clone()
    clean = _env(game, _options_key(snapshot, game)).__class__(**env.options, max_turns=env.max_turns)
    clean.restore(json.loads(json.dumps(restored)))
    _play_alike(twin, clean, np.random.default_rng(seed))
    return "accepted"


def _same(a, b) -> bool:
    """Equal as values (1 and 1.0 alike: a snapshot stores rewards as floats)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return a == b


def _differences(a, b, path=()) -> list:
    """(path, restored value, given value) of the first differences."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = [(path + (k,), a.get(k, "<missing>"), b.get(k, "<missing>")) for k in a.keys() ^ b.keys()]
        for k in a.keys() & b.keys():
            out += _differences(a[k], b[k], path + (k,))
        return out[:5]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for x, y, i in zip(a, b, range(len(a))) for d in _differences(x, y, path + (i,))][:5]
    return [] if _same(a, b) else [(path, a, b)]


def _play_alike(a, b, rng: np.random.Generator, steps: int = 25) -> None:
    for _ in range(steps):
        assert a.agents == b.agents and a.agent_selection == b.agent_selection
        if not a.agents:
            return
        for agent in a.agents:
            oa, ob = a.observe(agent), b.observe(agent)
            assert np.array_equal(oa["observation"], ob["observation"]) and np.isfinite(oa["observation"]).all()
            assert np.array_equal(oa["action_mask"], ob["action_mask"])
        assert a.rewards == b.rewards and a._cumulative_rewards == b._cumulative_rewards
        assert all(-1.0 <= r <= 1.0 for r in a._cumulative_rewards.values())
        assert a.terminations == b.terminations and a.truncations == b.truncations
        agent = a.agent_selection
        if a.terminations[agent] or a.truncations[agent]:
            action = None
        else:
            legal = a.legal_actions()
            assert legal and np.flatnonzero(a.action_mask()).tolist() == legal, "a live agent without actions"
            action = legal[int(rng.integers(len(legal)))]
        a.step(action)
        b.step(action)


def _run(game: str, examples: int) -> None:
    started = time.perf_counter()

    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(snapshot=mutated(game), seed=st.integers(0, 2**16))
    def property_(snapshot, seed):
        FIGURES[(game, check_mutation(game, snapshot, seed))] += 1

    property_()
    FIGURES[(game, "seconds")] += time.perf_counter() - started


@pytest.mark.parametrize("game", GAME_IDS)
def test_mutated_snapshots_are_refused_or_restore_exactly(game):
    _run(game, 150)
    assert FIGURES[(game, "accepted")] > 0 and FIGURES[(game, "rejected")] > 0


@pytest.mark.slow
@pytest.mark.parametrize("game", GAME_IDS)
def test_ten_thousand_mutated_snapshots_per_game(game):
    for key in [k for k in FIGURES if k[0] == game]:
        del FIGURES[key]
    _run(game, 10_000)
    accepted, rejected = FIGURES[(game, "accepted")], FIGURES[(game, "rejected")]
    print(f"\n[fuzz] {game}: {accepted + rejected} mutations, {accepted} accepted, {rejected} rejected, "
          f"{FIGURES[(game, 'seconds')]:.0f} s")
    assert accepted + rejected >= 10_000 * 0.99  # hypothesis may skip a few duplicates
    assert not math.isnan(FIGURES[(game, "seconds")])
