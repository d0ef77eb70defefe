"""Play one seeded game between any agents and show it on the terminal.

    python -m meadowzoo.training.play --game hase_und_igel --players 4 --agents random --seed 0
    python -m meadowzoo.training.play --game volle_wolle --players 3 --agents human,strong,mcts:200

``--agents`` lists one agent per seat, or one name for every seat. ``--show`` picks what is
printed: ``every`` decision's board, only the ``end``, or ``none``. A ``human`` seat is a person
at this terminal (:mod:`meadowzoo.agents.human`): it sees the board and the numbered legal actions at each
of its decisions and types a number or an action's name; ``quit`` ends the game.
"""

from __future__ import annotations

import argparse

from meadowzoo.agents import agent_names
from meadowzoo.agents.human import HumanQuit
from meadowzoo.envs import GAMES
from meadowzoo.training.runner import advance, play_seeds, start


def play_game(game: str, agent_specs: list[str], seed: int, show: str = "end", **options) -> dict[str, float]:
    """Play one game; returns the final cumulative rewards per agent. The game is set up and played
    by :mod:`meadowzoo.training.runner` (``play``'s seeds: env ``seed``, seat ``i`` ``seed * 1000 + i``)."""
    env, players = start(game, agent_specs, seed, options, render_mode="ansi", seeds=play_seeds)
    seats = env.possible_agents
    if len(agent_specs) == 1:
        agent_specs = agent_specs * len(seats)
    if show == "every":
        print(env.render())
    advance(env, players, after=(lambda agent, action: print(env.render(), end="\n\n")) if show == "every" else None)
    result = dict(env._cumulative_rewards)
    if show in ("every", "end"):
        print(env.render())
        ended = "ended" if all(env.terminations.values()) else f"truncated after {env.max_turns} turns"
        print(f"\ngame {ended}; rewards: " + ", ".join(
            f"{seat} ({spec}) {result[seat]:+.2f}" for seat, spec in zip(seats, agent_specs)))
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Play one game between agents and show it.")
    parser.add_argument("--game", choices=sorted(GAMES), default=next(iter(GAMES)))
    parser.add_argument("--players", type=int, default=4, help="number of players (seats)")
    parser.add_argument("--agents", default="random", help=f"comma-separated, one per seat or one for all: {agent_names()}")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", choices=["every", "end", "none"], default="end")
    args = parser.parse_args(argv)
    try:
        play_game(args.game, args.agents.split(","), args.seed, show=args.show, num_players=args.players)
    except HumanQuit as stop:
        print(f"\ngame stopped: {stop}")


if __name__ == "__main__":
    main()
