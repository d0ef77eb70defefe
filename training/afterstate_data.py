"""Played games as (afterstate, outcome) samples for fitting an afterstate value.

Every game is played by heuristic (or lookahead) players on the bare rules engine. After every
completed turn, the afterstate (the game's encoding module, see
:mod:`meadowzoo.agents.afterstate_value`; e.g. :mod:`meadowzoo.envs.haste_bock.afterstate`, where a
panic ram counts as a turn) is recorded once per *viewer*: each seat whose player the value is
meant to describe (the seats named in ``viewers``; a value "for strong play" should not learn from
how a random player fares). When the game ends, each sample gets its viewer's outcome against
every other slot (the encoding's ``final_targets``):

* ``beats[k]``: 1 if the viewer finished ahead of slot ``k`` (in Haste Bock? HB-24 places: score,
  then unused card values), 0.5 if tied, 0 if behind (slot 0, the viewer itself, is 0.5);
* ``gains[k]``: a helper target of the encoding (in Haste Bock? the points slot ``k`` still
  scored after the afterstate);
* ``episodes``: ``game index * 8 + viewer seat``, the sequence a sample belongs to (samples of one
  episode are in play order), for bootstrapped targets (:mod:`meadowzoo.training.fit_afterstate_value`).

The expected sum of ``beats`` is the viewer's expected number of beaten players, i.e. minus its
expected rank: the quantity the 4-player acceptance criterion (mean rank) is about.

Games are seeded one by one from a master seed and set up and played exactly as tournament games
(:mod:`meadowzoo.training.runner`), so a data set is the same whatever the number of workers.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

import numpy as np

from meadowzoo.envs.core.plugin import load
from meadowzoo.envs.haste_bock import afterstate as first_encoding
from meadowzoo.envs.registry import plugin
from meadowzoo.training.processes import worker_pool
from meadowzoo.training.runner import advance, game_seed, start


@dataclass(frozen=True)
class Lineup:
    """Agent spec per seat and which seats' point of view is recorded."""

    specs: tuple[str, ...]
    viewers: tuple[int, ...]


def lineup_for(index: int, pool: list[tuple[str, ...]], viewer_spec: str) -> Lineup:
    """Game ``index``'s lineup: pool entries in turn, rotated through the seats, so every spec
    sits in every seat equally often; the seats playing ``viewer_spec`` are the viewers."""
    base = pool[index % len(pool)]
    shift = (index // len(pool)) % len(base)
    specs = tuple(base[(i + shift) % len(base)] for i in range(len(base)))
    return Lineup(specs, tuple(i for i, s in enumerate(specs) if s == viewer_spec))


def encoding_of(game: str) -> ModuleType:
    """The afterstate encoding module the game's plug-in declares (``GamePlugin.afterstate``)."""
    module = plugin(game).afterstate
    if module is None:
        raise ValueError(f"{game} declares no afterstate encoding")
    return load(module)


def checked_encoding(parser, game: str, players: int) -> ModuleType:
    """A command line's ``--game`` encoding (:func:`encoding_of`), or a parser error for a game
    without one or a ``--players`` count it does not describe."""
    try:
        encoding = encoding_of(game)
    except (KeyError, ValueError) as err:
        parser.error(f"--game {game!r}: {err}")
    if players not in encoding.PLAYER_COUNTS:
        counts = ", ".join(map(str, encoding.PLAYER_COUNTS))
        parser.error(f"--players must be one of {counts} for {game}, got {players}")
    return encoding


def play_and_record(index: int, master_seed: int, pool: list[tuple[str, ...]], viewer_spec: str,
                    encoding: ModuleType = first_encoding
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One game: ``(records (m, RECORD_SIZE) int16, beats (m, SLOTS) float32, gains (m, SLOTS)
    float32, episodes (m,) int64)``."""
    lineup = lineup_for(index, pool, viewer_spec)
    n = len(lineup.specs)
    env, players = start(encoding.GAME, lineup.specs, game_seed(master_seed, index), {"num_players": n})
    recs: list[np.ndarray] = []
    owners: list[int] = []
    marker: tuple = ()  # the encoding's turn marker, taken ahead of the decision

    def deciding(agent: str) -> None:
        nonlocal marker
        marker = encoding.turn_marker(env.game)

    def decided(agent: str, action: int) -> None:
        game = env.game
        if encoding.turn_ended(marker, game):
            for viewer in lineup.viewers:
                recs.append(encoding.game_record(game, marker[0], viewer))
                owners.append(viewer)

    advance(env, players, before=deciding, after=decided)
    slots = encoding.SLOTS
    records = np.stack(recs) if recs else np.zeros((0, encoding.RECORD_SIZE), dtype=np.int16)
    beats = np.zeros((len(recs), slots), dtype=np.float32)
    gains = np.zeros((len(recs), slots), dtype=np.float32)
    for viewer in lineup.viewers:  # a viewer's samples share its final outcome and slot order
        mine = np.array(owners, dtype=np.int64) == viewer
        beats[mine], gains[mine] = encoding.final_targets(env.game, records[mine], viewer)
    episodes = index * 8 + np.array(owners, dtype=np.int64)
    return records, beats, gains, episodes


def _play_range(args: tuple) -> tuple[np.ndarray, ...]:
    first, stop, master_seed, pool, viewer_spec, game = args
    encoding = encoding_of(game)
    parts = [play_and_record(i, master_seed, pool, viewer_spec, encoding) for i in range(first, stop)]
    return tuple(np.concatenate([p[j] for p in parts]) for j in range(4))


def generate(games: int, master_seed: int, pool: list[tuple[str, ...]], viewer_spec: str = "strong",
             workers: int = 1, chunk: int = 50, encoding: ModuleType = first_encoding
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Samples of ``games`` games (indices 0..games-1), in game order whatever ``workers``; the
    game is the ``encoding``'s (by default Haste Bock?'s, the first game with one)."""
    for specs in pool:
        if viewer_spec not in specs:
            raise ValueError(f"lineup {specs} has no {viewer_spec!r} seat to record")
    jobs = [(s, min(s + chunk, games), master_seed, pool, viewer_spec, encoding.GAME) for s in range(0, games, chunk)]
    if workers > 1:
        with worker_pool(workers) as pool_:
            parts = pool_.map(_play_range, jobs)
    else:
        parts = [_play_range(job) for job in jobs]
    return tuple(np.concatenate([p[j] for p in parts]) for j in range(4))  # type: ignore[return-value]
