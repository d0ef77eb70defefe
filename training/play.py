"""Play one seeded game between any agents and show it on the terminal.

    python -m meadowzoo.training.play --game hase_und_igel --players 4 --agents random --seed 0
    python -m meadowzoo.training.play --game volle_wolle --players 3 --agents human,strong,mcts:200

``--agents`` lists one agent per seat, or one name for every seat. ``--show`` picks what is
printed: ``every`` decision's board, only the ``end``, or ``none``. A ``human`` seat is a person
at this terminal (:mod:`meadowzoo.agents.human`): before each of its decisions it sees every other
player's moves since its last decision in words, the board, and what a special decision is
(:mod:`meadowzoo.training.narration`: panic rams, bids, hare cards, forced moves), then the
numbered legal actions; it types a number or an action's name; ``quit`` ends the game.
``--option KEY=VALUE`` sets env options as in every other command line; ``--out FILE`` saves the
finished game (seed, agents, every action) as JSON: the browser app (``meadowzoo-serve``, "Saved
game") replays it, and ``meadowzoo-serve --gif game.gif --replay FILE`` draws it as a GIF.
"""

from __future__ import annotations

import json
from pathlib import Path

from meadowzoo.agents import agent_names
from meadowzoo.agents.human import HumanAgent, HumanQuit
from meadowzoo.training.arguments import (
    add_game_arguments, check_agents, check_game_arguments, check_writable, command_parser,
)
from meadowzoo.training.narration import MoveLog
from meadowzoo.training.runner import advance, final_scores, play_seeds, start
from meadowzoo.training.web.session import SAVED_FORMAT  # the browser app's saved games: replayable there



def play_game(game: str, agent_specs: list[str], seed: int, show: str = "end", out: Path | None = None,
              **options) -> dict[str, float]:
    """Play one game; returns the final cumulative rewards per agent. The game is set up and played
    by :mod:`meadowzoo.training.runner` (``play``'s seeds: env ``seed``, seat ``i`` ``seed * 1000 + i``).
    With ``out`` the finished game is saved there (see the module docstring)."""
    env, players = start(game, agent_specs, seed, options, render_mode="ansi", seeds=play_seeds)
    seats = env.possible_agents
    if len(agent_specs) == 1:
        agent_specs = agent_specs * len(seats)
    log = MoveLog(env, dict(zip(seats, agent_specs)))
    for player in players.values():
        if isinstance(player, HumanAgent):
            player.narrator = log
    actions: list[int] = []

    def after(agent: str, action: int) -> None:
        log.after(agent, action)
        actions.append(int(action))
        if show == "every":
            print(env.render(), end="\n\n")

    if show == "every":
        print(env.render())
    advance(env, players, before=log.before, after=after)
    result = dict(env._cumulative_rewards)
    truncated = not all(env.terminations.values())
    if show in ("every", "end"):
        print(env.render())
        ended = f"truncated after {env.max_turns} turns" if truncated else "ended"
        print(f"\ngame {ended}; rewards: " + ", ".join(
            f"{seat} ({spec}) {result[seat]:+.2f}" for seat, spec in zip(seats, agent_specs)))
    if out is not None:
        record = {"format": SAVED_FORMAT, "version": 1, "game": game, "options": options, "seed": seed,
                  "agents": list(agent_specs), "actions": actions,
                  "places": env.game.places() if env.game.is_over else None,
                  "rewards": [float(result[s]) for s in seats], "scores": final_scores(env.game),
                  "truncated": truncated}
        Path(out).write_text(json.dumps(record) + "\n")
    return result


def parse_args(argv: list[str] | None = None):
    """The checked command line (``args.env_options``, ``args.specs``); bad values exit with status 2."""
    parser = command_parser("play", "Play one game between agents (or you: --agents human,...) and show it.")
    add_game_arguments(parser, game_required=False, seed_help="seed of the game and of every seat's agent")
    parser.add_argument("--agents", default="random", help=f"comma-separated, one per seat or one for all: {agent_names()}")
    parser.add_argument("--show", choices=["every", "end", "none"], default="end",
                        help="the board after every decision, only at the end, or never")
    parser.add_argument("--out", type=Path, help="save the finished game as JSON (the browser app replays it; serve --gif … --replay FILE draws it)")
    args = parser.parse_args(argv)
    options = check_game_arguments(parser, args)
    specs = args.agents.split(",")
    if len(specs) not in (1, args.players):
        parser.error(f"argument --agents: {len(specs)} agents for {args.players} players (--players); "
                     "give one per seat or one for all")
    check_agents(parser, "--agents", specs, args.game, env_options={"num_players": args.players, **options})
    if args.out is not None:
        check_writable(parser, "--out", args.out.parent)
    args.env_options, args.specs = options, specs
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    options, specs = args.env_options, args.specs
    try:
        play_game(args.game, specs, args.seed, show=args.show, out=args.out, num_players=args.players, **options)
    except HumanQuit as stop:
        print(f"\ngame stopped: {stop}")
        if stop.input_ended:  # piped moves ran out: the game did not finish
            raise SystemExit(1) from None


if __name__ == "__main__":
    main()
