"""Gumbel MuZero tree search (DeepMind's mctx) on a game's JAX engine, and the ``mctx`` player.

The engine is the search's model: ``recurrent_fn`` calls the engine's own ``step`` on a batch of
states (as Pgx's AlphaZero example does), and the whole search is one jitted program.

How the search sees the game
----------------------------
* **The searcher against the rest.** mctx backs up one number per node: the value for the player
  to move there. Here every value is the *root player's* rank reward, negated at the nodes where
  another player moves (a paranoid search: the others are assumed to play against the root
  player). An edge's reward is the root player's reward of that step from its mover's side (the
  games pay only at the end, by rank), its discount +1 when the next mover is on the same side as
  this one, −1 when not, 0 once the game is over. Turns do not alternate (a Volle Wolle roller
  rerolls and picks, a Hase und Igel player may move twice), hence the sides rather than Pgx's
  constant −1; with two players this is the usual zero-sum backup.
* **No network.** The prior is uniform over the legal actions (illegal ones get the lowest logit:
  mctx masks only the root). A new node's value is the root player's ``env.standing_rewards``, the
  rank reward of the standing if the game ended now, after ``rollout_depth`` uniform random moves
  (0: of the node itself); a game that ends during the rollout gives its true rewards.
* **It searches what its player knows** (determinization): each search starts from states
  resampled from what the player to move can see (``env.resample_hidden``); with
  ``determinizations`` K it runs K searches on K such states and plays the action of the largest
  mean policy weight (one: the search's own choice). K = 0 searches the true state, which sees
  what the player cannot: a perfect-information reference, not a fair player.
* **Chance is sampled from the search's key**: each node holds one sampled outcome of its edge's
  dice, which later simulations through that edge reuse.
* **Gumbel MuZero** (``mctx.gumbel_muzero_policy``): sequential halving over at most 16 actions at
  the root, which does well with few simulations.

``examples/mctx_search.py`` plays this search against random play in one jitted match;
:class:`MctxAgent` (``mctx:N`` on the command line) plays it in the PettingZoo env, decision by
decision, for tournaments and the ladder. Needs the ``jax`` extra (jax, pgx, mctx).
"""

from __future__ import annotations

import functools
import json
from typing import Any

import jax
import jax.numpy as jnp
import mctx

import meadowzoo.jax as mjax
from meadowzoo.agents.base import Agent

#: random moves before a new node's standing is read, unless given
DEFAULT_ROLLOUT_DEPTH = 10


def uniform_logits(state) -> jax.Array:
    """The prior: uniform over the legal actions. An illegal action gets the lowest float32 (as in
    Pgx's AlphaZero example), so that inner nodes, where mctx applies no mask, never select it."""
    return jnp.where(state.legal_action_mask, 0.0, jnp.finfo(jnp.float32).min)


def random_actions(state, key: jax.Array) -> jax.Array:
    """A uniformly random legal action per game of the batch."""
    return jax.random.categorical(key, jnp.where(state.legal_action_mask, 0.0, -jnp.inf), axis=-1)


@functools.cache
def batched_step(env):
    """``env.step`` over a batch, jitted, one per engine: the search, its rollouts and a match call
    it on batches of one shape, so JAX traces the engine's step once for all of them."""
    return jax.jit(jax.vmap(env.step))


def side(state, root: jax.Array) -> jax.Array:
    """+1 where the root player moves, −1 where another player does (float32, per game)."""
    return jnp.where(state.current_player == root, 1.0, -1.0)


def make_value_fn(env, rollout_depth: int = 0):
    """``value(state, key, player)``: per game of the batch, the value for ``player`` (int array):
    the standing's rank reward (``env.standing_rewards``) after ``rollout_depth`` uniform random
    moves, or the true rewards of a game that ended during them."""
    step = batched_step(env)
    standing = jax.vmap(env.standing_rewards)

    def value(state, key: jax.Array, player: jax.Array) -> jax.Array:
        rows = jnp.arange(state.current_player.shape[0])

        def random_move(_, carry):
            state, rewards, key = carry
            key, pick_key, step_key = jax.random.split(key, 3)
            state = step(state, random_actions(state, pick_key), jax.random.split(step_key, rows.shape[0]))
            return state, rewards + state.rewards, key  # a step of a finished game pays nothing

        end, rewards, _ = jax.lax.fori_loop(0, rollout_depth, random_move, (state, jnp.zeros_like(state.rewards), key))
        over = (end.terminated | end.truncated)[:, None]
        return jnp.where(over, rewards, standing(end))[rows, player]

    return value


def make_recurrent_fn(env, value_fn):
    """mctx's model of the game: the engine's own step on a batch of embeddings ``(states, root
    players)``; rewards, discounts and values from the sides of the root player (module docstring)."""
    step = batched_step(env)

    def recurrent_fn(params, key, action, embedding):
        del params  # no network
        state, root = embedding
        step_key, value_key = jax.random.split(key)
        rows = jnp.arange(action.shape[0])
        next_state = step(state, action, jax.random.split(step_key, rows.shape[0]))  # the dice: from the search's key
        over = next_state.terminated | next_state.truncated
        reward = side(state, root) * next_state.rewards[rows, root]  # nonzero only on the final step
        discount = jnp.where(over, 0.0, side(state, root) * side(next_state, root))
        value = jnp.where(over, 0.0, side(next_state, root) * value_fn(next_state, value_key, root))
        output = mctx.RecurrentFnOutput(reward=reward, discount=discount, prior_logits=uniform_logits(next_state),
                                        value=value)
        return output, (next_state, root)

    return recurrent_fn


def make_search(env, simulations: int, rollout_depth: int = 0, determinizations: int = 1):
    """``search(state, key)``: ``mctx.gumbel_muzero_policy`` on a batch of states; its ``action``
    is the search's move for each game's player to move, ``action_weights`` its policy.
    ``determinizations`` K ≥ 1: K searches per game, each on a state resampled from what the
    player to move knows (``env.resample_hidden``), their weights averaged; the move is the
    search's own choice for K = 1, else the action of the largest mean weight (``search_tree``
    then holds the K·batch trees). K = 0: one search on the true state (sees hidden information)."""
    value_fn = make_value_fn(env, rollout_depth)
    recurrent_fn = make_recurrent_fn(env, value_fn)
    resample = jax.vmap(jax.vmap(env.resample_hidden), in_axes=(None, None, 0))  # (K keys) x (batch)

    def one_search(state, key: jax.Array) -> mctx.PolicyOutput:
        root_key, search_key = jax.random.split(key)
        root = state.current_player
        root_fn = mctx.RootFnOutput(prior_logits=uniform_logits(state), value=value_fn(state, root_key, root),
                                    embedding=(state, root))
        return mctx.gumbel_muzero_policy(params=None, rng_key=search_key, root=root_fn, recurrent_fn=recurrent_fn,
                                         num_simulations=simulations, invalid_actions=~state.legal_action_mask)

    def search(state, key: jax.Array) -> mctx.PolicyOutput:
        hidden_key, key = jax.random.split(key)
        if determinizations == 0:
            return one_search(state, key)
        batch = state.current_player.shape[0]
        worlds = resample(state, state.current_player, jax.random.split(hidden_key, (determinizations, batch)))
        flat = jax.tree_util.tree_map(lambda x: x.reshape((determinizations * batch,) + x.shape[2:]), worlds)
        policy = one_search(flat, key)
        if determinizations == 1:
            return policy
        weights = policy.action_weights.reshape(determinizations, batch, -1).mean(0)
        return mctx.PolicyOutput(action=jnp.argmax(weights, axis=-1).astype(policy.action.dtype), action_weights=weights,
                                 search_tree=policy.search_tree)

    return search


# ---- the player --------------------------------------------------------------------------------------------
def engine_options(env) -> dict[str, Any]:
    """The JAX engine options of a PettingZoo ``raw_env``: its rule options, and its ``max_turns``
    and ``truncation_scoring`` where they are not the defaults."""
    options = dict(env.options)
    if env.max_turns != env.default_max_turns:
        options["max_turns"] = env.max_turns
    if env.truncation_scoring != "draw":
        options["truncation_scoring"] = env.truncation_scoring
    return options


def make_engine(game: str, options: dict[str, Any]):
    """The game's JAX engine for ``options`` (:func:`engine_options`). Volle Wolle's engine has no
    ``max_turns`` (its games end within 60 cards): for an env cut earlier the search models the
    game uncut, which changes what it plans, never what is legal."""
    try:
        return mjax.make(game, **options)
    except ValueError:
        if "max_turns" not in options:
            raise
        return mjax.make(game, **{k: v for k, v in options.items() if k not in ("max_turns", "truncation_scoring")})


@functools.lru_cache(maxsize=16)
def _compiled(game: str, options_json: str, simulations: int, rollout_depth: int, determinizations: int):
    """The engine and the jitted search of one batch-1 decision, per configuration (compiled at the
    first call, 10–20 s on two CPU cores; cached, so a tournament compiles once per process)."""
    engine = make_engine(game, json.loads(options_json))
    search = make_search(engine, simulations, rollout_depth, determinizations)
    return engine, jax.jit(lambda state, key: search(state, key).action[0])


class MctxAgent(Agent):
    """The search above as a player of the PettingZoo env: at each decision the env's game becomes
    the JAX engine's state (``from_game``), the search runs on states resampled from what this
    player knows, and its move is played. Seeded: each decision's key comes from the agent's own
    generator. Any player count (the paranoid backup)."""

    def __init__(self, game: str, simulations: int = 16, rollout_depth: int = DEFAULT_ROLLOUT_DEPTH,
                 determinizations: int = 1, seed: int | None = None) -> None:
        super().__init__(seed)
        for name, value, low in (("simulations", simulations, 1), ("depth", rollout_depth, 0),
                                 ("k", determinizations, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"mctx {name} must be an integer >= {low}, got {value!r}")
        if game not in mjax.available():
            raise ValueError(f"mctx: {game!r} has no JAX engine")
        self.game, self.simulations, self.rollout_depth, self.determinizations = (
            game, simulations, rollout_depth, determinizations)
        self.name = f"mctx:{simulations}" + (f":depth={rollout_depth}" if rollout_depth != DEFAULT_ROLLOUT_DEPTH else "") + (
            f":k={determinizations}" if determinizations != 1 else "")

    def act(self, env: Any, agent: str) -> int:
        engine, search = _compiled(self.game, json.dumps(engine_options(env), sort_keys=True), self.simulations,
                                   self.rollout_depth, self.determinizations)
        state = jax.tree_util.tree_map(lambda x: jnp.asarray(x)[None], engine.from_game(env.game))
        key = jax.random.PRNGKey(int(self.rng.integers(2**31)))
        return int(search(state, key))


def parse_spec(parameter: str | None, game: str, seed: int | None) -> MctxAgent:
    """The agent of ``mctx:N[:depth=D][:k=K]`` (the part after ``mctx:``): N simulations per
    decision (default 16), D random moves before a node's standing is read (default 10), K
    resampled states searched per decision (default 1)."""
    first, *rest = (parameter or "").split(":")
    simulations = _integer(first, "simulations") if first else 16
    settings: dict[str, int] = {}
    for token in rest:
        key, eq, value = token.partition("=")
        if not eq or key not in ("depth", "k") or key in settings:
            raise ValueError(f"bad mctx setting {token!r} in {parameter!r}; use mctx:N[:depth=D][:k=K]")
        settings[key] = _integer(value, key)
    return MctxAgent(game, simulations, settings.get("depth", DEFAULT_ROLLOUT_DEPTH), settings.get("k", 1), seed)


def _integer(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"mctx {what} must be an integer, got {text!r}") from None
