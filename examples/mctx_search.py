"""Tree search with mctx on a meadowzoo JAX engine: a search player against uniform random play.

`mctx <https://github.com/google-deepmind/mctx>`_ (DeepMind's Monte-Carlo tree search in JAX)
searches whatever it can step with a pure function. The JAX engines are ``pgx.Env``s, so the
search's model is the engine itself, unchanged: its ``recurrent_fn`` calls ``env.step``, as Pgx's
AlphaZero example does. The whole match (every game's search, the opponent's random moves, the
engine's steps until every game is over) is one jitted program over a batch of games; seats
alternate (the search plays seat 0 in even games, seat 1 in odd ones).

    python examples/mctx_search.py --game volle_wolle --simulations 16 --games 256

Prints the search player's win share (wins + draws / 2 over the games) with its 95% Wilson interval.

How the search sees the game
----------------------------
* **Two players, zero-sum.** mctx backs up one number per node: the value for the player to move
  there. An edge's reward is the mover's reward of that step (the games pay only at the end, by
  rank); its discount is +1 when the same player moves again (turns do not alternate: a Volle
  Wolle roller rerolls and picks, a Hase und Igel player may move twice), −1 when the other player
  moves, 0 once the game is over. More players would need another backup (e.g. the search player
  against the rest); this example takes two.
* **No network.** The prior is uniform over the legal actions (illegal ones get the lowest logit:
  mctx masks only the root). A new node's value is ``env.standing_rewards``, the rank reward of the
  standing if the game ended now (the points so far in Volle Wolle and Haste Bock?, the race
  positions in Hase und Igel), after ``--rollout-depth`` uniform random moves (0: of the node
  itself); a game that ends during the rollout gives its true rewards. A value of zero would leave
  the search only the rewards inside its tree, while the games last 60–120 decisions or more: in
  Volle Wolle a zero-value search with 32 simulations won 52% and 54% of 2 × 128 games against
  random play, no better than random.
* **It searches what its player knows** (determinization). Each search starts from states
  resampled from what the player to move can see (``env.resample_hidden``): in Volle Wolle the
  draw pile reshuffled and, while bidding, the other player's secret bid redrawn; in Hase und Igel
  the unseen top of the hare deck reshuffled (Haste Bock? hides nothing but future dice). With
  ``--determinizations K`` it runs K searches on K such states side by side and plays the action
  of the largest mean policy weight (one: the search's own choice). So its move depends only on
  what its player knows (tested: the same move whatever the hidden truth). ``--determinizations
  0`` searches the true state instead, seeing what its player cannot (Volle Wolle's future cards
  and bids, Hase und Igel's deck order): a perfect-information upper reference, not a fair
  player.
* **Chance is sampled from the search's key.** The engine's ``step`` draws its chance (Volle
  Wolle's dice, Haste Bock?'s panic die; Hase und Igel's steps draw none unless ``reshuffle_deck``)
  from its key; inside the search that key comes from the key mctx hands ``recurrent_fn``, so each
  node holds one sampled outcome of its edge's chance, which later simulations through that edge
  reuse. The tree is a sample of the chance, not an expectation over it. The match's own dice come
  from other keys, so the search never picks them.
* **Gumbel MuZero** (``mctx.gumbel_muzero_policy``): sequential halving over at most 16 actions at
  the root, which does well with few simulations; with a uniform prior its Gumbel noise draws
  which legal actions are considered.

Haste Bock?'s 996 actions make its search trees large; Hase und Igel races that random play does
not finish are cut at the engine's ``max_turns`` (1500 player turns) and count as draws.
``tests/jax/test_mctx.py`` runs this search on every game and tests its strength.
"""

from __future__ import annotations

import argparse
import functools
import time

import jax
import jax.numpy as jnp
import mctx
import numpy as np

import meadowzoo.jax as mjax
from meadowzoo.training.arguments import non_negative_int, positive_int, seed_value
from meadowzoo.training.stats import wilson


def uniform_logits(state) -> jax.Array:
    """The prior: uniform over the legal actions. An illegal action gets the lowest float32 (as in
    Pgx's AlphaZero example), so that inner nodes, where mctx applies no mask, never select it."""
    return jnp.where(state.legal_action_mask, 0.0, jnp.finfo(jnp.float32).min)


def random_actions(state, key: jax.Array) -> jax.Array:
    """A uniformly random legal action per game of the batch."""
    return jax.random.categorical(key, jnp.where(state.legal_action_mask, 0.0, -jnp.inf), axis=-1)


@functools.cache
def batched_step(env):
    """``env.step`` over a batch, jitted, one per engine: the search, its rollouts and the match call
    it on batches of one shape, so JAX traces the engine's step once for all of them."""
    return jax.jit(jax.vmap(env.step))


def make_value_fn(env, rollout_depth: int = 0):
    """``value(state, key)``: per game of the batch, the value for its player to move: the standing's
    rank reward (``env.standing_rewards``) after ``rollout_depth`` uniform random moves, or the true
    rewards of a game that ended during them."""
    step = batched_step(env)
    standing = jax.vmap(env.standing_rewards)

    def value(state, key: jax.Array) -> jax.Array:
        rows = jnp.arange(state.current_player.shape[0])
        player = jnp.maximum(state.current_player, 0)  # Haste Bock? says -1 once over (valued 0 anyway)

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
    """mctx's model of the game: the engine's own step on a batch of states (the embeddings)."""
    step = batched_step(env)

    def recurrent_fn(params, key, action, state):
        del params  # no network
        step_key, value_key = jax.random.split(key)
        rows = jnp.arange(action.shape[0])
        next_state = step(state, action, jax.random.split(step_key, rows.shape[0]))  # the dice: from the search's key
        over = next_state.terminated | next_state.truncated
        reward = next_state.rewards[rows, state.current_player]  # the mover's; nonzero only on the final step
        same_player = next_state.current_player == state.current_player  # turns do not alternate
        discount = jnp.where(over, 0.0, jnp.where(same_player, 1.0, -1.0))
        value = jnp.where(over, 0.0, value_fn(next_state, value_key))
        output = mctx.RecurrentFnOutput(reward=reward, discount=discount, prior_logits=uniform_logits(next_state),
                                        value=value)
        return output, next_state

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
        root = mctx.RootFnOutput(prior_logits=uniform_logits(state), value=value_fn(state, root_key), embedding=state)
        return mctx.gumbel_muzero_policy(params=None, rng_key=search_key, root=root, recurrent_fn=recurrent_fn,
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


def make_match(env, simulations: int, games: int, rollout_depth: int = 0, determinizations: int = 1):
    """``match(key, searcher)``, jitted: ``games`` games from ``init``, played to their end (or the
    engine's cut) in one ``lax.while_loop``; ``searcher`` (bool, ``(games, players)``) says which seats
    the search plays, the others play uniformly at random. Returns a dict: ``rewards`` (each game's
    final rewards), ``state`` (the final states), per game ``decisions`` and ``search_decisions``
    (those the search took), ``illegal`` (chosen actions that were illegal) and ``search_illegal``
    (decisions at which the search proposed an illegal action, whoever moved), and
    ``illegal_weight`` (the largest policy weight the search gave illegal actions)."""
    search = make_search(env, simulations, rollout_depth, determinizations)
    init, step = jax.vmap(env.init), batched_step(env)
    rows = jnp.arange(games)

    @jax.jit
    def match(key: jax.Array, searcher: jax.Array) -> dict:
        searcher = jnp.asarray(searcher, bool)

        def turn(carry):
            state, key, totals = carry
            key, search_key, random_key, step_key = jax.random.split(key, 4)
            live = ~(state.terminated | state.truncated)
            # every game's search, used where the search's seat moves: a batch runs in lockstep, so
            # searching only some games would cost the same; it also lets the tests check the search's
            # proposals at the random player's decisions too (about twice the search a match needs)
            policy = search(state, search_key)
            by_search = searcher[rows, jnp.maximum(state.current_player, 0)]
            action = jnp.where(by_search, policy.action, random_actions(state, random_key))
            legal = state.legal_action_mask
            illegal_weight = jnp.where(live, jnp.where(legal, 0.0, policy.action_weights).sum(-1), 0.0)
            next_state = step(state, action, jax.random.split(step_key, games))
            totals = dict(decisions=totals["decisions"] + live,
                          search_decisions=totals["search_decisions"] + (live & by_search),
                          illegal=totals["illegal"] + (live & ~legal[rows, action]),
                          search_illegal=totals["search_illegal"] + (live & ~legal[rows, policy.action]),
                          illegal_weight=jnp.maximum(totals["illegal_weight"], illegal_weight),
                          rewards=totals["rewards"] + next_state.rewards)  # paid at a game's final step only
            return next_state, key, totals

        init_key, key = jax.random.split(key)
        state = init(jax.random.split(init_key, games))
        count = jnp.zeros(games, jnp.int32)
        totals = dict(decisions=count, search_decisions=count, illegal=count, search_illegal=count,
                      illegal_weight=jnp.zeros(games, jnp.float32), rewards=jnp.zeros_like(state.rewards))
        state, _, totals = jax.lax.while_loop(lambda carry: ~(carry[0].terminated | carry[0].truncated).all(), turn,
                                              (state, key, totals))
        return dict(totals, state=state)

    return match


def alternating_seats(games: int, players: int = 2) -> np.ndarray:
    """The search's seats: seat ``g % players`` in game ``g`` (bool, ``(games, players)``)."""
    return np.arange(players)[None, :] == (np.arange(games) % players)[:, None]


def win_share(rewards: np.ndarray, searcher: np.ndarray) -> dict:
    """The search player's results from the final rewards of two-player games (+1 win, 0 draw,
    −1 loss): counts, win share (wins + draws / 2) and its 95% Wilson interval."""
    own = np.asarray(rewards)[np.asarray(searcher)]
    wins, draws, losses = int((own > 0).sum()), int((own == 0).sum()), int((own < 0).sum())
    games = wins + draws + losses
    return dict(games=games, wins=wins, draws=draws, losses=losses, share=(wins + draws / 2) / games,
                interval=wilson(wins + draws / 2, games))


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="examples/mctx_search.py", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--game", default="volle_wolle", choices=mjax.available(), help="which game")
    parser.add_argument("--players", type=int, default=2, help="players per game (two: the search and random play)")
    parser.add_argument("--simulations", type=positive_int, default=16, help="search simulations per decision")
    parser.add_argument("--rollout-depth", type=non_negative_int, default=10,
                        help="random moves before a new node's standing is read (0: the node's own standing)")
    parser.add_argument("--determinizations", type=non_negative_int, default=1,
                        help="searches per decision, each on hidden information resampled from what the player "
                             "knows (0: one search on the true state, which sees hidden information)")
    parser.add_argument("--games", type=positive_int, default=128, help="games, played side by side")
    parser.add_argument("--seed", type=seed_value, default=0, help="seed of the games' set-up, dice and searches")
    args = parser.parse_args(argv)
    if args.players != 2:
        parser.error(f"argument --players: the search backs up a two-player zero-sum value, not {args.players} players")
    if args.games < 2:
        parser.error("argument --games: a win share's interval needs at least 2 games")
    return args


def run(args: argparse.Namespace) -> dict:
    """Play the match; prints and returns the search player's results (:func:`win_share`) with the
    decision counts and times."""
    env = mjax.make(args.game, num_players=args.players)
    match = make_match(env, args.simulations, args.games, args.rollout_depth, args.determinizations)
    searcher = alternating_seats(args.games, args.players)
    key = jax.random.PRNGKey(args.seed)
    started = time.perf_counter()
    compiled = match.lower(key, searcher).compile()
    compiled_at = time.perf_counter()
    out = jax.device_get(compiled(key, searcher))
    finished = time.perf_counter()
    results = win_share(out["rewards"], searcher)
    results.update(decisions=int(out["decisions"].sum()), search_decisions=int(out["search_decisions"].sum()),
                   illegal=int(out["illegal"].sum()), cut=int(out["state"].truncated.sum()),
                   compile_seconds=compiled_at - started, play_seconds=finished - compiled_at)
    low, high = results["interval"]
    view = (f"{args.determinizations} determinization{'s' * (args.determinizations > 1)}" if args.determinizations
            else "the true state, hidden information included")
    print(f"{args.game}, {args.players} players, {results['games']} games: search ({args.simulations} simulations, "
          f"rollout depth {args.rollout_depth}, {view}) against uniform random")
    print(f"search player's win share {results['share']:.1%} (95% interval {low:.1%}–{high:.1%}): "
          f"{results['wins']} wins, {results['draws']} draws, {results['losses']} losses"
          + (f" ({results['cut']} games cut at max_turns, draws)" if results["cut"] else ""))
    print(f"{results['decisions']} decisions ({results['search_decisions']} by the search, "
          f"{results['illegal']} illegal); compiled in {results['compile_seconds']:.1f} s, played in {results['play_seconds']:.1f} s")
    return results


if __name__ == "__main__":
    run(parse_args())
