"""The pictures of the games in the README (``docs/images/<game>.png``).

    python -m docs.pictures [docs/images]

Plays a seeded game of each game with the strong heuristic in every seat for a fixed number of
decisions and draws the position as a spectator sees it, with the same drawing code the browser
app and the replay GIFs use (``envs/<game>/view.py`` and ``drawing.py`` on
``meadowzoo.envs.core.scene``). Same code, same pictures.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from meadowzoo.agents import make_agent
from meadowzoo.envs import plugin
from meadowzoo.envs.core.plugin import load
from meadowzoo.envs.registry import game_module

#: game -> (players, seed, decisions played before the picture)
SCENES = {
    "hase_und_igel": (4, 3, 40),
    "haste_bock": (3, 5, 30),
    "volle_wolle": (4, 4, 41),
}


def position(game: str, players: int, seed: int, decisions: int):
    """The raw env of ``game`` after ``decisions`` moves of strong players (seeded)."""
    env = game_module(game).raw_env(num_players=players)
    env.reset(seed=seed)
    agents = {name: make_agent("strong", game, seed + i) for i, name in enumerate(env.possible_agents)}
    for _ in range(decisions):
        name = env.agent_selection
        if env.terminations[name] or env.truncations[name]:
            break
        env.step(agents[name].act(env, name))
    return env


def picture(game: str, players: int, seed: int, decisions: int):
    """A spectator's view of that position, as a Pillow image."""
    view = load(plugin(game).view)
    env = position(game, players, seed, decisions)
    return view.draw(view.seat_view(env.game, None)).image()


def main(out: str = "docs/images") -> list[Path]:
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for game, scene in SCENES.items():
        path = folder / f"{game}.png"
        picture(game, *scene).save(path)
        print(f"wrote {path}")
        written.append(path)
    return written


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="docs/images", help="folder of the pictures (default: docs/images)")
    main(parser.parse_args().out)
