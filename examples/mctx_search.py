"""Tree search with mctx on a meadowzoo JAX engine: a search player against uniform random play.

`mctx <https://github.com/google-deepmind/mctx>`_ (DeepMind's Monte-Carlo tree search in JAX)
searches whatever it can step with a pure function. The JAX engines are ``pgx.Env``s, so the
search's model is the engine itself, unchanged: its ``recurrent_fn`` calls ``env.step``, as Pgx's
AlphaZero example does. The whole match (every game's search, the opponent's random moves, the
engine's steps until every game is over) is one jitted program over a batch of games; seats
alternate (the search plays seat 0 in even games, seat 1 in odd ones).

    python examples/mctx_search.py --game volle_wolle --simulations 16 --games 256

Prints the search player's win share (wins + draws / 2 over the games) with its 95% Wilson interval.

The search is :mod:`meadowzoo.agents.gumbel_search` (its docstring says how it values positions,
why, and how it stays blind to hidden information); the same search plays in tournaments as the
``mctx:N`` agent. This script adds the match: every game's search and the random player's moves in
one jitted ``while_loop``. Its win share is a two-player measure (``--players 2``); the agent plays
any player count.

Haste Bock?'s 996 actions make its search trees large; Hase und Igel races that random play does
not finish are cut at the engine's ``max_turns`` (1500 player turns) and count as draws.
``tests/jax/test_mctx.py`` runs this search on every game and tests its strength.
"""

from __future__ import annotations

import argparse
import time

import jax
import jax.numpy as jnp
import numpy as np

import meadowzoo.jax as mjax
from meadowzoo.agents.gumbel_search import (  # noqa: F401  (re-exported: the tests use them from here)
    batched_step, make_recurrent_fn, make_search, make_value_fn, random_actions, uniform_logits,
)
from meadowzoo.training.arguments import non_negative_int, positive_int, seed_value
from meadowzoo.training.stats import wilson


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
        parser.error(f"argument --players: the match's win share is a two-player measure, not {args.players} players "
                     "(the mctx agent plays any count: evaluate --agents mctx:16,random,random)")
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
