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
* **What guides it** (a :class:`Guide`: a prior over a node's actions and a value of a node).
  Without a network (:func:`rollout_guide`) the prior is uniform over the legal actions and a new
  node's value is the root player's ``env.standing_rewards``, the rank reward of the standing if
  the game ended now, after ``rollout_depth`` uniform random moves (0: of the node itself); a game
  that ends during the rollout gives its true rewards. With a trained actor-critic
  (:func:`network_guide`, AlphaZero-style) the prior is the actor's logits for the player to move
  at the node, read from that player's observation, and the value the critic's estimate of the
  root player's reward, read from the root player's observation (``observe_player``): so each
  reads only what its player can see. Illegal actions get the lowest logit either way (mctx
  masks only the root).
* **It searches what its player knows** (determinization): each search starts from states
  resampled from what the player to move can see (``env.resample_hidden``); with
  ``determinizations`` K it runs K searches on K such states and plays the action of the largest
  mean policy weight (one: the search's own choice). K = 0 searches the true state, which sees
  what the player cannot: a perfect-information reference, not a fair player.
* **Chance is sampled from the search's key**: each node holds one sampled outcome of its edge's
  dice, which later simulations through that edge reuse.
* **Gumbel MuZero** (``mctx.gumbel_muzero_policy``): sequential halving over at most 16 actions at
  the root, which does well with few simulations. A network-guided search plays without Gumbel
  noise and with Q-values in the rewards' own scale (:data:`NETWORK_SEARCH`).

``examples/mctx_search.py`` plays this search against random play in one jitted match;
:class:`MctxAgent` (``mctx:N``, or ``mctx:N:net=FILE`` guided by a trained network, on the command
line) plays it in the PettingZoo env, decision by decision, for tournaments and the ladder. Needs
the ``jax`` extra (jax, pgx, mctx).
"""

from __future__ import annotations

import functools
import json
from typing import Any, Callable, NamedTuple

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


class Guide(NamedTuple):
    """What the search knows beyond the rules. ``prior(states)``: logits over every action per
    game of the batch (illegal ones at the lowest float32); ``value(states, key, players)``: per
    game, the value of the state for ``players`` (int array), in the games' reward scale."""
    prior: Callable[[Any], jax.Array]
    value: Callable[[Any, jax.Array, jax.Array], jax.Array]


def rollout_guide(env, rollout_depth: int = 0) -> Guide:
    """No network: a uniform prior, and the standing after ``rollout_depth`` random moves."""
    return Guide(uniform_logits, make_value_fn(env, rollout_depth))


def network_guide(env, network) -> Guide:
    """A trained actor-critic as the guide: ``network`` is an
    :class:`~meadowzoo.agents.mlp_policy.MlpPolicy` (:func:`meadowzoo.agents.policy.load_network`),
    evaluated with ``jax.numpy`` inside the search. The prior reads the observation of the player
    to move (``state.observation``), the value the critic on the evaluated player's own
    observation. A network of another observation or action size is refused."""
    meta = network.meta
    size = env.observation_shape[0]
    if (meta["observation_size"], meta["num_actions"]) != (size, env.num_actions):
        raise ValueError(f"{network.source} reads {meta['observation_size']} observation values and "
                         f"scores {meta['num_actions']} actions; this engine has {size} and {env.num_actions}")
    observe = jax.vmap(env.observe_player)

    def prior(state) -> jax.Array:
        logits = network.mlp("actor", state.observation, xp=jnp)
        return jnp.where(state.legal_action_mask, logits, jnp.finfo(jnp.float32).min)

    def value(state, key: jax.Array, player: jax.Array) -> jax.Array:
        del key  # the critic is deterministic
        return network.mlp("critic", observe(state, player), xp=jnp)[..., 0]

    return Guide(prior, value)


def make_recurrent_fn(env, guide: Guide):
    """mctx's model of the game: the engine's own step on a batch of embeddings ``(states, root
    players)``; rewards, discounts and values from the sides of the root player (module docstring),
    priors and values from ``guide``."""
    step = batched_step(env)

    def recurrent_fn(params, key, action, embedding):
        del params  # the guide's weights are constants of the program
        state, root = embedding
        step_key, value_key = jax.random.split(key)
        rows = jnp.arange(action.shape[0])
        next_state = step(state, action, jax.random.split(step_key, rows.shape[0]))  # the dice: from the search's key
        over = next_state.terminated | next_state.truncated
        reward = side(state, root) * next_state.rewards[rows, root]  # nonzero only on the final step
        discount = jnp.where(over, 0.0, side(state, root) * side(next_state, root))
        value = jnp.where(over, 0.0, side(next_state, root) * guide.value(next_state, value_key, root))
        output = mctx.RecurrentFnOutput(reward=reward, discount=discount, prior_logits=guide.prior(next_state),
                                        value=value)
        return output, (next_state, root)

    return recurrent_fn


def make_search(env, simulations: int, rollout_depth: int = 0, determinizations: int = 1,
                guide: Guide | None = None, gumbel_scale: float = 1.0, rescale_values: bool = True):
    """``search(state, key)``: ``mctx.gumbel_muzero_policy`` on a batch of states; its ``action``
    is the search's move for each game's player to move, ``action_weights`` its policy.
    ``guide``: the prior and value (default :func:`rollout_guide` with ``rollout_depth``).
    ``determinizations`` K ≥ 1: K searches per game, each on a state resampled from what the
    player to move knows (``env.resample_hidden``), their weights averaged; the move is the
    search's own choice for K = 1, else the action of the largest mean weight (``search_tree``
    then holds the K·batch trees). K = 0: one search on the true state (sees hidden information).
    ``gumbel_scale`` and ``rescale_values`` are mctx's (:data:`NETWORK_SEARCH` says why a network's
    search sets them otherwise)."""
    guide = guide or rollout_guide(env, rollout_depth)
    qtransform = functools.partial(mctx.qtransform_completed_by_mix_value, rescale_values=rescale_values)
    recurrent_fn = make_recurrent_fn(env, guide)
    resample = jax.vmap(jax.vmap(env.resample_hidden), in_axes=(None, None, 0))  # (K keys) x (batch)

    def one_search(state, key: jax.Array) -> mctx.PolicyOutput:
        root_key, search_key = jax.random.split(key)
        root = state.current_player
        root_fn = mctx.RootFnOutput(prior_logits=guide.prior(state), value=guide.value(state, root_key, root),
                                    embedding=(state, root))
        return mctx.gumbel_muzero_policy(params=None, rng_key=search_key, root=root_fn, recurrent_fn=recurrent_fn,
                                         num_simulations=simulations, invalid_actions=~state.legal_action_mask,
                                         gumbel_scale=gumbel_scale, qtransform=qtransform)

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


#: how the ``mctx:N:net=FILE`` player searches (``make_search`` keywords). ``gumbel_scale`` 0: no
#: Gumbel noise on the prior, so the player plays the best action of the improved policy instead
#: of a sample of it (mctx's advice for evaluation; with a uniform prior the noise is what picks
#: which actions to consider, so the rollout search keeps it). ``rescale_values`` off: the
#: network's values are already in the games' reward scale, −1..1; mctx's default stretches each
#: node's Q-values to 0..1 by their minimum and maximum, which turned the noise of one sampled
#: dice outcome per edge into differences of several logits. Measured on Volle Wolle 2p (200
#: games against ``strong``, seed 7, 16 simulations): with mctx's defaults 58.0%, without noise
#: 61.5%, and with both settings 71.2%, against 63.7% for the network's own most probable action.
NETWORK_SEARCH = {"gumbel_scale": 0.0, "rescale_values": False}

#: the networks of the agents made in this process, by their file's sha256 (the compiled searches'
#: cache key: a digest, not a path, so that a file replaced on disk is never played from an old cache)
_NETWORKS: dict[str, Any] = {}


@functools.lru_cache(maxsize=16)
def _compiled(game: str, options_json: str, simulations: int, rollout_depth: int, determinizations: int,
              network_digest: str | None = None):
    """The engine and the jitted search of one batch-1 decision, per configuration (compiled at the
    first call, 10–20 s on two CPU cores; cached, so a tournament compiles once per process)."""
    engine = make_engine(game, json.loads(options_json))
    if network_digest:
        search = make_search(engine, simulations, rollout_depth, determinizations,
                             network_guide(engine, _NETWORKS[network_digest]), **NETWORK_SEARCH)
    else:
        search = make_search(engine, simulations, rollout_depth, determinizations)
    return engine, jax.jit(lambda state, key: search(state, key).action[0])


class MctxAgent(Agent):
    """The search above as a player of the PettingZoo env: at each decision the env's game becomes
    the JAX engine's state (``from_game``), the search runs on states resampled from what this
    player knows, and its move is played. Seeded: each decision's key comes from the agent's own
    generator. Any player count (the paranoid backup). ``network``: a policy file whose actor and
    critic guide the search (:func:`network_guide`) instead of random rollouts."""

    def __init__(self, game: str, simulations: int = 16, rollout_depth: int = DEFAULT_ROLLOUT_DEPTH,
                 determinizations: int = 1, seed: int | None = None, network: str | None = None) -> None:
        super().__init__(seed)
        for name, value, low in (("simulations", simulations, 1), ("depth", rollout_depth, 0),
                                 ("k", determinizations, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"mctx {name} must be an integer >= {low}, got {value!r}")
        if game not in mjax.available():
            raise ValueError(f"mctx: {game!r} has no JAX engine")
        self.game, self.simulations, self.rollout_depth, self.determinizations = (
            game, simulations, rollout_depth, determinizations)
        self.network, self.network_digest, self.source = None, None, None
        if network is not None:
            self._load_network(network)
        self.name = f"mctx:{simulations}" + (
            f":depth={rollout_depth}" if rollout_depth != DEFAULT_ROLLOUT_DEPTH and network is None else "") + (
            f":k={determinizations}" if determinizations != 1 else "") + (f":net={network}" if network else "")

    def _load_network(self, spec: str) -> None:
        from meadowzoo.agents.policy import check_game, load_network
        from meadowzoo.agents.shipped import file_sha256, resolve_agent_file

        path = resolve_agent_file(spec)
        network = load_network(path)
        check_game(network.meta, spec, self.game)
        self.network, self.network_digest, self.source = network, file_sha256(path), spec
        _NETWORKS[self.network_digest] = network

    def check_fits(self, env: Any, observation: Any) -> None:
        """A network trained for another player count (or options) must not guide silently."""
        from meadowzoo.agents.policy import check_network_fits

        if self.network is not None:
            check_network_fits(self.network.meta, self.source, env, len(observation))

    def act(self, env: Any, agent: str) -> int:
        engine, search = _compiled(self.game, json.dumps(engine_options(env), sort_keys=True), self.simulations,
                                   self.rollout_depth, self.determinizations, self.network_digest)
        state = jax.tree_util.tree_map(lambda x: jnp.asarray(x)[None], engine.from_game(env.game))
        key = jax.random.PRNGKey(int(self.rng.integers(2**31)))
        return int(search(state, key))


def parse_spec(parameter: str | None, game: str, seed: int | None) -> MctxAgent:
    """The agent of ``mctx:N[:depth=D][:k=K][:net=FILE]`` (the part after ``mctx:``): N simulations
    per decision (default 16), D random moves before a node's standing is read (default 10), K
    resampled states searched per decision (default 1), FILE a policy file (the JAX trainer's
    ``.npz`` or a plain SB3 ``.pt``) whose actor gives the prior and critic the values, in place of
    the uniform prior and the random rollouts (so D does not go with it)."""
    usage = "use mctx:N[:depth=D][:k=K][:net=FILE]"
    first, *rest = (parameter or "").split(":")
    simulations = _integer(first, "simulations") if first else 16
    settings: dict[str, str] = {}
    for token in rest:
        key, eq, value = token.partition("=")
        if not eq or key not in ("depth", "k", "net") or key in settings:
            raise ValueError(f"bad mctx setting {token!r} in {parameter!r}; {usage}")
        settings[key] = value
    if "net" in settings and "depth" in settings:
        raise ValueError(f"mctx depth sets the random rollouts that value a node without a network; with net= "
                         f"the network's critic values it: leave depth out of {parameter!r}")
    if "net" in settings and not settings["net"]:
        raise ValueError(f"mctx net= needs a policy file, in {parameter!r}")
    depth = _integer(settings["depth"], "depth") if "depth" in settings else DEFAULT_ROLLOUT_DEPTH
    k = _integer(settings["k"], "k") if "k" in settings else 1
    return MctxAgent(game, simulations, depth, k, seed, network=settings.get("net"))


def _integer(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"mctx {what} must be an integer, got {text!r}") from None
