"""Portable policies: an actor-critic MLP stored weights-only and played with numpy alone.

The compiled JAX trainer (:mod:`meadowzoo.training.train_jax`) exports its network in this format,
so the policy plays in the PettingZoo env and in tournaments on a machine without JAX or torch:

    python -m meadowzoo.training.evaluate --game volle_wolle --players 2 \\
        --agents policy:runs/volle_wolle-2p-jax-seed0/policy.npz,strong --games 400

File format ``meadowzoo-mlp-policy-v1``: a numpy ``.npz`` archive, read with
``allow_pickle=False`` (no code can run), holding

* ``meta``: a JSON string — ``format``, ``game``, ``env_options``, ``observation_size``,
  ``num_actions``, ``hidden`` (hidden layer widths), ``activation`` (``tanh`` or ``relu``),
  ``note``, ``weights_sha256`` (digest of the arrays below);
* ``actor/<i>/kernel`` ``(in, out)`` and ``actor/<i>/bias`` for each hidden layer ``i`` then the
  output layer (logits over every action), and the same under ``critic/`` (one output: the value).

The forward pass is ``h = act(h @ kernel + bias)`` per hidden layer, then ``h @ kernel + bias``;
illegal actions' logits are masked out.

File format ``meadowzoo-mlp-policy-v2`` (networks trained with ``--conv``): as v1, plus the meta
fields ``conv`` (channel widths) and ``board`` (``[planes, rows, cols]`` of the observation's first
block) and, per part, ``<part>/conv<i>/kernel`` ``(3, 3, in, out)`` and ``<part>/conv<i>/bias``.
Before the dense layers the board block is read as ``(planes, rows, cols)``, turned channels-last,
passed through each 3×3 convolution (zero padding, output the size of the input) and the
activation, flattened row by row (rows, cols, channels) and followed by the rest of the
observation; that vector is ``h`` for the first dense layer. Networks without convolutions are
still written as v1.

:func:`meadowzoo.agents.policy.load_policy` dispatches on the file's ``format`` field, so a
``policy:`` agent spec takes any of these files.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from typing import Any

import numpy as np

from meadowzoo.agents.base import Agent

FORMAT = "meadowzoo-mlp-policy-v1"
FORMAT_CONV = "meadowzoo-mlp-policy-v2"  # v1 with 3x3 convolutions over board planes first
FORMATS = (FORMAT, FORMAT_CONV)
#: hidden activations by name; each takes the array namespace (numpy, or jax.numpy in a search)
ACTIVATIONS = {"tanh": lambda x, xp=np: xp.tanh(x), "relu": lambda x, xp=np: xp.maximum(x, 0.0)}
_META_FIELDS = {"game": str, "env_options": dict, "observation_size": int, "num_actions": int,
                "hidden": list, "activation": str}


def file_format(path: str | Path) -> str | None:
    """The ``format`` field of an ``.npz`` policy file, or ``None`` for any other file (a torch
    policy file is a zip too, but without a ``meta`` member)."""
    try:
        with np.load(Path(path), allow_pickle=False) as archive:
            if "meta" not in archive.files:
                return None
            return json.loads(str(archive["meta"])).get("format")
    except Exception:  # a probe: empty, not a zip, not JSON … -> not this format; the torch reader says why
        return None


def layer_names(part: str, hidden: list[int]) -> list[str]:
    """Array name prefixes of one MLP (``actor`` or ``critic``): hidden layers then the output."""
    return [f"{part}/{i}" for i in range(len(hidden) + 1)]


def weights_sha256(arrays: dict[str, np.ndarray]) -> str:
    digest = hashlib.sha256()
    for name in sorted(arrays):
        array = np.ascontiguousarray(arrays[name], dtype=np.float32)
        digest.update(f"{name}:{array.shape}".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


def save_mlp_policy(path: str | Path, arrays: dict[str, np.ndarray], game: str, env_options: dict,
                    hidden: list[int], activation: str, note: str = "", conv: list[int] | tuple = (),
                    board: list[int] | tuple | None = None) -> Path:
    """Write a policy file atomically (``arrays``: name -> float32 array as in the module docstring;
    ``conv``/``board`` for a network with convolutions, written as format v2)."""
    from meadowzoo.training.files import atomic_write

    arrays = {name: np.asarray(value, dtype=np.float32) for name, value in arrays.items()}
    observation_size = int(arrays["actor/0/kernel"].shape[0])
    if conv:  # the first dense layer reads the flattened last convolution, then the rest
        planes, rows, cols = board
        observation_size += planes * rows * cols - int(conv[-1]) * rows * cols
    meta = {
        "format": FORMAT_CONV if conv else FORMAT, "game": game, "env_options": dict(env_options),
        "observation_size": observation_size,
        "num_actions": int(arrays[f"actor/{len(hidden)}/kernel"].shape[1]),
        "hidden": [int(h) for h in hidden], "activation": activation, "note": note,
        "weights_sha256": weights_sha256(arrays),
    }
    if conv:
        meta["conv"], meta["board"] = [int(c) for c in conv], [int(b) for b in board]
    policy = MlpPolicy(meta, arrays, source=str(path))  # refuses inconsistent arrays before writing
    buffer = io.BytesIO()
    np.savez(buffer, meta=np.array(json.dumps(policy.meta)), **arrays)
    return atomic_write(path, lambda handle: handle.write(buffer.getvalue()))


def load_mlp_policy(path: str | Path) -> "MlpPolicy":
    """Read and check a policy file; any problem is a ``ValueError`` naming the file."""
    from meadowzoo.agents.shipped import verify_recorded_sha256

    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no policy file {path}")
    verify_recorded_sha256(path)
    try:
        with np.load(path, allow_pickle=False) as archive:
            meta = json.loads(str(archive["meta"]))
            arrays = {name: archive[name] for name in archive.files if name != "meta"}
    except Exception as error:  # truncated zip, object arrays (pickles), bad JSON …
        raise ValueError(f"{path}: not a readable {FORMAT} file ({type(error).__name__}: {error})") from None
    return MlpPolicy(meta, arrays, source=str(path))


class MlpPolicy:
    """The network of a policy file: :meth:`forward` gives masked logits and the value."""

    def __init__(self, meta: dict, arrays: dict[str, np.ndarray], source: str = "a policy") -> None:
        if not isinstance(meta, dict) or meta.get("format") not in FORMATS:
            raise ValueError(f"{source}: not a {FORMAT} (or {FORMAT_CONV}) file")
        for field, kind in _META_FIELDS.items():
            if not isinstance(meta.get(field), kind) or isinstance(meta.get(field), bool):
                raise ValueError(f"{source}: policy field {field!r} is missing or malformed")
        if meta["activation"] not in ACTIVATIONS:
            raise ValueError(f"{source}: unsupported activation {meta['activation']!r}")
        if "weights_sha256" in meta and weights_sha256(arrays) != meta["weights_sha256"]:
            raise ValueError(f"{source}: the weights do not match their recorded digest (the file is corrupt)")
        self.meta, self.source = meta, source
        self.meadowzoo = meta  # what PolicyAgent.check_fits reads
        self.activation = ACTIVATIONS[meta["activation"]]
        self.conv, self.board = self._check_board(meta, source)
        self.layers, self.conv_layers = {}, {}
        for part, outputs in (("actor", meta["num_actions"]), ("critic", 1)):
            width = meta["observation_size"]
            self.conv_layers[part] = []
            if self.conv:
                planes, rows, cols = self.board
                channels = planes
                for i, out in enumerate(self.conv):
                    name = f"{part}/conv{i}"
                    kernel, bias = arrays.get(f"{name}/kernel"), arrays.get(f"{name}/bias")
                    if kernel is None or bias is None or kernel.shape != (3, 3, channels, out) or bias.shape != (out,):
                        raise ValueError(f"{source}: layer {name} is missing or not of shape (3, 3, {channels}, {out})")
                    self.conv_layers[part].append((kernel.astype(np.float32), bias.astype(np.float32)))
                    channels = out
                width += (channels - planes) * rows * cols
            layers = []
            for name, out in zip(layer_names(part, meta["hidden"]), meta["hidden"] + [outputs]):
                kernel, bias = arrays.get(f"{name}/kernel"), arrays.get(f"{name}/bias")
                if kernel is None or bias is None or kernel.shape != (width, out) or bias.shape != (out,):
                    raise ValueError(f"{source}: layer {name} is missing or not of shape ({width}, {out})")
                layers.append((kernel.astype(np.float32), bias.astype(np.float32)))
                width = out
            self.layers[part] = layers

    @staticmethod
    def _check_board(meta: dict, source: str) -> tuple[list[int], list[int] | None]:
        """The convolution widths and board shape of a v2 file (none for v1)."""
        if meta["format"] == FORMAT:
            return [], None
        conv, board = meta.get("conv"), meta.get("board")
        positive = lambda values: all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in values)  # noqa: E731
        if not isinstance(conv, list) or not conv or not positive(conv):
            raise ValueError(f"{source}: policy field 'conv' must list positive channel widths")
        if not isinstance(board, list) or len(board) != 3 or not positive(board) \
                or board[0] * board[1] * board[2] > meta["observation_size"]:
            raise ValueError(f"{source}: policy field 'board' must be [planes, rows, cols] within the observation")
        return conv, board

    def _convolve(self, part: str, x: Any, xp: Any) -> Any:
        """The board block through the 3x3 convolutions, flattened, then the rest of ``x``."""
        planes, rows, cols = self.board
        size = planes * rows * cols
        board = xp.moveaxis(x[..., :size].reshape(x.shape[:-1] + (planes, rows, cols)), -3, -1)
        for kernel, bias in self.conv_layers[part]:
            padded = xp.pad(board, [(0, 0)] * (board.ndim - 3) + [(1, 1), (1, 1), (0, 0)])
            out = xp.broadcast_to(bias, board.shape[:-1] + bias.shape)  # each sum below is a new array
            for dy in range(3):
                for dx in range(3):
                    out = out + padded[..., dy:dy + rows, dx:dx + cols, :] @ kernel[dy, dx]
            board = self.activation(out, xp)
        return xp.concatenate([board.reshape(x.shape[:-1] + (-1,)), x[..., size:]], axis=-1)

    def mlp(self, part: str, x: Any, xp: Any = np) -> Any:
        """The raw output of one network (``"actor"``: logits over every action, unmasked;
        ``"critic"``: ``(..., 1)`` values) for observations ``x``. ``xp`` is the array namespace:
        numpy here, ``jax.numpy`` where a search evaluates the network inside a jitted program
        (:mod:`meadowzoo.agents.gumbel_search`), so both run this one definition."""
        if self.conv:
            x = self._convolve(part, x, xp)
        layers = self.layers[part]
        for kernel, bias in layers[:-1]:
            x = self.activation(x @ kernel + bias, xp)
        kernel, bias = layers[-1]
        return x @ kernel + bias

    def forward(self, observation: np.ndarray, mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Logits (illegal actions at ``-1e9``, as the trainer masks them) and values for a batch
        ``(..., observation_size)``."""
        x = np.asarray(observation, dtype=np.float32)
        logits = self.mlp("actor", x)
        if mask is not None:
            logits = np.where(np.asarray(mask, dtype=bool), logits, np.float32(-1e9))
        return logits, self.mlp("critic", x)[..., 0]

    def probabilities(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits, _ = self.forward(observation, mask)
        logits = logits - logits.max(axis=-1, keepdims=True)
        weights = np.exp(logits) * np.asarray(mask, dtype=bool)
        return weights / weights.sum(axis=-1, keepdims=True)


def from_sb3(policy: Any, source: str = "an SB3 policy") -> MlpPolicy:
    """The network of a plain SB3 ``MaskableActorCriticPolicy`` read by
    :func:`meadowzoo.agents.policy.load_policy` (its metadata in ``policy.meadowzoo``) as an
    :class:`MlpPolicy` computing the same function: each ``Linear``'s weight transposed into a
    kernel, the actor ``mlp_extractor.policy_net`` then ``action_net``, the critic
    ``mlp_extractor.value_net`` then ``value_net`` (SB3's flatten extractor is the identity on
    these flat observations). Refused: advised policies (their input ends with a heuristic's
    advice, which only the PettingZoo env computes) and actor and critic of different widths."""
    meta = getattr(policy, "meadowzoo", None)
    if not isinstance(meta, dict):
        raise ValueError(f"{source}: not a meadowzoo policy")
    if meta.get("advice") is not None:
        raise ValueError(f"{source} is an advised policy: it reads the {meta['advice']!r} heuristic's advice, "
                         "which only the PettingZoo env computes")
    net_arch = meta["net_arch"]
    if isinstance(net_arch, dict) and list(net_arch.get("pi", [])) != list(net_arch.get("vf", [])):
        raise ValueError(f"{source}: actor {net_arch.get('pi')} and critic {net_arch.get('vf')} differ in width; "
                         "a portable network has one layout for both")
    hidden = list(net_arch["pi"] if isinstance(net_arch, dict) else net_arch)
    arrays = {}
    for part, body, head in (("actor", policy.mlp_extractor.policy_net, policy.action_net),
                             ("critic", policy.mlp_extractor.value_net, policy.value_net)):
        linears = [module for module in body if hasattr(module, "weight")] + [head]
        for i, layer in enumerate(linears):
            arrays[f"{part}/{i}/kernel"] = layer.weight.detach().cpu().numpy().T.astype(np.float32)
            arrays[f"{part}/{i}/bias"] = layer.bias.detach().cpu().numpy().astype(np.float32)
    converted = {"format": FORMAT, "game": meta["game"], "env_options": dict(meta["env_options"]),
                 "observation_size": int(meta["observation_size"]), "num_actions": int(meta["num_actions"]),
                 "hidden": [int(width) for width in hidden], "activation": str(meta["activation"]).lower(),
                 "note": f"converted from {source}"}
    return MlpPolicy(converted, arrays, source=source)


def play(policy: MlpPolicy, agent: Agent, env: Any, seat: str, deterministic: bool) -> int:
    """The action of ``policy`` for ``seat`` (the argmax, or a draw from ``agent.rng``)."""
    observation = env.observe(seat)
    mask = observation["action_mask"].astype(bool)
    probs = policy.probabilities(observation["observation"], mask)
    if deterministic:
        return int(np.argmax(np.where(mask, probs, -1.0)))
    return int(agent.rng.choice(len(probs), p=probs))
