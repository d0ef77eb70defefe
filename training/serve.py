"""Play and watch the games in the browser, or export a replay as an animated GIF.

    meadowzoo-serve                                   # http://127.0.0.1:8000/
    python -m meadowzoo.training.serve --port 8080 --results results
    python -m meadowzoo.training.serve --gif game.gif --replay results/hb_2p_strong_vs_greedy/results.json --index 0
    python -m meadowzoo.training.serve --gif game.gif --replay my_saved_game.json

The app (:mod:`meadowzoo.training.web.server`) needs no build step: choose a game, the player
count and who sits where (a person or any agent spec); play by clicking the board or the cards;
open tournament records (``--results``, default ``results/`` of the current folder) or saved games
and step through them; download any finished game as a GIF. It binds 127.0.0.1 unless ``--host``
says otherwise: it is meant for the person at this machine.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from meadowzoo.training.arguments import check_writable, command_parser, non_negative_float, non_negative_int, port
from meadowzoo.training.web import gif, replay
from meadowzoo.training.web.server import App, Server


def frame_ms(text: str) -> int:
    value = non_negative_int(text)
    if not 20 <= value <= gif.MAX_FRAME_MS:
        raise argparse.ArgumentTypeError(f"expected 20..{gif.MAX_FRAME_MS} milliseconds, got {value}")
    return value


def main(argv: list[str] | None = None) -> None:
    parser = command_parser("serve", "Play and watch meadowzoo games in the browser.")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (127.0.0.1: this machine only)")
    parser.add_argument("--port", type=port, default=8000, help="port (0: any free port)")
    parser.add_argument("--results", type=Path, default=Path("results"),
                        help="folder of tournament results (<name>/results.json) to replay")
    parser.add_argument("--agent-delay", type=non_negative_float, default=0.4,
                        help="seconds an agent waits before each move, so that people can follow")
    parser.add_argument("--verbose", action="store_true", help="log every request")
    parser.add_argument("--gif", type=Path, help="write the replay of --replay as an animated GIF and exit")
    parser.add_argument("--replay", type=Path, help="a saved game (.json) or a tournament results.json (with --index)")
    parser.add_argument("--index", type=non_negative_int, help="which game of a tournament results.json")
    parser.add_argument("--frame-ms", type=frame_ms, default=600,
                        help=f"GIF: milliseconds per move, 20..{gif.MAX_FRAME_MS}")
    parser.add_argument("--first", type=non_negative_int, default=0, help="GIF: first position (moves played before it)")
    parser.add_argument("--last", type=non_negative_int, help="GIF: last position (default: the end)")
    args = parser.parse_args(argv)
    if args.gif or args.replay:
        if not (args.gif and args.replay):
            parser.error("--gif and --replay go together")
        check_writable(parser, "--gif", args.gif.parent)  # before every frame is drawn
        try:
            loaded = replay.load_file(args.replay, args.index)
            gif.write_gif(loaded, args.gif, frame_ms=args.frame_ms, first=args.first, last=args.last)
        except (ValueError, OSError) as error:
            parser.error(f"argument --replay: {error}")
        print(f"wrote {args.gif} ({len(loaded)} moves of {loaded.source})")
        return
    try:
        server = Server((args.host, args.port), App(args.results, args.agent_delay), verbose=args.verbose)
    except OSError as error:  # the port is taken, the address is not this machine's …
        parser.error(f"argument --port: cannot listen on {args.host}:{args.port}: {error.strerror or error}")
    host, bound = server.server_address[:2]
    print(f"meadowzoo: open http://{host}:{bound}/ in a browser (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
