"""Games to step through move by move: tournament records and saved games.

Sources:

* a tournament record, game ``index`` of a ``results.json`` written by
  :mod:`meadowzoo.training.evaluate`: replayed from its ``actions`` when the record has them, else by
  playing the seeded game again with the recorded agents (:func:`meadowzoo.training.tournament.play_task`,
  the very code that played it) and checking that the outcome matches the record;
* a saved game (``{"format": "meadowzoo-game", "game", "options", "seed", "actions", …}``), written
  by the browser app once a game is over.

A :class:`Replay` keeps the env after every move, so stepping forward, back or to any move is a
lookup. Frames show every secret: replays are of finished games.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from meadowzoo.envs import GAMES, game_module
from meadowzoo.training.runner import checked_game_seed
from meadowzoo.training.tournament import GameTask, play_task
from meadowzoo.training.web import views
from meadowzoo.training.web.session import SAVED_FORMAT


class Replay:
    def __init__(self, game: str, options: dict, seed: int, actions: list[int], agents: list[str],
                 source: str) -> None:
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}; choose from {sorted(GAMES)}")
        if not isinstance(actions, list) or any(isinstance(a, bool) or not isinstance(a, int) for a in actions):
            raise ValueError("actions must be a list of action indices")
        self.game, self.options, self.seed, self.agents, self.source = game, dict(options), seed, list(agents), source
        env = game_module(game).raw_env(**self.options)
        env.reset(seed=seed)
        self.frames = [env.clone()]
        self.moves: list[dict] = []
        for n, action in enumerate(actions, 1):
            seat = env.game.current_agent
            try:
                name = env.action_to_string(action)
                env.step(action)
            except (ValueError, AssertionError) as error:
                raise ValueError(f"{source}: move {n} ({action}) cannot be played: {error}") from None
            self.moves.append({"n": n, "seat": seat, "action": action, "name": name,
                               "events": views.automatic_events(env)})
            self.frames.append(env.clone())

    def __len__(self) -> int:
        return len(self.moves)

    def frame(self, k: int) -> dict:
        """The position after ``k`` moves (0 = the start): its drawing and the move that led to it."""
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= len(self.moves):
            raise ValueError(f"move must be an integer 0..{len(self.moves)}, got {k!r}")
        env = self.frames[k]
        view, svg = views.picture(env, None, reveal=True)
        return {"k": k, "count": len(self.moves), "svg": svg, "view": view,
                "move": self.moves[k - 1] if k else None}

    def summary(self) -> dict:
        # the seed as text: game seeds are 63-bit, more than a JavaScript number holds exactly
        return {"game": self.game, "options": self.options, "seed": str(self.seed), "agents": self.agents,
                "source": self.source, "count": len(self.moves),
                "moves": [{"n": m["n"], "seat": m["seat"], "name": m["name"]} for m in self.moves]}


# ---- loading ---------------------------------------------------------------------------------------
def from_tournament(result: dict, index: int, source: str = "results.json") -> Replay:
    """Game ``index`` of a tournament result (the parsed ``results.json``)."""
    records = result.get("records")
    if not isinstance(records, list):
        raise ValueError(f"{source} holds no game records")
    found = [r for r in records if isinstance(r, dict) and r.get("index") == index]
    if isinstance(index, bool) or not isinstance(index, int) or not found:
        raise ValueError(f"{source} has no game with index {index!r} (indices 0..{len(records) - 1})")
    record = found[0]
    actions = record.get("actions")
    if actions is None:  # an older record: play the seeded game again with the recorded agents
        task = GameTask(index, result["game"], tuple(record["agents"]), record["seed"], dict(result.get("options") or {}))
        again = play_task(task)
        recorded = record.get("env_rewards", record["rewards"])  # --truncated standing keeps the env's as env_rewards
        if again["decisions"] != record["decisions"] or again["rewards"] != recorded:
            raise ValueError(f"{source} game {index}: playing it again with {list(record['agents'])} gave "
                             f"{again['decisions']} decisions and rewards {again['rewards']}, the record says "
                             f"{record['decisions']} and {recorded} (the agents changed since it was recorded)")
        actions = again["actions"]
    return Replay(result["game"], result.get("options") or {}, record["seed"], actions, list(record["agents"]),
                  f"{source} game {index}")


def from_saved(record: Any, source: str = "saved game") -> Replay:
    """A saved game (see the module docstring); a malformed one raises ``ValueError``."""
    if not isinstance(record, dict) or record.get("format") != SAVED_FORMAT:
        raise ValueError(f"{source} is not a saved meadowzoo game (format {SAVED_FORMAT!r})")
    for key, kind in (("game", str), ("options", dict), ("seed", int), ("actions", list)):
        if not isinstance(record.get(key), kind):
            raise ValueError(f"{source}: field {key!r} must be a {kind.__name__}")
    checked_game_seed(record["seed"], f"{source}: field 'seed'")
    agents = record.get("agents") or []
    return Replay(record["game"], record["options"], record["seed"], record["actions"], agents, source)


def load_file(path: str | Path, index: int | None = None) -> Replay:
    """A saved game file, or game ``index`` of a tournament ``results.json``."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise ValueError(f"cannot read {path}: {error}") from None
    if isinstance(data, dict) and "records" in data:
        if index is None:
            raise ValueError(f"{path} is a tournament result: say which game (--index, 0..{len(data['records']) - 1})")
        return from_tournament(data, index, str(path))
    return from_saved(data, str(path))
