"""The local web app: a JSON API over HTTP and the static page (no build step, standard library).

Routes (every answer is JSON except the page, its files and GIFs; every refusal is
``{"error": "<what is wrong>"}`` with a 4xx status, and changes nothing):

=======  ===================================  =====================================================
GET      ``/``                                the page (``static/index.html``)
GET      ``/static/<file>``                   its script and style sheet
GET      ``/api/meta``                        games, player counts, agent choices per game
GET      ``/api/games``                       the games on the server
POST     ``/api/games``                       new game ``{game, agents: [spec|"human"], seed?, options?}``;
                                              answers the game id and each human seat's token
GET      ``/api/games/<id>``                  ``?seat=&token=`` a seat's page data (no seat: a
                                              spectator); ``&since=<version>`` waits up to 20 s for a change
POST     ``/api/games/<id>/act``              ``{seat, token, action (index or name), version?}``
GET      ``/api/games/<id>/record``           the finished game as a saved record (replayable)
DELETE   ``/api/games/<id>``                  stop and forget a game
GET      ``/api/results``                     tournament results on disk (``results/*/results.json``)
POST     ``/api/replays``                     ``{results: <name>, index}`` | ``{record: {...}}`` | ``{game: <id>}``
GET      ``/api/replays/<id>``                the replay's moves; ``/api/replays/<id>/<k>`` the position after k moves
GET      ``/api/replays/<id>/gif``            ``?first=&last=&frame_ms=`` the replay as an animated GIF
=======  ===================================  =====================================================

Requests run in threads (``ThreadingHTTPServer``); each game has its own lock and its agents
their own thread (:mod:`meadowzoo.training.web.session`), so games never wait for each other.

Guards of a server meant for the person at this machine: a POST must say ``Content-Type:
application/json`` (which a web page on another site cannot send without the browser asking first,
and this server does not answer that question), and a server on a loopback address answers only
requests whose ``Host`` is a loopback name (so a site whose name is re-pointed at 127.0.0.1 cannot
reach it). Stopping a game (DELETE) needs no seat token: a web page on another site cannot send a
DELETE without that same unanswered question, and a program on this machine could stop the server
itself. Searches are capped at :data:`MAX_SIMULATIONS` simulations a decision, and a game that
has not changed for :data:`IDLE_SECONDS` makes room when :data:`MAX_GAMES` are running.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
import time
from collections import OrderedDict
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from meadowzoo.agents import agent_names
from meadowzoo.agents.shipped import shipped_files
from meadowzoo.envs import GAMES, plugin
from meadowzoo.training.arguments import missing_extra
from meadowzoo.training.runner import checked_game_seed
from meadowzoo.training.web import gif, replay
from meadowzoo.training.web.session import HUMAN, GameSession, RequestError

STATIC = Path(__file__).resolve().parent / "static"
CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".css": "text/css; charset=utf-8"}
MAX_BODY = 1 << 20  # a saved game of a long Hase und Igel game is some 10 kB
MAX_GAMES = 64  # games in progress at once
KEEP_GAMES = 256  # games kept in all (finished ones stay for their pages and replays until then)
MAX_REPLAYS = 16
WAIT_SECONDS = 20.0
MAX_SIMULATIONS = 20_000  # an mcts:N player's N here (one decision of mcts:10**8 would run for days)
IDLE_SECONDS = 3600.0  # an unfinished game unchanged this long is closed when a new one needs its place
LOOPBACK_NAMES = {"127.0.0.1", "localhost", "::1", "[::1]"}


def agent_choices(game: str) -> list[dict]:
    """Agent specs offered for ``game``: a person, the built-in players, the shipped agents (with
    the player count they were made for)."""
    choices = [{"spec": HUMAN, "players": None}]
    choices += [{"spec": name, "players": None} for name in ("random", "greedy", "strong", "mcts:200")]
    for path in shipped_files():  # named <game>_<players>p[_<variant>]
        found = re.fullmatch(re.escape(game) + r"_(\d+)p(_\w+)?", path.stem)
        if not found:
            continue
        meta = path.with_suffix(".json")
        record = json.loads(meta.read_text()) if meta.exists() else {}
        name = {"afterstate-value": "lookahead", "from-scratch": "sampled"}.get(record.get("kind"), "policy")
        spec = f"{name}:agents/trained/{path.name}"
        if record.get("kind") == "afterstate-value" and str(record.get("player", "")).startswith("lookahead:<value file>"):
            # a value learnt without the heuristic plays with the settings it was learnt with (prior=none)
            spec = record["player"].replace("<value file>", f"agents/trained/{path.name}")
        choices.append({"spec": spec, "players": int(found.group(1))})
    return choices


class App:
    """The server's games and replays (thread-safe)."""

    def __init__(self, results_dir: str | Path | None = None, agent_delay: float = 0.0,
                 wait_seconds: float = WAIT_SECONDS) -> None:
        self.results_dir = Path(results_dir) if results_dir else None
        self.agent_delay = agent_delay
        self.wait_seconds = wait_seconds  # longest wait of a ?since= request
        self.games: dict[str, GameSession] = {}
        self.replays: OrderedDict[str, replay.Replay] = OrderedDict()
        self.lock = threading.Lock()
        self.starting = 0  # games being set up: they count against MAX_GAMES already

    # ---- games ------------------------------------------------------------------------------------
    def create_game(self, body: dict) -> dict:
        _only(body, {"game", "agents", "seed", "options"})
        game = body.get("game")
        if not isinstance(game, str) or game not in GAMES:
            raise RequestError(f"unknown game {game!r}; choose from {sorted(GAMES)}")
        specs = body.get("agents")
        counts = plugin(game).player_counts
        if not isinstance(specs, list) or not all(isinstance(s, str) and s for s in specs):
            raise RequestError("agents must be a list with one agent spec (or \"human\") per seat")
        if len(specs) not in counts:
            raise RequestError(f"{plugin(game).title} is played by {counts[0]}..{counts[-1]} players, got {len(specs)} agents")
        for spec in specs:
            name, _, parameter = spec.partition(":")
            if name not in agent_names(game):
                raise RequestError(f"unknown agent {spec!r} for {game}; choose from {agent_names(game)}")
            if name == HUMAN and spec != HUMAN:  # a person's seat is "human"; human:… would read the server's terminal
                raise RequestError(f"a person's seat is {HUMAN!r}, got {spec!r}")
            if name == "mcts" and _simulations(parameter, game) > MAX_SIMULATIONS:
                raise RequestError(f"{spec!r}: this server runs at most mcts:{MAX_SIMULATIONS} (simulations a decision)")
        seed = body.get("seed", secrets.randbelow(2**31))
        try:
            checked_game_seed(seed)
        except ValueError as error:
            raise RequestError(str(error)) from None
        options = body.get("options") or {}
        if not isinstance(options, dict) or "num_players" in options:
            raise RequestError("options must be an object of env options (the player count comes from agents)")
        with self.lock:  # the place is taken here, so that requests at the same moment cannot pass the cap
            running = [g for g in self.games.values() if not g.over]
            if len(running) + self.starting >= MAX_GAMES:
                idle = [g for g in running if time.time() - g.changed > IDLE_SECONDS]
                if not idle:
                    raise RequestError(f"{MAX_GAMES} games are running; finish or delete one first", 503)
                oldest = min(idle, key=lambda g: g.changed)
                oldest.close()
                del self.games[oldest.id]
            self.starting += 1
            game_id = secrets.token_hex(4)
        try:
            session = GameSession(game_id, game, specs, seed, {"num_players": len(specs), **options}, self.agent_delay)
        except (ValueError, TypeError, FileNotFoundError) as error:  # a bad option or agent file
            raise RequestError(f"cannot start the game: {error}") from None
        except ModuleNotFoundError as error:  # an agent whose packages this install lacks
            message = missing_extra(error)
            if message is None:
                raise
            raise RequestError(f"cannot start the game: {message}") from None
        finally:
            with self.lock:
                self.starting -= 1
        with self.lock:
            self.games[game_id] = session
            finished = sorted((g for g in self.games.values() if g.over), key=lambda g: g.created)
            for old in finished[:max(0, len(self.games) - KEEP_GAMES)]:  # forget the oldest finished games
                del self.games[old.id]
        return {"id": game_id, "seats": [{"seat": i, "agent": spec, "token": token}
                                         for i, (spec, token) in enumerate(zip(specs, session.tokens))]}

    def game(self, game_id: str) -> GameSession:
        with self.lock:
            session = self.games.get(game_id)
        if session is None:
            raise RequestError(f"no game {game_id!r} on this server", 404)
        return session

    def delete_game(self, game_id: str) -> dict:
        session = self.game(game_id)
        session.close()
        with self.lock:
            self.games.pop(game_id, None)
        return {"deleted": game_id}

    # ---- tournament results and replays -----------------------------------------------------------
    def results(self) -> dict[str, Path]:
        """Tournament result files by name (their folder's)."""
        if self.results_dir is None or not self.results_dir.is_dir():
            return {}
        return {path.parent.name: path for path in sorted(self.results_dir.glob("*/results.json"))}

    def results_list(self) -> list[dict]:
        """The readable tournament files; one that is not a tournament result (half written, or
        anything else) is left out rather than breaking the list."""
        out = []
        for name, path in self.results().items():
            try:
                data = _read_json(path)
            except (OSError, ValueError, RecursionError):
                continue
            records = data.get("records") if isinstance(data, dict) else None
            agents = data.get("agents") if isinstance(data, dict) else None
            if not isinstance(records, list) or not isinstance(agents, list):
                continue
            out.append({"name": name, "game": data.get("game"), "players": data.get("players"),
                        "agents": agents, "games": len(records)})
        return out

    def open_replay(self, body: dict) -> dict:
        _only(body, {"results", "index", "record", "game"})
        given = [key for key in ("results", "record", "game") if key in body]
        if len(given) > 1:
            raise RequestError(f"say one thing to replay, got {given}")
        for key in ("results", "game"):
            if key in body and not isinstance(body[key], str):
                raise RequestError(f"{key} must be a name (a string), got {body[key]!r}")
        if "results" in body:
            path = self.results().get(body["results"])
            if path is None:
                raise RequestError(f"no tournament result {body['results']!r}; see /api/results", 404)
            made = lambda: replay.from_tournament(_read_json(path), body.get("index"), body["results"])  # noqa: E731
        elif "record" in body:
            made = lambda: replay.from_saved(body["record"])  # noqa: E731
        elif "game" in body:
            record = self.game(body["game"]).record()
            made = lambda: replay.from_saved(record, f"game {body['game']}")  # noqa: E731
        else:
            raise RequestError("say what to replay: {results, index}, {record} or {game}")
        try:
            loaded = made()
        except (ValueError, RecursionError) as error:
            raise RequestError(str(error)) from None
        except (KeyError, TypeError, AttributeError, IndexError) as error:  # a record of the wrong shape
            raise RequestError(f"not a replayable game record ({type(error).__name__}: {error})") from None
        replay_id = secrets.token_hex(4)
        with self.lock:
            self.replays[replay_id] = loaded
            while len(self.replays) > MAX_REPLAYS:
                self.replays.popitem(last=False)
        return {"id": replay_id, **loaded.summary()}

    def replay(self, replay_id: str) -> replay.Replay:
        with self.lock:
            found = self.replays.get(replay_id)
        if found is None:
            raise RequestError(f"no replay {replay_id!r} (replays are kept while {MAX_REPLAYS} newer ones are not)", 404)
        return found


def _only(body: Any, allowed: set[str]) -> None:
    if not isinstance(body, dict):
        raise RequestError("the request body must be a JSON object")
    unknown = set(body) - allowed
    if unknown:
        raise RequestError(f"unknown field(s) {sorted(unknown)}; allowed: {sorted(allowed)}")


_JSON_CACHE: dict[tuple[Path, float], dict] = {}


def _read_json(path: Path) -> dict:
    key = (path, path.stat().st_mtime)
    if key not in _JSON_CACHE:
        if len(_JSON_CACHE) > 8:
            _JSON_CACHE.clear()
        _JSON_CACHE[key] = json.loads(path.read_text())
    return _JSON_CACHE[key]


def _simulations(parameter: str, game: str) -> int:
    """The simulations a decision of ``mcts:<parameter>`` (0 for a spec its own parser refuses:
    starting the game reports that)."""
    from meadowzoo.agents.mcts import parse_spec

    try:
        return parse_spec(parameter or None, game, 0).simulations
    except ValueError:
        return 0


def _loopback(host: str) -> bool:
    return host in LOOPBACK_NAMES or host.startswith("127.")


def _host_name(header: str) -> str:
    """The name in a ``Host`` header, without its port (``[::1]:8000`` -> ``[::1]``)."""
    if header.startswith("["):
        return header.partition("]")[0] + "]"
    return header.rpartition(":")[0] if ":" in header else header


def _int(query: dict, name: str, default: int | None = None) -> int | None:
    values = query.get(name)
    if not values:
        return default
    try:
        return int(values[0])
    except ValueError:
        raise RequestError(f"query parameter {name} must be an integer, got {values[0]!r}") from None


#: the methods the routes use (a 405's ``Allow`` header)
ALLOWED_METHODS = "GET, POST, DELETE"


class Handler(BaseHTTPRequestHandler):
    """Routes requests to the :class:`App` in ``self.server.app``."""

    server_version = "meadowzoo"
    protocol_version = "HTTP/1.1"
    # a client that stops sending (half a request, an idle kept-alive connection) frees its thread after
    # this many seconds; a long poll waits on the server's side, not on the socket
    timeout = 60.0

    def log_message(self, format: str, *args: Any) -> None:  # quiet unless asked (--verbose)
        if getattr(self.server, "verbose", False):
            super().log_message(format, *args)

    def do_GET(self) -> None:
        self._answer("GET")

    def do_POST(self) -> None:
        self._answer("POST")

    def do_DELETE(self) -> None:
        self._answer("DELETE")

    def do_PUT(self) -> None:
        try:
            self._body(parse=False)  # read and drop it: the connection stays in step
        except RequestError:
            pass  # a body that cannot be read has already closed the connection
        self._send_json({"error": f"method {self.command} is not used here: GET, POST or DELETE"},
                        HTTPStatus.METHOD_NOT_ALLOWED)

    do_PATCH = do_OPTIONS = do_PUT  # OPTIONS too: no cross-site "preflight" is ever granted

    def do_HEAD(self) -> None:
        # a HEAD answer has headers only (a body would be read as the next answer's start)
        self.send_response(HTTPStatus.METHOD_NOT_ALLOWED)
        self.send_header("Allow", ALLOWED_METHODS)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _answer(self, method: str) -> None:
        url = urlsplit(self.path)
        parts = [p for p in url.path.split("/") if p]
        query = parse_qs(url.query)
        try:
            # read whatever a request sends (only a POST's body means something), so that the next
            # request on the connection starts where this one ends
            body = self._body(parse=method == "POST")
            self._guard(method)
            result = self._route(method, parts, query, body)
        except RequestError as error:
            self._send_json({"error": str(error)}, error.status)
            return
        except Exception as error:  # a bug: say so, keep serving
            self._send_json({"error": f"internal error: {error!r}"}, HTTPStatus.INTERNAL_SERVER_ERROR)
            return
        if isinstance(result, tuple):  # (bytes, content type[, file name])
            self._send(*result)
        else:
            self._send_json(result)

    def _guard(self, method: str) -> None:
        """Refuse what another web site could make the person's browser send (see the module docstring)."""
        if _loopback(str(self.server.server_address[0])):
            host = _host_name(self.headers.get("Host") or "")
            if not _loopback(host):
                raise RequestError(f"this server answers requests to this machine only, not to host {host!r}", 403)
        if method == "POST":
            content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
            if content_type != "application/json":
                raise RequestError(f"a POST sends JSON with Content-Type: application/json, got {content_type!r}", 415)

    def _body(self, parse: bool = True) -> Any:
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            self.close_connection = True  # the rest of the request cannot be found: end the connection
            raise RequestError("Content-Length must be an integer") from None
        if length > MAX_BODY or length < 0:
            self.close_connection = True  # the body stays unread: the connection cannot carry another request
            raise RequestError(f"request body of {length} bytes is over the limit of {MAX_BODY}", 413)
        try:
            raw = self.rfile.read(length) if length > 0 else b""
        except OSError:  # the socket's timeout: the client stopped sending
            self.close_connection = True
            raise RequestError(f"the request body did not arrive within {self.timeout:g} s", 408) from None
        if not raw or not parse:
            return None
        try:
            return json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise RequestError(f"the request body is not valid JSON: {error}") from None
        except RecursionError:
            raise RequestError("the request body is nested too deeply") from None

    def _route(self, method: str, parts: list[str], query: dict, body: Any) -> Any:
        app: App = self.server.app
        if method == "GET" and not parts:
            return (STATIC / "index.html").read_bytes(), CONTENT_TYPES[".html"]
        if method == "GET" and len(parts) == 2 and parts[0] == "static":
            path = STATIC / parts[1]
            if path.suffix not in CONTENT_TYPES or path.parent != STATIC or not path.is_file():
                raise RequestError(f"no file {parts[1]!r}", 404)
            return path.read_bytes(), CONTENT_TYPES[path.suffix]
        if not parts or parts[0] != "api":
            raise RequestError(f"no page {self.path!r}", 404)
        route = (method, *parts[1:2])
        rest = parts[2:]
        if route == ("GET", "meta") and not rest:
            return {"games": [{"name": g, "title": plugin(g).title, "player_counts": list(plugin(g).player_counts),
                               "agents": agent_choices(g)} for g in GAMES]}
        if route == ("GET", "games") and not rest:
            with app.lock:
                sessions = list(app.games.values())
            return {"games": [s.summary() for s in sessions]}
        if route == ("POST", "games") and not rest:
            return app.create_game(body)
        if route[1:] == ("games",) and rest:
            return self._game_route(app, method, rest, query, body)
        if route == ("GET", "results") and not rest:
            return {"results": app.results_list()}
        if route == ("POST", "replays") and not rest:
            return app.open_replay(body)
        if route == ("GET", "replays") and rest:
            found = app.replay(rest[0])
            if len(rest) == 1:
                return found.summary()
            if rest[1:] == ["gif"]:
                try:
                    data = gif.replay_gif(found, frame_ms=_int(query, "frame_ms", 600), first=_int(query, "first", 0),
                                          last=_int(query, "last"))
                except ValueError as error:
                    raise RequestError(str(error)) from None
                return data, "image/gif", f"{found.game}-{rest[0]}.gif"
            if len(rest) == 2:
                try:
                    return found.frame(_int({"k": [rest[1]]}, "k"))
                except ValueError as error:
                    raise RequestError(str(error), 404) from None
        raise RequestError(f"no route {method} {self.path}", 404)

    def _game_route(self, app: App, method: str, rest: list[str], query: dict, body: Any) -> Any:
        session = app.game(rest[0])
        if len(rest) == 1 and method == "DELETE":
            return app.delete_game(rest[0])
        if len(rest) == 1 and method == "GET":
            seat = _int(query, "seat")
            seat = session.check_seat(seat, (query.get("token") or [None])[0])
            since = _int(query, "since")
            if since is not None:
                session.wait(since, app.wait_seconds)
            return session.state(seat)
        if rest[1:] == ["act"] and method == "POST":
            _only(body, {"seat", "token", "action", "version"})
            if "action" not in body:
                raise RequestError("missing field 'action' (an action index or name)")
            seat = session.check_seat(body.get("seat"), body.get("token"))
            if seat is None:
                raise RequestError("missing field 'seat': which seat moves")
            return session.act(seat, body["action"], body.get("version"))
        if rest[1:] == ["record"] and method == "GET":
            return session.record()
        raise RequestError(f"no route {method} {self.path}", 404)

    # ---- answers ----------------------------------------------------------------------------------
    def _send_json(self, data: Any, status: int = HTTPStatus.OK) -> None:
        self._send(json.dumps(data).encode(), "application/json", status=status)

    def _send(self, data: bytes, content_type: str, filename: str | None = None, status: int = HTTPStatus.OK) -> None:
        self.send_response(status)
        if status == HTTPStatus.METHOD_NOT_ALLOWED:
            self.send_header("Allow", ALLOWED_METHODS)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        if filename:
            self.send_header("Content-Disposition", f'attachment; filename="{filename}"')
        self.end_headers()
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the page went away (a long poll left behind)
            self.close_connection = True


class Server(ThreadingHTTPServer):
    daemon_threads = True  # a waiting request never keeps the process alive
    request_queue_size = 64  # a page's burst of requests is queued, not reset

    def __init__(self, address: tuple[str, int], app: App, verbose: bool = False) -> None:
        # set before the socket is bound: a failed bind calls server_close(), which reads them
        self.app = app
        self.verbose = verbose
        super().__init__(address, Handler)

    def server_close(self) -> None:
        with self.app.lock:
            sessions = list(self.app.games.values())
        for session in sessions:
            session.close()
        super().server_close()
