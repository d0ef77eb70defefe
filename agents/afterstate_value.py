"""A learned afterstate value: a small MLP read from a weights-only file, run in numpy.

An *afterstate* is the position once a player's turn is over and before anything random happens.
Each game that has such a value declares an *encoding* module (the plug-in's ``afterstate``, e.g.
:mod:`meadowzoo.envs.haste_bock.afterstate`) with

* ``GAME`` (the game's name), ``PLAYER_COUNTS`` (those it describes), ``SLOTS`` (players seen,
  the viewer first), ``RECORD_SIZE``,
  ``INPUT_SIZE`` and ``dense(records, num_players, **options)`` (int records -> network input;
  ``INPUT_OPTIONS`` names its keyword options, e.g. ``rule_terms=False`` leaves the inputs that the
  rules compute from the position at zero, for an ablation; :func:`with_options`);
* ``turn_marker(game)`` (a tuple, the deciding seat first, taken before a decision) and
  ``turn_ended(marker, game)``: whether the decision taken since the marker finished that seat's
  turn (what the recorder of :mod:`meadowzoo.training.afterstate_data` asks);
* ``game_record(game, mover, viewer)``: the record of the live game right after ``mover``'s turn;
* ``final_targets(game, records, viewer)``: the outcome of a finished (or cut) game as the
  ``beats`` row and per-sample ``gains`` that the fit learns (see the module of each game).

The net (:func:`meadowzoo.training.fit_afterstate_value.build_net`) outputs one logit per other
slot, the chance that the viewer finishes ahead of it, then helper outputs that only shape its
hidden layers. The file is a plain dict of tensors and JSON-like metadata, read with
``torch.load(..., weights_only=True)``; the game it was fitted for is stored in it and checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
from threadpoolctl import ThreadpoolController

from meadowzoo.agents import mlp_policy
from meadowzoo.agents.shipped import verify_recorded_sha256

FORMAT = "meadowzoo-afterstate-value-v1"
#: the value's products are small (a turn's options × ~1,000 inputs × 128): with two BLAS threads
#: they ran 4× slower than with one (0.98 against 4.3 ms a call, measured next to other work), and
#: a tournament's or recorder's worker processes oversubscribed the cores. One thread, always, also
#: makes the decisions the same for any number of workers (the thread count changes the kernel
#: and so the last bits of the values).
_BLAS = ThreadpoolController()


class InputVariant:
    """An encoding whose ``dense`` input is built under fixed keyword options; every other
    attribute is the encoding module's."""

    def __init__(self, encoding: ModuleType, options: Mapping[str, Any]) -> None:
        self._encoding = encoding
        self.options = dict(options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._encoding, name)

    def dense(self, records: np.ndarray, num_players: int) -> np.ndarray:
        return self._encoding.dense(records, num_players, **self.options)


def with_options(encoding: ModuleType, options: Mapping[str, Any] | None) -> ModuleType | InputVariant:
    """``encoding`` with its input built under ``options`` (the module itself when there are none);
    an option the encoding does not declare in ``INPUT_OPTIONS`` is an error."""
    if not options:
        return encoding
    unknown = sorted(set(options) - set(encoding.INPUT_OPTIONS))
    if unknown:
        raise ValueError(f"{encoding.GAME}'s afterstate input has no option {', '.join(unknown)} "
                         f"(it has: {', '.join(encoding.INPUT_OPTIONS)})")
    return InputVariant(encoding, options)


def is_share(text: str) -> bool:
    """Whether a spec setting's value is a share in [0, 1] (the lookahead players' ``explore=E``)."""
    try:
        return 0.0 <= float(text) <= 1.0
    except ValueError:
        return False


def spec_settings(parameter: str) -> tuple[str, list[tuple[str, str, str]]]:
    """A lookahead spec parameter ``path[:key=value...]`` as the path and its settings
    ``(setting, key, value)``; a key given twice is a ``ValueError``."""
    path, *settings = parameter.split(":")
    parsed = [(setting, *setting.partition("=")[::2]) for setting in settings]
    keys = [key for _, key, _ in parsed]
    for key in keys:
        if keys.count(key) > 1:
            raise ValueError(f"lookahead setting {key!r} given twice in {parameter!r}")
    return path, parsed


def input_options(encoding: ModuleType | InputVariant) -> dict[str, Any]:
    """The input options of an encoding (none for the module itself)."""
    return dict(getattr(encoding, "options", {}))


class AfterstateValue:
    """The fitted MLP of one game: afterstate records -> chance of finishing ahead of each slot.
    A game's subclass names its encoding module in ``encoding``; a value fitted with input options
    (stored in its file) reads its input with them."""

    encoding: ModuleType | InputVariant

    def __init__(self, weights: list[tuple[np.ndarray, np.ndarray]], num_players: int, meta: dict) -> None:
        size = self.encoding.INPUT_SIZE
        if weights[0][0].shape[1] != size:
            raise ValueError(f"value net reads {weights[0][0].shape[1]} inputs, the encoding has {size}")
        self.weights = weights
        self.num_players = num_players
        self.meta = meta

    @classmethod
    def from_file(cls, path: str | Path) -> "AfterstateValue":
        import torch

        verify_recorded_sha256(path)
        if mlp_policy.file_format(Path(path)) in mlp_policy.FORMATS:  # a network's numpy export, not a value
            raise ValueError(f"{path} is a policy network, not an afterstate value file: play it with "
                             f"policy:{path} or sampled:{path}")
        try:
            payload = torch.load(Path(path), map_location="cpu", weights_only=True)
        except FileNotFoundError:
            raise
        except Exception as err:  # not a torch file, or one holding more than tensors and plain data
            raise ValueError(f"{path} is not a meadowzoo afterstate value file ({FORMAT}): {err}") from err
        if not isinstance(payload, dict) or payload.get("format") != FORMAT:
            raise ValueError(f"{path} is not a meadowzoo afterstate value file ({FORMAT})")
        game = cls.encoding.GAME
        if payload.get("game", game) != game:
            raise ValueError(f"{path} is an afterstate value of {payload.get('game')!r}, not of {game!r}")
        try:
            state = payload["state_dict"]
            weights = [(state[f"layers.{2 * i}.weight"].numpy(), state[f"layers.{2 * i}.bias"].numpy())
                       for i in range(len(payload["hidden"]) + 1)]
            num_players = int(payload["num_players"])
            options = dict(payload.get("input_options") or {})
        except (KeyError, TypeError, AttributeError, ValueError) as err:
            raise ValueError(f"{path}: malformed afterstate value file ({err!r} missing or wrong)") from err
        value = cls(weights, num_players, {k: v for k, v in payload.items() if k != "state_dict"})
        value.encoding = with_options(cls.encoding, options)
        return value

    def beats(self, records: np.ndarray) -> np.ndarray:
        """``(batch, SLOTS)`` chances that the viewer finishes ahead of slot k (slot 0: 0.5)."""
        slots = self.encoding.SLOTS
        x = self.encoding.dense(records, self.num_players)
        with _BLAS.limit(limits=1, user_api="blas"):
            for i, (w, b) in enumerate(self.weights):
                x = x @ w.T + b
                if i < len(self.weights) - 1:
                    x = np.maximum(x, 0.0)
        out = np.full((len(x), slots), 0.5, dtype=np.float32)
        out[:, 1:] = 1.0 / (1.0 + np.exp(-x[:, : slots - 1]))
        return out

    def worth(self, records: np.ndarray) -> np.ndarray:
        """Expected number of players the viewer finishes ahead of (ties count half)."""
        return self.beats(records)[:, 1:self.num_players].sum(axis=1)
