"""Set-ups for Volle Wolle rule tests: chosen cards, herds, wool and scripted dice."""

from __future__ import annotations

import numpy as np

from meadowzoo.envs.volle_wolle import data
from meadowzoo.envs.volle_wolle.rules import VolleWolleGame, default_deck

KIND = {name: i for i, name in enumerate(data.KIND_NAMES)}


def cards(kind: str, points: int | None = None, modifier: str | None = None, count: int = 1, skip: int = 0) -> list[int]:
    """Ids of ``count`` cards of the default deck matching kind / points / modifier text."""
    deck = default_deck()
    found = []
    for c, spec in enumerate(deck.cards):
        if spec["kind"] != kind:
            continue
        if points is not None and spec.get("points") != points:
            continue
        if modifier is not None and spec.get("modifier", "none") != modifier:
            continue
        found.append(c)
    assert len(found) >= skip + count, (kind, points, modifier)
    return found[skip : skip + count]


def card(kind: str, points: int | None = None, modifier: str | None = None, skip: int = 0) -> int:
    return cards(kind, points, modifier, 1, skip)[0]


def make_game(n: int, display: list[int], herds: dict | None = None, dogs: dict | None = None,
              wool: dict | None = None, bone: int = -1, seed: int = 0, backs: list[int] | None = None) -> VolleWolleGame:
    """A game at the start of a bidding round with the given display, herds, dogs and wool."""
    g = VolleWolleGame(n, rng=np.random.default_rng(seed))
    herds = herds or {}
    dogs = dogs or {}
    used = list(display)
    g.herd = [list(herds.get(p, [])) for p in range(n)]
    g.dogs = [list(dogs.get(p, [])) for p in range(n)]
    for p in range(n):
        used += g.herd[p] + g.dogs[p]
    g.bone = bone
    if bone >= 0:
        used.append(default_deck().bone_card)
    assert len(set(used)) == len(used), "a card is used twice"
    g.pile = [c for c in g.pile + [c for c in g.display if c >= 0] if c not in used]
    g.display = list(display) + [-1] * (n + 1 - len(display))
    for p, w in (wool or {}).items():
        g.wool[p] = w
    g.supply = data.WOOL_TOTAL - sum(g.wool)
    if backs is not None:
        g.back = list(backs)
    g._init_derived()
    return g


class ScriptedDice:
    """Stands in for the generator: ``random()`` yields the scripted pips (``"d12=12 d10=10 d8=3"``)."""

    def __init__(self, *rolls: str):
        self.queue = []
        for roll in rolls:
            for token in roll.split():
                die, value = token.split("=")
                self.queue.append((int(value), data.DICE[data.DIE_NAMES.index(die)]))

        self.after = np.random.default_rng(0)  # once the script is used up

    def random(self) -> float:
        if not self.queue:
            return self.after.random()
        value, sides = self.queue.pop(0)
        return (value - 0.5) / sides


def script(game: VolleWolleGame, *rolls: str) -> ScriptedDice:
    game.rng = ScriptedDice(*rolls)
    return game.rng


def bid_all(game: VolleWolleGame, bids: list[str]) -> None:
    """Every player bids (``"24"``, ``"26+"``)."""
    for b in bids:
        game.apply(game.string_to_action(f"bid {b}"))


def act(game: VolleWolleGame, text: str) -> None:
    game.apply(game.string_to_action(text))


def legal_names(game: VolleWolleGame) -> list[str]:
    return [game.action_to_string(a) for a in game.legal_actions()]


def recount_scores(game: VolleWolleGame) -> list[int]:
    """Every player's points recounted by VW-16 from the cards held now (independent of the engine)."""
    recount = []
    deck = game.deck
    dogs = [len(d) for d in game.dogs]
    for p in range(game.num_agents):
        herd = game.herd[p]
        whites = sorted(deck.points[c] for c in herd if deck.kind[c] == data.WHITE)
        blacks = sum(deck.points[c] for c in herd if deck.kind[c] == data.BLACK)
        n370 = sum(deck.kind[c] == data.K370 for c in herd)
        n007 = sum(deck.kind[c] == data.K007 for c in herd)
        total = sum(whites) + blacks + (0, 3, 14)[n370 % 3] + 21 * (n007 // 3) + game.wool[p]
        total += 9 if dogs[p] == 1 else (-sum(whites[:2]) if dogs[p] == 0 else 0)
        # most dogs (all tied for most): -5; DECISION (rules.py): "The most-dogs penalty needs at least
        # one dog" -- nobody is penalised while nobody holds a dog
        total += -5 if dogs[p] >= 1 and dogs[p] == max(dogs) else 0
        total += 4 * dogs[p] if game.bone == p else 0
        recount.append(total)
    return recount


def check_game(game: VolleWolleGame) -> None:
    """Wool conserved, every card held once, and every player's points equal to a recount by VW-16."""
    n = game.num_agents
    assert sum(game.wool) + game.supply == data.WOOL_TOTAL
    held = sorted(c for p in range(n) for c in game.cards_of(p))
    assert held == list(range(60))
    assert game.scores() == recount_scores(game)
