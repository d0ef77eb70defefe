"""Screenshots of each game in the browser for the README (docs/images/browser_<game>.png).

    python -m tests.web.screenshots [docs/images]

Starts the app, begins a game of each game in the lobby (a person against agents), plays some
moves by clicking the page as the browser tests do, and saves the page.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from meadowzoo.agents import make_agent
from tests.web.browser import chrome, click_move, start_game_in_lobby, wait_for_decision
from tests.web.support import running_server

#: game -> (seats, seed, moves to click before the picture)
SCENES = {
    "hase_und_igel": (["human", "strong", "greedy", "random"], 3, 14),
    "haste_bock": (["human", "strong", "greedy"], 5, 12),
    "volle_wolle": (["greedy", "human", "strong"], 4, 11),
}


def main(out: str = "docs/images") -> None:
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    driver = chrome(1400, 900)
    try:
        with running_server() as (app, base):
            for game, (seats, seed, clicks) in SCENES.items():
                game_id = start_game_in_lobby(driver, base, game, seats, seed)
                session, human = app.games[game_id], seats.index("human")
                chooser, version = make_agent("greedy", game, seed), -1
                for _ in range(clicks):
                    state = wait_for_decision(driver, game_id, version)
                    with session.cond:
                        twin = session.env.clone()
                    click_move(driver, state, chooser.act(twin, f"player_{human}"))
                    version = state["version"]
                wait_for_decision(driver, game_id, version)
                path = folder / f"browser_{game}.png"
                driver.save_screenshot(str(path))
                print(f"wrote {path}")
    finally:
        driver.quit()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="docs/images", help="folder of the pictures (default: docs/images)")
    main(parser.parse_args().out)
