"""The installed package (issue #14): the wheel installs one package, ``meadowzoo``, carries the
data files and shipped agents, and works from a folder that has its own ``envs/``, ``agents/`` and
``training/`` packages (which the old bare top-level packages collided with)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: run in the fresh environment from the folder with the look-alike packages
CHECK = textwrap.dedent("""
    import sys, pathlib
    import meadowzoo, pettingzoo, gymnasium, numpy as np
    here = pathlib.Path.cwd()
    assert pathlib.Path(meadowzoo.__file__).is_relative_to(pathlib.Path(sys.prefix)), meadowzoo.__file__
    assert "envs" not in sys.modules and "agents" not in sys.modules and "training" not in sys.modules
    for game in meadowzoo.GAMES:
        env = pettingzoo.make("aec", meadowzoo.env_id(game), num_players=2)
        env.reset(seed=1)
        observation, *_ = env.last()
        assert observation["action_mask"].any()
        view = gymnasium.make(meadowzoo.GYM_IDS[game], opponents="random", num_players=2)
        obs, info = view.reset(seed=1)
        assert obs.shape == view.observation_space.shape
    from meadowzoo.agents import make_agent
    spec = "policy:agents/trained/volle_wolle_2p.pt"
    assert not (here / "agents" / "trained").exists()
    player = make_agent(spec, "volle_wolle", seed=0)
    env = meadowzoo.game_module("volle_wolle").raw_env(num_players=2)
    env.reset(seed=3)
    moves = 0
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        seat = env.agent_selection
        env.step(player.act(env, seat) if seat == "player_0" else make_agent("random", "volle_wolle", 1).act(env, seat))
        moves += 1
    assert moves > 10
    print("OK", moves)
""")


def _site_packages(prefix: Path) -> Path:
    return Path(sysconfig.get_path("purelib", vars={"base": str(prefix), "platbase": str(prefix)}))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    # Built from a copy: setuptools leaves a build/ folder behind, and a stale one in the checkout
    # would put deleted files into later wheels.
    source = tmp_path_factory.mktemp("source") / "meadowzoo"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "runs", "*.egg-info", "__pycache__", ".pytest_cache"))
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(out), str(source)], check=True, cwd=out)
    (built,) = out.glob("meadowzoo-*.whl")
    return built


def test_wheel_holds_one_package_with_data_and_shipped_agents(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names if not name.split("/")[0].endswith((".dist-info", ".data"))}
    assert top == {"meadowzoo"}
    for expected in ["meadowzoo/envs/volle_wolle/deck.json", "meadowzoo/agents/trained/volle_wolle_2p.pt",
                     "meadowzoo/agents/trained/haste_bock_4p.pt", "meadowzoo/agents/trained/hase_und_igel_2p.json",
                     "meadowzoo/training/cli.py", "meadowzoo/envs/core/aec.py",
                     "meadowzoo/training/web/static/index.html", "meadowzoo/training/web/static/app.js",
                     "meadowzoo/training/web/static/style.css"]:
        assert expected in names
    # the version is written once, in meadowzoo/__init__.py, and the wheel's metadata carries it
    import meadowzoo

    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert f"\nVersion: {meadowzoo.__version__}\n" in metadata
    assert wheel.name.startswith(f"meadowzoo-{meadowzoo.__version__}-")
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    scripts = zipfile.ZipFile(wheel).read(entry_points).decode()
    for script in ["meadowzoo-train", "meadowzoo-evaluate", "meadowzoo-play", "meadowzoo-results", "meadowzoo-serve"]:
        assert script in scripts


def test_wheel_in_a_fresh_environment_beside_lookalike_packages(wheel, tmp_path):
    # A fresh venv that sees this environment's dependencies (numpy, torch, PettingZoo …) through a
    # .pth line, but not its editable meadowzoo (.pth files on that path are not executed).
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    here_site = _site_packages(Path(sys.prefix))
    (_site_packages(env_dir) / "deps.pth").write_text(f"{here_site}\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q",
                    str(wheel)], check=True)
    user = tmp_path / "user_project"
    for package in ["envs", "agents", "training"]:
        (user / package).mkdir(parents=True)
        (user / package / "__init__.py").write_text(f"raise ImportError('the user\\'s own {package} was imported')\n")
    (user / "training" / "data.csv").write_text("a,b\n1,2\n")
    environment = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONHOME"}}
    done = subprocess.run([str(python), "-c", CHECK], cwd=user, env=environment, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("OK")
    helped = subprocess.run([str(python), "-m", "meadowzoo.training.evaluate", "--help"], cwd=user,
                            env=environment, capture_output=True, text=True)
    assert helped.returncode == 0 and "usage" in helped.stdout, helped.stderr
    script = subprocess.run([str(env_dir / "bin" / "meadowzoo-evaluate"), "--help"], cwd=user, env=environment,
                            capture_output=True, text=True)
    assert script.returncode == 0 and "usage" in script.stdout, script.stderr
