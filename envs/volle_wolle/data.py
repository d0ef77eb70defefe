"""Rule data of Volle Wolle: the constants of the rules and the card list.

The card list (VW-1..VW-3) lives in ONE data file, ``deck.json`` next to this module. It is
**RECONSTRUCTED** (the per-card list of the physical game is not published); owners of the game
can replace it through the env option ``deck=`` (a path to a JSON file of the same shape, or a
list of card dicts). :func:`load_deck` validates a deck and names the bad card in its error.

Card dict fields by kind:

=========  ===============================================================
kind       fields
=========  ===============================================================
white      ``points`` (int), ``modifier`` (``"+N"``, ``"-N"``, ``"bone"`` or ``"none"``),
           ``number`` (sheep number)
black      ``points`` (int), ``number``; optional ``modifier: "none"``
3-7-0      ``number``; optional ``modifier: "none"``
0-0-7      ``number``; optional ``modifier: "none"``
dog        no other field
bone       no other field
=========  ===============================================================
"""

from __future__ import annotations

import json
import os
import reprlib
import stat
from dataclasses import dataclass
from typing import Any

#: the default, RECONSTRUCTED card list
DECK_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "deck.json")

# ---- card kinds ------------------------------------------------------------------------------------
KIND_NAMES = ("white", "black", "3-7-0", "0-0-7", "dog", "bone")
WHITE, BLACK, K370, K007, DOG, BONE = range(6)
SHEEP_KINDS = (WHITE, BLACK, K370, K007)

# ---- composition and components (VW-1, VW-4, VW-5) ------------------------------------------------
NUM_CARDS = 60
NUM_SHEEP = 51
NUM_DOGS = 8
NUM_BONES = 1
DICE = (12, 10, 8)  # d12, d10, d8
DIE_NAMES = ("d12", "d10", "d8")
WOOL_TOTAL = 25
WOOL_START = 2
BETTING_BACKS = (1, 2, 3, 4, 5, 6)  # sheep numbers on the backs of the six betting cards
BID_TARGETS = (14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26)  # last one is "26+"
BID_NAMES = tuple(str(t) for t in BID_TARGETS[:-1]) + ("26+",)
BID_26_PLUS = len(BID_TARGETS) - 1  # index of the "26+" bid: needs and costs one wool (VW-7)
MIN_PLAYERS, MAX_PLAYERS = 2, 6

# ---- rolling (VW-9..VW-11) ------------------------------------------------------------------------
ATTEMPTS = 3
CARDS_FOR_ATTEMPT = (3, 2, 1)
BLACK_SHEEP_LIMIT = 14  # below this after attempt 3: take every black sheep in the display

# ---- scoring (VW-16) ------------------------------------------------------------------------------
SCORE_370 = (0, 3, 14)  # by count modulo 3
SCORE_007_SET = 21  # per complete set of three
ONE_DOG = 9
NO_DOG_REMOVED = 2  # the two lowest white sheep are removed (DECISION: the owner's best choice)
MOST_DOGS = -5
BONE_PER_DOG = 4

_FIELDS = {
    WHITE: {"kind", "points", "modifier", "number"},
    BLACK: {"kind", "points", "number", "modifier"},
    K370: {"kind", "number", "modifier"},
    K007: {"kind", "number", "modifier"},
    DOG: {"kind"},
    BONE: {"kind"},
}
_REQUIRED = {
    WHITE: {"kind", "points", "modifier", "number"},
    BLACK: {"kind", "points", "number"},
    K370: {"kind", "number"},
    K007: {"kind", "number"},
    DOG: {"kind"},
    BONE: {"kind"},
}


@dataclass(frozen=True)
class Deck:
    """A validated card list as flat per-card tables (index = card id)."""

    cards: tuple  # the normalised card dicts (JSON data)
    kind: tuple  # kind code per card
    points: tuple  # printed points (0 for 3-7-0, 0-0-7, dogs, bone)
    modifier: tuple  # +N / -N, 0 for none or bone symbol
    bone_symbol: tuple  # True for sheep cards with the bone symbol
    number: tuple  # sheep number, 0 for dogs and the bone
    bone_card: int  # id of the bone card
    type_of: tuple  # card id -> index of its distinct card type
    type_cards: tuple  # per type: one representative card id

    @property
    def num_types(self) -> int:
        return len(self.type_cards)


#: bounds of a deck file and its numbers: a deck file is a regular file of at most MAX_DECK_BYTES
#: (the shipped one has ~5 KB), card points and modifiers lie within ±MAX_CARD_POINTS and sheep
#: numbers up to MAX_SHEEP_NUMBER (the observation holds them as float32)
MAX_DECK_BYTES = 1 << 20
MAX_CARD_POINTS = 1000
MAX_SHEEP_NUMBER = 10**6


def read_deck_file(path: Any) -> Any:
    """The JSON data of a deck file: ``ValueError`` naming the file if it is not a regular file,
    holds more than :data:`MAX_DECK_BYTES`, is not JSON or is nested too deeply to parse."""
    origin = f"deck file {os.fspath(path)!r}"
    try:
        with open(path, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise ValueError(f"{origin}: not a regular file")
            raw = handle.read(MAX_DECK_BYTES + 1)
    except OSError as error:
        raise ValueError(f"{origin}: cannot read ({error})") from None
    if len(raw) > MAX_DECK_BYTES:
        raise ValueError(f"{origin}: larger than {MAX_DECK_BYTES} bytes")
    try:
        return json.loads(raw.decode("utf-8"))
    except ValueError as error:  # not UTF-8, not JSON, or an integer too long to convert
        raise ValueError(f"{origin}: not valid JSON ({error})") from None
    except RecursionError:
        raise ValueError(f"{origin}: JSON nested too deeply") from None


_SHORT = reprlib.Repr()  # a bad card is quoted shortened: it may be huge or deeply nested
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxother, _SHORT.maxlong = 3, 60, 60, 40


def _card_error(index: int, card: Any, message: str) -> ValueError:
    return ValueError(f"deck card {index} ({_SHORT.repr(card)}): {message}")


def _parse_modifier(index: int, card: dict, text: Any) -> tuple[int, bool]:
    if text in ("none", None):
        return 0, False
    if text == "bone":
        return 0, True
    if (isinstance(text, str) and 2 <= len(text) <= 8 and text[0] in "+-" and text[1:].isascii()
            and text[1:].isdigit() and 0 < int(text[1:]) <= MAX_CARD_POINTS):
        return int(text), False
    raise _card_error(index, card, f"field 'modifier' must be '+N', '-N' (N in 1..{MAX_CARD_POINTS}), 'bone' or "
                                   f"'none', got {_SHORT.repr(text)}")


def load_deck(source: Any = None) -> Deck:
    """Validate and tabulate a deck: ``None`` (the default file), a path, a list of card dicts
    or a dict with a ``"cards"`` list. Errors are ``ValueError`` naming the bad card."""
    origin = "deck"
    if source is None:
        source = DECK_PATH
    if isinstance(source, (str, os.PathLike)):
        origin = f"deck file {os.fspath(source)!r}"
        source = read_deck_file(source)
    if isinstance(source, dict):
        source = source.get("cards")
    if not isinstance(source, (list, tuple)):
        raise ValueError(f"{origin}: expected a list of card dicts (or an object with a 'cards' list)")
    if len(source) != NUM_CARDS:
        raise ValueError(f"{origin}: must hold {NUM_CARDS} cards, holds {len(source)}")
    kinds, points, modifiers, bones, numbers, normal = [], [], [], [], [], []
    seen_numbers: dict[int, int] = {}
    for index, card in enumerate(source):
        if not isinstance(card, dict):
            raise _card_error(index, card, "must be an object")
        kind_name = card.get("kind")
        if kind_name not in KIND_NAMES:
            raise _card_error(index, card, f"field 'kind' must be one of {list(KIND_NAMES)}")
        kind = KIND_NAMES.index(kind_name)
        missing = _REQUIRED[kind] - set(card)
        if missing:
            raise _card_error(index, card, f"missing field {sorted(missing)[0]!r}")
        extra = set(card) - _FIELDS[kind]
        if extra:
            raise _card_error(index, card, f"unexpected field {sorted(extra)[0]!r} for a {kind_name} card")
        value = card.get("points", 0)
        if isinstance(value, bool) or not isinstance(value, int) or not -MAX_CARD_POINTS <= value <= MAX_CARD_POINTS:
            raise _card_error(index, card,
                              f"field 'points' must be an integer in ±{MAX_CARD_POINTS}, got {_SHORT.repr(value)}")
        modifier, bone = _parse_modifier(index, card, card.get("modifier"))
        if kind != WHITE and (modifier or bone):
            raise _card_error(index, card, f"a {kind_name} card has no modifier")
        number = card.get("number", 0)
        if kind in SHEEP_KINDS:
            if (isinstance(number, bool) or not isinstance(number, int)
                    or not max(BETTING_BACKS) < number <= MAX_SHEEP_NUMBER):
                raise _card_error(index, card, f"field 'number' must be an integer in "
                                               f"{max(BETTING_BACKS) + 1}..{MAX_SHEEP_NUMBER}")
            if number in seen_numbers:
                raise _card_error(index, card, f"sheep number {number} repeats card {seen_numbers[number]}")
            seen_numbers[number] = index
        kinds.append(kind)
        points.append(value)
        modifiers.append(modifier)
        bones.append(bone)
        numbers.append(number)
        normal.append(dict(card))
    for kind, expected in ((DOG, NUM_DOGS), (BONE, NUM_BONES)):
        if kinds.count(kind) != expected:
            raise ValueError(f"{origin}: must hold {expected} {KIND_NAMES[kind]} card(s), holds {kinds.count(kind)}")
    signatures: dict[tuple, int] = {}
    type_of, type_cards = [], []
    for card_id in range(NUM_CARDS):
        signature = (kinds[card_id], points[card_id], modifiers[card_id], bones[card_id])
        if signature not in signatures:
            signatures[signature] = len(type_cards)
            type_cards.append(card_id)
        type_of.append(signatures[signature])
    return Deck(
        cards=tuple(normal),
        kind=tuple(kinds),
        points=tuple(points),
        modifier=tuple(modifiers),
        bone_symbol=tuple(bones),
        number=tuple(numbers),
        bone_card=kinds.index(BONE),
        type_of=tuple(type_of),
        type_cards=tuple(type_cards),
    )


def card_label(deck: Deck, card: int) -> str:
    """Short text of a card, e.g. ``W5-1#28`` (white, 5 points, modifier −1, sheep number 28)."""
    kind = deck.kind[card]
    if kind == DOG:
        return "DOG"
    if kind == BONE:
        return "BONE"
    if kind == WHITE:
        mod = "b" if deck.bone_symbol[card] else (f"{deck.modifier[card]:+d}" if deck.modifier[card] else "")
        return f"W{deck.points[card]}{mod}#{deck.number[card]}"
    if kind == BLACK:
        return f"B{deck.points[card]}#{deck.number[card]}"
    return f"{KIND_NAMES[kind]}#{deck.number[card]}"
