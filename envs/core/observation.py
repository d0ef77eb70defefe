"""Declared observation layouts: every game lists its observation vector as named blocks.

A game's ``envs/<game>/observation.py`` declares ``LAYOUT``, a :class:`Layout`: the variables its
sizes depend on (e.g. ``n`` players) and, in vector order, its :class:`Block` s — name, size,
meaning and a plain reference encoding. From that one declaration come

* the offsets and sizes of every block for a configuration (:meth:`Layout.slices`), which the
  env's fast encoder and its constants use and ports of a game (JAX) can read;
* the observation table of the env module's docstring (:meth:`Layout.table`; the text between
  the ``<!-- observation:start -->`` and ``<!-- observation:end -->`` markers, rewritten by
  ``python -m meadowzoo.envs.core.observation``; a test checks that every docstring matches);
* a reference encoder (:meth:`Layout.reference`): each block's values written out in plain Python
  from the rules state, float by float. The fast encoders (byte tables, memos) are tested against
  it at every step of random games.

Sizes are sums of terms ``c``, ``v`` or ``c*v`` over the layout's variables, e.g. ``"70*R"`` or
``"11*n + 11"``, so that offsets can be written symbolically in the docstring.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

#: (env, seat) -> the block's values for the observer in ``seat`` (plain Python, any sequence)
Reference = Callable[[Any, int], Sequence[float]]

START, END = "<!-- observation:start -->", "<!-- observation:end -->"


def _linear(text: str) -> dict[str, int]:
    """``"11*n + 11"`` -> ``{"n": 11, "": 11}`` (the constant under the key ``""``)."""
    form: dict[str, int] = {}
    for term in text.replace(" ", "").split("+"):
        match = re.fullmatch(r"(\d+)?\*?([A-Za-z]\w*)?", term)
        if not term or not match or not (match.group(1) or match.group(2)):
            raise ValueError(f"size term {term!r} of {text!r} is not c, v or c*v")
        coefficient = int(match.group(1) or 1)
        variable = match.group(2) or ""
        form[variable] = form.get(variable, 0) + coefficient
    return form


def _format(form: dict[str, int]) -> str:
    """A linear form as text, its terms in the order they were added (the constant last)."""
    terms = [f"{c}·{v}" if c != 1 else v for v, c in form.items() if v and c]
    if form.get("", 0) or not terms:
        terms.append(str(form.get("", 0)))
    return " + ".join(terms)


@dataclass(frozen=True)
class Block:
    """One named stretch of the observation vector."""

    #: short name, unique within the layout (the docstring's first column; code looks blocks up by it)
    name: str
    #: size, a sum of terms over the layout's variables (see the module docstring)
    size: str
    #: what the values mean (the docstring's last column)
    meaning: str
    #: the plain reference encoding of this block
    reference: Reference

    def size_of(self, values: dict[str, int]) -> int:
        return sum(c * (values[v] if v else 1) for v, c in _linear(self.size).items())


@dataclass(frozen=True)
class Layout:
    """A game's observation: its variables and its blocks in vector order."""

    #: variable name -> meaning, e.g. ``{"n": "number of players"}``
    variables: dict[str, str]
    #: the values of the variables for a game (its configuration)
    bind: Callable[[Any], dict[str, int]]
    blocks: tuple[Block, ...]

    def __post_init__(self) -> None:
        names = [b.name for b in self.blocks]
        if len(set(names)) != len(names):
            raise ValueError(f"block names must be unique: {names}")
        for block in self.blocks:
            unknown = set(_linear(block.size)) - set(self.variables) - {""}
            if unknown:
                raise ValueError(f"block {block.name!r}: size {block.size!r} uses undeclared {sorted(unknown)}")

    # ---- one configuration ------------------------------------------------------------------------
    def slices(self, game: Any) -> dict[str, slice]:
        """Block name -> its slice of the observation vector of ``game``'s configuration."""
        values = self.bind(game)
        out, at = {}, 0
        for block in self.blocks:
            size = block.size_of(values)
            out[block.name] = slice(at, at + size)
            at += size
        return out

    def size(self, game: Any) -> int:
        values = self.bind(game)
        return sum(block.size_of(values) for block in self.blocks)

    def reference(self, env: Any, seat: int) -> np.ndarray:
        """The observation of ``seat``, block by block from the plain reference encodings; each
        block is checked to have its declared size."""
        values = self.bind(env.game)
        parts = []
        for block in self.blocks:
            part = [float(x) for x in block.reference(env, seat)]
            if len(part) != block.size_of(values):
                raise AssertionError(f"reference of block {block.name!r} has {len(part)} values, "
                                     f"declared {block.size} = {block.size_of(values)}")
            parts += part
        return np.array(parts, dtype=np.float32)

    # ---- documentation ----------------------------------------------------------------------------
    def table(self) -> str:
        """The docstring table: variables, then | block | offset | size | meaning | in vector order."""
        lines = []
        if self.variables:
            lines += ["Sizes and offsets use " + "; ".join(f"{v} = {m}" for v, m in self.variables.items()) + ".", ""]
        lines += ["| block | offset | size | meaning |", "|---|---|---|---|"]
        offset: dict[str, int] = {}
        for block in self.blocks:
            size = _linear(block.size)
            lines.append(f"| {block.name} | {_format(offset)} | {_format(size)} | {block.meaning} |")
            for v, c in size.items():
                offset[v] = offset.get(v, 0) + c
        lines.append(f"| (total) | | {_format(offset)} | |")
        return "\n".join(lines)


def documented_table(docstring: str) -> str:
    """The text between the observation markers of a docstring."""
    if START not in docstring or END not in docstring:
        raise ValueError(f"the docstring has no {START} … {END} markers")
    return docstring.split(START, 1)[1].split(END, 1)[0].strip("\n")


def write_table(path: str, layout: Layout) -> bool:
    """Rewrite the table between the markers of the file at ``path``; True if it changed."""
    text = open(path, encoding="utf-8").read()
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    new = head + START + "\n" + layout.table() + "\n" + END + tail
    if new != text:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(new)
    return new != text


def main() -> None:
    """Rewrite the observation table of every registered game's env module from its declaration
    (the env class's ``observation_layout``)."""
    from meadowzoo.envs.registry import GAMES, game_module

    for game in GAMES:
        env_class = type(game_module(game).raw_env())
        path = sys.modules[env_class.__module__].__file__
        changed = write_table(path, env_class.observation_layout)
        print(f"{path}: {'rewritten' if changed else 'up to date'}", file=sys.stderr)


if __name__ == "__main__":
    main()
