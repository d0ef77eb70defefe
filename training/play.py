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

from meadowzoo.agents import agent_names, make_agent
from meadowzoo.agents.human import HumanQuit
from meadowzoo.envs import GAMES, game_module


def play_game(game: str, agent_specs: list[str], seed: int, show: str = "end", **options) -> dict[str, float]:
    """Play one game; returns the final cumulative rewards per agent."""
    env = game_module(game).raw_env(render_mode="ansi", **options)
    env.reset(seed=seed)
    seats = env.possible_agents
    if len(agent_specs) == 1:
        agent_specs = agent_specs * len(seats)
    if len(agent_specs) != len(seats):
        raise ValueError(f"{game} with these options has {len(seats)} seats; got {len(agent_specs)} agents")
    players = {seat: make_agent(spec, game, seed=seed * 1000 + i) for i, (seat, spec) in enumerate(zip(seats, agent_specs))}
    for player in players.values():
        player.reset()
    if show == "every":
        print(env.render())
    while True:
        seat = env.agent_selection
        if env.terminations[seat] or env.truncations[seat]:
            break
        action = players[seat].act(env, seat)
        env.step(action)
        if show == "every":
            print(env.render(), end="\n\n")
    result = dict(env._cumulative_rewards)
    if show in ("every", "end"):
        print(env.render())
        ended = "ended" if all(env.terminations.values()) else f"truncated after {env.max_turns} turns"
        print(f"\ngame {ended}; rewards: " + ", ".join(
            f"{seat} ({spec}) {result[seat]:+.2f}" for seat, spec in zip(seats, agent_specs)))
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Play one game between agents and show it.")
    parser.add_argument("--game", choices=sorted(GAMES), default="hase_und_igel")
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
