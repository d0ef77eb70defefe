"""Game plug-ins (envs/core/plugin.py, envs/<game>/plugin.py): every declaration resolves, the house
reads them instead of tables of game names, and a new game needs only its plug-in."""

from __future__ import annotations

import ast
import dataclasses
import sys
from pathlib import Path

import pytest

import meadowzoo
from meadowzoo.agents import make_agent
from meadowzoo.agents.base import Agent
from meadowzoo.envs import GAMES, game_module, plugin
from meadowzoo.envs.core.plugin import GamePlugin, Measure, Notebook, load

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game", GAMES)
def test_every_declaration_resolves(game):
    declared = plugin(game)
    assert declared.name == game and set(declared.player_counts) >= {2}
    assert callable(game_module(game).env) and callable(game_module(game).raw_env)
    assert load(declared.rules_module).__name__ == declared.rules_module
    for kind in ("greedy", "strong"):
        player = load(getattr(declared.heuristics, kind))
        assert issubclass(player, Agent) and make_agent(kind, game, seed=0).name == kind
    for name, reference in declared.agents.items():
        assert callable(load(reference)), name
    search = declared.search
    for measure in (search.public_value, search.strong_value):
        assert isinstance(measure, Measure) and callable(load(measure.function)) and measure.scale > 0
    assert callable(load(search.strong_prior)) and search.rollout_depth > 0 and search.advice_scale > 0
    if declared.standing is not None:
        assert callable(load(declared.standing))
    for bench in declared.benchmarks:
        env = game_module(game).raw_env(**bench.options)
        env.reset(seed=0)
        assert env.legal_actions()
    assert meadowzoo.GYM_IDS[game] == declared.gym_id


@pytest.mark.parametrize("game", GAMES)
def test_measures_and_priors_read_a_live_game(game):
    import numpy as np

    env = game_module(game).raw_env(num_players=3)
    env.reset(seed=1)
    search = plugin(game).search
    for measure in (search.public_value, search.strong_value):
        values = load(measure.function)(env.game)
        assert len(values) == 3 and all(np.isfinite(values))
    legal = env.legal_actions()
    scores = load(search.strong_prior)(env.game, legal, np.random.default_rng(0))
    assert scores is None or set(scores) <= set(legal)


def test_training_settings_name_config_fields():
    from meadowzoo.training.config import TrainConfig, config_for, game_config

    for game in GAMES:
        config = game_config(game)
        assert all(getattr(config, key) == value for key, value in plugin(game).training.items())
        assert config_for(game, ent_coef=0.5).ent_coef == 0.5
    bad = dataclasses.replace(plugin("volle_wolle"), training={"gama": 0.9})
    from meadowzoo.envs import registry

    registry._PLUGINS["volle_wolle"] = bad
    try:
        with pytest.raises(ValueError, match="gama"):
            game_config("volle_wolle")
    finally:
        registry._PLUGINS.pop("volle_wolle")
    assert game_config("volle_wolle") == TrainConfig()


def test_plugin_checks_itself():
    with pytest.raises(ValueError, match="identifier"):
        GamePlugin(name="not a name", title="x", env_module="m", player_counts=(2,))
    with pytest.raises(ValueError, match="notebook players"):
        GamePlugin(name="x", title="x", env_module="m", player_counts=(2,), notebook=Notebook(5, "b"))
    with pytest.raises(ValueError, match="unknown game"):
        plugin("chess")


#: where a game's name may be a dispatch key: the registry and the games' own modules
_OWN = ("envs/registry.py",)


def _owned(path: Path) -> bool:
    relative = path.relative_to(ROOT).as_posix()
    return relative in _OWN or any(
        relative.startswith((f"envs/{g}/", f"envs/{g}_v0.py", f"agents/heuristics/{g}")) for g in GAMES)


def _dispatch_keys(tree: ast.AST) -> list[tuple[int, str]]:
    """String constants naming a game used as a dict key, a subscript, or in a comparison."""
    names = set(GAMES)
    found = []

    def game_constant(node):
        return isinstance(node, ast.Constant) and node.value in names

    for node in ast.walk(tree):
        candidates = []
        if isinstance(node, ast.Dict):
            candidates = [k for k in node.keys if k is not None]
        elif isinstance(node, ast.Subscript):
            candidates = [node.slice]
        elif isinstance(node, ast.Compare):
            candidates = [node.left, *node.comparators]
        elif isinstance(node, ast.MatchValue):
            candidates = [node.value]
        found += [(c.lineno, c.value) for c in candidates if game_constant(c)]
    return found


def test_a_game_name_is_a_dispatch_key_in_one_registry_only():
    offenders = []
    for folder in ("agents", "training", "benchmarks", "notebooks", "envs", "meadowzoo"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if _owned(path):
                continue
            for line, name in _dispatch_keys(ast.parse(path.read_text(), str(path))):
                offenders.append(f"{path.relative_to(ROOT)}:{line}: {name!r}")
    assert not offenders, "game names dispatched outside envs/registry.py and the games' own modules:\n" + \
        "\n".join(offenders)
    # the check itself finds what it is meant to find
    sample = 'x = {"haste_bock": 1}\nif g == "volle_wolle": pass\ny["hase_und_igel"]\nprint("haste_bock")'
    assert sorted(_dispatch_keys(ast.parse(sample))) == [(1, "haste_bock"), (2, "volle_wolle"), (3, "hase_und_igel")]


def test_committed_notebooks_are_what_build_writes():
    """The notebooks' cells come from notebooks/build.py (game facts from the plug-ins)."""
    import nbformat

    sys.path.insert(0, str(ROOT / "notebooks"))
    try:
        import build
    finally:
        sys.path.remove(str(ROOT / "notebooks"))
    assert set(build.NOTEBOOKS) >= {g for g in GAMES if plugin(g).notebook is not None}
    for name, cells in build.NOTEBOOKS.items():
        committed = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
        assert [(c.cell_type, c.source) for c in committed.cells] == list(cells()), name


def test_a_new_game_needs_only_its_plugin(monkeypatch):
    """A fourth game declared with only the required fields (here: an existing env under a new
    name) is playable by every game-independent part of the house; what it does not declare is
    a clear error or a documented neutral default."""
    from meadowzoo.envs import registry
    from meadowzoo.training.config import TrainConfig, game_config
    from meadowzoo.training.evaluate import evaluate

    module = type(sys)("fourth_game_plugin")
    module.PLUGIN = GamePlugin(name="fourth_game", title="Fourth", env_module="meadowzoo.envs.volle_wolle_v0",
                               player_counts=(2, 3))
    monkeypatch.setitem(sys.modules, "fourth_game_plugin", module)
    monkeypatch.setitem(registry.GAMES, "fourth_game", "fourth_game_plugin")
    monkeypatch.delitem(registry._PLUGINS, "fourth_game", raising=False)
    try:
        result = evaluate("fourth_game", 2, ["random", "mcts:3:depth=4"], games=2, seed=0, progress=False)
        assert result["games"] == 2 and result["game"] == "fourth_game"
        assert game_config("fourth_game") == TrainConfig()
        with pytest.raises(ValueError, match="no heuristic players for game 'fourth_game'"):
            make_agent("strong", "fourth_game")
        with pytest.raises(ValueError, match="'lookahead' is for hase_und_igel, haste_bock only"):
            make_agent("lookahead:x.pt", "fourth_game")
    finally:
        registry._PLUGINS.pop("fourth_game", None)
