# noqa: D212, D415
"""
# Haste Bock?

Zoch 2006 (a re-edition of *Shear Panic* by Gordon & Fraser Lamont): 2–4 players herd their two
sheep on a 9×9 pasture. Rules: `docs/rules/haste_bock.md` (HB-1 … HB-24).

| Creation           | `make("aec", "meadowzoo/haste_bock-v0", num_players=4)`            |
|--------------------|--------------------------------------------------------------------|
| Actions            | Discrete                                                           |
| Parallel API       | No                                                                 |
| Manual Control     | Yes (`action_to_string` / `string_to_action`)                      |
| Agents             | `['player_0', …, 'player_{n-1}']`, seat order = turn order         |
| Players            | 2, 3 or 4 (option `num_players`, default 4)                        |
| Action Shape       | (1,)                                                               |
| Action Values      | Discrete(996)                                                      |
| Observation Shape  | {"observation": (1036,) float32, "action_mask": (996,) int8}       |
| Observation Values | see the table below                                                |

Seat *i* plays colour *i* (blue, yellow, green, red). With 3 players red is neutral, with 2 players
green and red are neutral; Thea (black) belongs to nobody.

### Decisions

A player's turn is two or three consecutive decisions of the same agent:

1. **card** – `play <type> (card v)`: one of the player's action cards; only cards with at least
   one legal move are offered. If no card has a legal move the legal actions are
   `discard <type> (card v)` instead (HB-11, DECISION) and decision 2 is skipped.
2. **move** – the concrete move of the chosen card, e.g. `ram blue-1 NE target 2`.
3. **time tile** – only with 2 players (mandatory, one of the remaining 1s/2s/3s) or 3 players
   (optional: `no time tile` or a remaining tile); the move is already on the board, the time
   marker moves by card + tile afterwards.

The card leaves the game when it is chosen. Splitting card and move keeps the action space small
(996 instead of 1,700+ indices with a value copy of every move) and the move generation cheap.

A **panic ram** (the opening, HB-8, and a turn ending on a panic space, HB-9) is a decision of the
rolling player: the die is rolled from the env's seeded generator when the panic is triggered and
shown in the observation; the player picks a ram with a sheep of the rolled colour. A roll that
allows no ram is void and resolved without a decision.

### Observation (egocentric: "seat 0" = the observer, then the following seats)

The table is generated from the declaration in `envs/haste_bock/observation.py`
(`python -m meadowzoo.envs.core.observation`):

<!-- observation:start -->
| block | offset | size | meaning |
|---|---|---|---|
| sheep planes | 0 | 729 | 9 planes of 81 squares (index row·9 + col, row 0 = north): planes 2k, 2k+1 are the first and second sheep (`<colour>-1`, `<colour>-2`, the names the actions use) of egocentric seat k; a neutral colour c keeps planes 2c, 2c+1; plane 8 is Thea |
| facing | 729 | 4 | common facing, one-hot N E S W |
| shepherds | 733 | 2 | Roger present (phase 2), Jacques present (phase 4); they stand beyond the edge the flock faces |
| time | 735 | 75 | time marker 0–74, one-hot |
| phase | 810 | 5 | phase 0 (before the first turn) … 4, one-hot |
| scores | 815 | 4 | scores / 50, egocentric seats |
| cards | 819 | 84 | remaining action cards per egocentric seat (21 each): count per kind, kind = type·3 + value−1, types step, ram, leap, diagonal caravan, row/column caravan, trough, herd |
| tiles | 903 | 12 | remaining time tiles per egocentric seat (3 each): count of 1s, 2s, 3s |
| no trough | 915 | 4 | no-undo: trough side N E S W the player of the current or next action card may not play (HB-16): during a panic ram the next player's; zeros once over |
| no herd | 919 | 2 | no-undo: herd sense cw, ccw the player of the current or next action card may not play (HB-17): during a panic ram the next player's; zeros once over |
| pending | 921 | 5 | pending decision: card, discard fallback, move, time tile, panic ram (zeros once over) |
| decider | 926 | 4 | deciding player, egocentric seat one-hot (all zero once over) |
| die | 930 | 6 | die result during a panic ram: blue, yellow, green, red, black, white |
| opening | 936 | 1 | 1 during the opening panic |
| chosen card | 937 | 21 | the card chosen this turn (kind one-hot) while its move or the time tile is pending |
| panic track | 958 | 75 | panic spaces on the track (from the rule data) |
| players | 1033 | 3 | number of players 2/3/4, one-hot |
| (total) | | 1036 | |
<!-- observation:end -->

Everything is public (the cards lie open), except future die rolls.

### Action space (996 indices; every index has a readable, typeable string)

Moves name the mover's own sheep (`blue-1` is the first blue sheep in reading order at the
start); kind = type*3 + value-1 with types step, ram, leap, diagonal caravan, row/column caravan,
trough, herd.

| indices   | string | index inside the block |
|-----------|--------|------------------------|
| 0–20      | `play <type> (card v)`, e.g. `play ram (card 3)` | kind |
| 21–41     | `discard <type> (card v)` (HB-11 fallback) | kind |
| 42–57     | `step <own sheep> <dir>` | sheep*8 + dir |
| 58–185    | `ram <own sheep> <dir> target <k>` | (sheep*8 + dir)*8 + k-1 |
| 186–313   | `leap <own sheep> <dir> over <k>` | (sheep*8 + dir)*8 + k-1 |
| 314–373   | `diagonal caravan <north-most square> <dir>` | diagonal*2 + (0 SE/NE, 1 NW/SW) |
| 374–409   | `row caravan <r> E/W`, `column caravan <c> S/N` | line*2 + (0 E/S, 1 W/N), rows 0–8 then columns 0–8 |
| 410–413   | `trough N/E/S/W` | side |
| 414–415   | `herd cw`, `herd ccw` | sense |
| 416–991   | `panic ram <sheep> <dir> target <k>` | sheep*64 + dir*8 + k-1 (sheep 0–7 colours, 8 Thea) |
| 992–995   | `no time tile`, `time tile 1`, `time tile 2`, `time tile 3` | |

Directions are N NE E SE S SW W NW (indices 0–7). `target k` is the k-th sheep on the ray
(empty squares may lie between); `over k` leaps the first k sheep on the ray. Squares are
written `r<row>c<col>`; diagonals are numbered "\\" lines (r−c = −7 … 7) then "/" lines
(r+c = 1 … 15).

### Rewards

At the end, by final rank (score, then the sum of unused action-card values; further ties
share): first +1, last −1, linear between. Truncation by `max_turns` gives 0, or with
`truncation_scoring="standing"` the rank rewards of the standing at the cut (the same ranking of
the points so far).

### Options

| option | default | meaning |
|--------|---------|---------|
| `num_players` | 4 | 2, 3 or 4 |
| `layout` | `"random"` | start block: `"random"` (one of the 48 valid layouts, seeded) or `"fixed"` (`B Y G / R Thea B / Y G R`) |
| `facing` | `"N"` | start facing of the flock |
| `phase2_rows` | `"occupied"` | phase-2 rows: `"occupied"` (only occupied rows count, Hungarian text) or `"consecutive"` (four consecutive rows from the front-most sheep, Chinese text) |
| `rule_data` | `None` | replacement of the RECONSTRUCTED table (`cards`, `panic_spaces`, tiles), see `envs/haste_bock/data.py` |
| `max_turns` | 1000 | the game is cut as its `max_turns`-th player turn begins (the opening is turn 0; see docs/environments.md) |
| `truncation_scoring` | `"draw"` | a `max_turns` cut scores 0 for everybody (`"draw"`) or by the standing at the cut (`"standing"`, see `meadowzoo.envs.core.standing`) |
| `render_mode` | `None` | `"ansi"`, `"rgb_array"` or `"human"` |

### Version History

* v0: initial release.
"""

from __future__ import annotations

import struct
from operator import add
from typing import Any

import numpy as np

from meadowzoo.envs.core.aec import FLOAT32, MeadowEnv, unknown_options
from meadowzoo.envs.haste_bock import data as D
from meadowzoo.envs.haste_bock import render
from meadowzoo.envs.haste_bock.observation import LAYOUT, SCORE_SCALE, sheep_plane
from meadowzoo.envs.haste_bock.rules import CARD, DISCARD_BASE, MOVE, NUM_KINDS, OVER, PANIC, TILE, HasteBockGame, check_config

# observation layout: the block offsets of the declaration (see observation.py)
_AT = {name: part.start for name, part in LAYOUT.slices(None).items()}
PLANES = _AT["sheep planes"]
NUM_PLANES = 9  # one per sheep: 2 per egocentric seat (or neutral colour), then Thea
FACING, SHEPHERD, TIME, PHASE, SCORES = _AT["facing"], _AT["shepherds"], _AT["time"], _AT["phase"], _AT["scores"]
CARDS, TILES, NO_TROUGH, NO_HERD, PENDING = _AT["cards"], _AT["tiles"], _AT["no trough"], _AT["no herd"], _AT["pending"]
DECIDER, DIE, OPENING, CHOSEN_CARD = _AT["decider"], _AT["die"], _AT["opening"], _AT["chosen card"]
PANIC_TRACK, PLAYERS = _AT["panic track"], _AT["players"]
OBS_SIZE = LAYOUT.size(None)
PACK_COUNTS = struct.Struct(f"<{NO_TROUGH - CARDS}f").pack_into  # cards and tiles, as floats

OPTION_DEFAULTS: dict[str, Any] = {
    "num_players": 4,
    "layout": "random",
    "facing": "N",
    "phase2_rows": "occupied",
    "rule_data": None,
}


class HasteBockEnv(MeadowEnv):
    metadata = {**MeadowEnv.metadata, "name": "haste_bock_v0"}
    default_max_turns = 1000
    game_class = HasteBockGame
    observation_layout = LAYOUT

    def _check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        unknown = set(options) - set(OPTION_DEFAULTS)
        if unknown:
            raise unknown_options(unknown, OPTION_DEFAULTS)
        merged = {**OPTION_DEFAULTS, **options}
        merged["rule_data"] = D.check_rule_data(merged["rule_data"])
        check_config(merged["num_players"], merged["layout"], merged["facing"], merged["phase2_rows"])
        merged["num_players"] = int(merged["num_players"])  # a numpy integer is stored as JSON's int
        return merged

    def _game_from_dict(self, data: dict) -> HasteBockGame:
        game = HasteBockGame.from_dict(data)
        o = self.options
        expected = {"num_players": o["num_players"], "rule_data": o["rule_data"], "phase2_rows": o["phase2_rows"]}
        if game.config() != expected:
            raise ValueError("snapshot field 'game' has a 'config' that does not match this env's options")
        return game

    def _observation_size(self, game: HasteBockGame) -> int:
        n = game.num_agents
        template = np.zeros(OBS_SIZE, dtype=np.float32)
        template[[PANIC_TRACK + t for t in game.panic_spaces]] = 1.0
        template[PLAYERS + n - 2] = 1.0
        self._template = template
        self._template_bytes = template.tobytes()
        # per observer seat: the plane offset of each sheep. Each sheep has its own plane because
        # the move actions name the sheep (`blue-1`, `blue-2`): a policy must see which is which.
        self._plane_base = [
            [81 * sheep_plane(s, o, seat, n) for s, o in enumerate(game.owner)] for seat in range(n)
        ]
        self._orders = [[(seat + i) % n for i in range(n)] for seat in range(n)]
        self._count_padding = [0] * ((4 - n) * NUM_KINDS)
        self._tile_padding = [0] * ((4 - n) * 3)
        return OBS_SIZE

    def _encode(self, game: HasteBockGame, seat: int) -> np.ndarray:
        # Filled through a float view of a byte buffer: item assignment there is several times
        # cheaper than numpy's (list) indexing, and one numpy array is made at the end.
        buffer = bytearray(self._template_bytes)
        obs = memoryview(buffer).cast("f")
        n = game.num_agents
        for index in map(add, self._plane_base[seat], game.pos):
            obs[index] = 1.0
        phase = game.phase
        obs[FACING + game.facing] = 1.0
        if phase == 2 or phase == 4:
            obs[SHEPHERD + phase // 2 - 1] = 1.0
        obs[TIME + game.time] = 1.0
        obs[PHASE + phase] = 1.0
        pending = game.pending
        if pending != OVER:  # the restrictions of the current or next card; none once over
            if game.no_trough >= 0:
                obs[NO_TROUGH + game.no_trough] = 1.0
            if game.no_herd >= 0:
                obs[NO_HERD + game.no_herd] = 1.0
        if pending == CARD:
            obs[PENDING + (1 if game.is_fallback() else 0)] = 1.0
        elif pending == MOVE or pending == TILE:
            obs[PENDING + pending + 1] = 1.0
            obs[CHOSEN_CARD + game.card_kind] = 1.0
        elif pending == PANIC:
            obs[PENDING + 4] = 1.0
            obs[DIE + game.die] = 1.0
            if game.time == 0:
                obs[OPENING] = 1.0
        if game.player >= 0:
            obs[DECIDER + (game.player - seat) % n] = 1.0
        order = self._orders[seat]
        scores = game.points
        for k, p in enumerate(order):
            obs[SCORES + k] = scores[p] / SCORE_SCALE
        # remaining cards and tiles of every player, observer first (padded to four players)
        hands, tiles = game.hands, game.tiles
        counts = []
        for p in order:
            counts += hands[p]
        counts += self._count_padding
        for p in order:
            counts += tiles[p]
        counts += self._tile_padding
        obs.release()
        PACK_COUNTS(buffer, 4 * CARDS, *counts)
        return np.frombuffer(buffer, FLOAT32)

    def _render_ansi(self) -> str:
        return render.ansi(self.game)

    def _render_rgb(self) -> np.ndarray:
        return render.rgb(self.game)


__all__ = ["HasteBockEnv", "OBS_SIZE", "DISCARD_BASE"]
