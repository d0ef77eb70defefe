"""The actor-critic network of the compiled trainer (flax) and its export to the portable format.

Two MLPs of the same hidden widths over the player's observation: the actor gives one logit per
action (illegal ones masked to ``-1e9`` before sampling), the critic one value. Parameters are
``{"actor": {"0": {"kernel", "bias"}, …}, "critic": {…}}``, layer ``i`` named ``str(i)``, the last
one the output; :func:`export_arrays` maps them one to one onto the arrays of
:mod:`meadowzoo.agents.mlp_policy` (``actor/<i>/kernel`` …), whose numpy forward pass is the same
function.

With ``conv`` channel widths (games whose engine declares a ``board_shape``: planes, rows, cols at
the start of the observation), each MLP first reads the board planes with 3×3 convolutions
(``"SAME"`` padding, layer ``conv<i>``, kernels ``(3, 3, in, out)``, the activation after each),
flattens the last one row by row (rows, cols, channels) and puts the rest of the observation after
it; the dense layers follow as above. A convolution sees a sheep's neighbourhood the same way on
every square, which a dense layer over one-hot squares has to learn 81 times over.

Matrix products (``matmul_dtype``): ``"float32"``, or ``"bfloat16"``: every product of a dense or
convolution layer takes its two inputs rounded to bfloat16 and sums in float32 (mixed precision,
as on GPUs and TPUs), in the forward and the backward pass; the parameters, their gradients, the
optimiser and every other operation stay float32, and so does the exported network. On CPUs with
bfloat16 matrix units (Intel AMX, as this machine's) XLA runs such products about 2–3× faster than
float32 ones (:func:`bf16_matmul`).
"""

from __future__ import annotations

import math

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np

from meadowzoo.training.jax_config import MATMUL_DTYPES

MASKED = -1e9  # logit of an illegal action (as agents.mlp_policy)


def row_major_transpose(a: jax.Array) -> jax.Array:
    """``a.T`` of a matrix, written so that XLA moves the data. Why not ``a.T``: XLA folds a plain
    transpose into the consuming product's dimension numbers, and its CPU backend hands only
    canonical products (the left operand contracted over its last axis, the right over its first)
    to the YNNPACK kernels that use the CPU's bfloat16 matrix units; any other bfloat16 product is
    converted to float32 and runs slower than a float32 one. Through a third axis the transpose
    is a data movement that XLA keeps."""
    rows, cols = a.shape
    return jnp.transpose(a.reshape(rows, cols, 1), (1, 0, 2)).reshape(cols, rows)


def _canonical_dot(a: jax.Array, b: jax.Array) -> jax.Array:
    return jnp.dot(a, b, preferred_element_type=jnp.float32)


@jax.custom_vjp
def bf16_matmul(x: jax.Array, w: jax.Array) -> jax.Array:
    """``x @ w`` (``x``: (..., k), ``w``: (k, n)) with both inputs rounded to bfloat16 and float32
    sums; the gradients are products of the same kind. A custom gradient so that every product of
    the backward pass is canonical too (:func:`row_major_transpose`): autodiff's would contract
    over the batch axis and fall off the fast kernels."""
    return _bf16_forward(x, w)[0]


def _bf16_forward(x, w):
    x2, w16 = x.reshape(-1, x.shape[-1]).astype(jnp.bfloat16), w.astype(jnp.bfloat16)
    return _canonical_dot(x2, w16).reshape(x.shape[:-1] + (w.shape[-1],)), (x2, w16, x.shape)


def _bf16_backward(residuals, grad):
    x2, w16, x_shape = residuals
    g2 = grad.reshape(-1, grad.shape[-1]).astype(jnp.bfloat16)
    grad_x = _canonical_dot(g2, row_major_transpose(w16)).reshape(x_shape)
    # w's gradient x.T @ g as (g.T @ x).T: the small g is moved, not the wide x
    grad_w = row_major_transpose(_canonical_dot(row_major_transpose(g2), x2))
    return grad_x, grad_w


bf16_matmul.defvjp(_bf16_forward, _bf16_backward)


def matmul(x: jax.Array, w: jax.Array, dtype: str) -> jax.Array:
    """``x @ w`` in the network's matrix-product precision ``dtype`` (:data:`MATMUL_DTYPES`)."""
    return bf16_matmul(x, w) if dtype == "bfloat16" else x @ w


def neighbourhoods(board: jax.Array) -> jax.Array:
    """``(..., rows, cols, c)`` -> ``(..., rows, cols, 9 * c)``: each square's 3×3 neighbourhood
    (zeros beyond the edge), offsets (dy, dx) in reading order, channels innermost."""
    rows, cols = board.shape[-3], board.shape[-2]
    padded = jnp.pad(board, [(0, 0)] * (board.ndim - 3) + [(1, 1), (1, 1), (0, 0)])
    return jnp.concatenate([padded[..., dy:dy + rows, dx:dx + cols, :] for dy in range(3) for dx in range(3)],
                           axis=-1)


class Conv3x3(nn.Module):
    """A 3×3 convolution with zero padding (``"SAME"``), kernel ``(3, 3, in, out)`` as flax's
    ``nn.Conv``, computed as one matrix product over each square's neighbourhood. Why not
    ``nn.Conv``: on the CPU XLA's convolution and its gradient on 9×9 boards ran Haste Bock?'s
    trainer at well under a tenth of its dense speed; slices and a matrix product are what the CPU
    does fast."""
    features: int
    matmul_dtype: str = "float32"

    @nn.compact
    def __call__(self, board: jax.Array) -> jax.Array:
        channels = board.shape[-1]
        kernel = self.param("kernel", nn.initializers.orthogonal(math.sqrt(2)), (3, 3, channels, self.features))
        bias = self.param("bias", nn.initializers.zeros, (self.features,))
        return matmul(neighbourhoods(board), kernel.reshape(9 * channels, self.features), self.matmul_dtype) + bias


class Dense(nn.Module):
    """flax's ``nn.Dense`` (the same ``kernel`` and ``bias`` parameters and initialisers) with the
    product in the network's precision."""
    features: int
    kernel_init: object
    matmul_dtype: str = "float32"

    @nn.compact
    def __call__(self, x: jax.Array) -> jax.Array:
        kernel = self.param("kernel", self.kernel_init, (x.shape[-1], self.features))
        bias = self.param("bias", nn.initializers.zeros, (self.features,))
        return matmul(x, kernel, self.matmul_dtype) + bias


class MLP(nn.Module):
    hidden: tuple[int, ...]
    outputs: int
    activation: str
    output_scale: float
    conv: tuple[int, ...] = ()
    board: tuple[int, int, int] | None = None  # (planes, rows, cols) of the observation's first block
    matmul_dtype: str = "float32"

    @nn.compact
    def __call__(self, x: jax.Array) -> jax.Array:
        act = nn.tanh if self.activation == "tanh" else nn.relu
        if self.conv:
            planes, rows, cols = self.board
            size = planes * rows * cols
            board = x[..., :size].reshape(x.shape[:-1] + (planes, rows, cols))
            board = jnp.moveaxis(board, -3, -1)  # channels last, as Conv3x3 reads them
            for i, channels in enumerate(self.conv):
                board = act(Conv3x3(channels, self.matmul_dtype, name=f"conv{i}")(board))
            x = jnp.concatenate([board.reshape(x.shape[:-1] + (-1,)), x[..., size:]], axis=-1)
        for i, width in enumerate(self.hidden):
            x = act(Dense(width, nn.initializers.orthogonal(math.sqrt(2)), self.matmul_dtype, name=str(i))(x))
        return Dense(self.outputs, nn.initializers.orthogonal(self.output_scale), self.matmul_dtype,
                     name=str(len(self.hidden)))(x)


class ActorCritic:
    """The two MLPs; :meth:`init` makes parameters, the other methods are pure functions of them."""

    def __init__(self, observation_size: int, num_actions: int, hidden: tuple[int, ...], activation: str,
                 conv: tuple[int, ...] = (), board: tuple[int, int, int] | None = None,
                 matmul_dtype: str = "float32") -> None:
        if matmul_dtype not in MATMUL_DTYPES:
            raise ValueError(f"matmul_dtype must be one of {MATMUL_DTYPES}, got {matmul_dtype!r}")
        self.observation_size, self.num_actions = observation_size, num_actions
        self.hidden, self.activation, self.matmul_dtype = tuple(hidden), activation, matmul_dtype
        self.conv, self.board = tuple(conv), (tuple(board) if board else None)
        if self.conv and (self.board is None or math.prod(self.board) > observation_size):
            raise ValueError(f"convolutions need board planes at the start of the observation; this engine "
                             f"declares none (board_shape {board!r})")
        # small initial logits: the first policy is close to uniform over the legal actions
        self.actor = MLP(self.hidden, num_actions, activation, 0.01, self.conv, self.board, matmul_dtype)
        self.critic = MLP(self.hidden, 1, activation, 1.0, self.conv, self.board, matmul_dtype)

    def with_matmul_dtype(self, matmul_dtype: str) -> "ActorCritic":
        """The same network (same parameters) with its products in another precision: in
        ``"float32"``, the function that the exported file's numpy forward pass computes."""
        return ActorCritic(self.observation_size, self.num_actions, self.hidden, self.activation, self.conv,
                           self.board, matmul_dtype)

    def init(self, key: jax.Array) -> dict:
        k_actor, k_critic = jax.random.split(key)
        dummy = jnp.zeros((self.observation_size,), jnp.float32)
        return {"actor": self.actor.init(k_actor, dummy)["params"],
                "critic": self.critic.init(k_critic, dummy)["params"]}

    def logits(self, actor_params: dict, observation: jax.Array, mask: jax.Array) -> jax.Array:
        return jnp.where(mask, self.actor.apply({"params": actor_params}, observation), MASKED)

    def value(self, critic_params: dict, observation: jax.Array) -> jax.Array:
        return self.critic.apply({"params": critic_params}, observation)[..., 0]


def export_arrays(params: dict) -> dict[str, np.ndarray]:
    """The parameters as the named float32 arrays of a portable policy file."""
    return {f"{part}/{layer}/{name}": np.asarray(array, dtype=np.float32)
            for part in ("actor", "critic")
            for layer, weights in params[part].items()
            for name, array in weights.items()}
