"""The browser app's HTTP API: games, clear refusals that change nothing, many games at once,
agents thinking in their own threads, replays and GIFs."""

import io
import json
import threading
import time

import pytest
from PIL import Image

from meadowzoo.agents import registry
from meadowzoo.agents.random_agent import RandomAgent
from meadowzoo.training import evaluate
from meadowzoo.training.web import replay
from tests.web.support import call, running_server


@pytest.fixture(scope="module")
def server():
    with running_server(wait_seconds=1.0) as (app, base):
        yield app, base


def new_game(base, game="volle_wolle", agents=("random", "human"), seed=3, **extra):
    status, created = call(base, "POST", "/api/games", {"game": game, "agents": list(agents), "seed": seed, **extra})
    assert status == 200, created
    return created


def seat_of(created, seat):
    return f"/api/games/{created['id']}?seat={seat}&token={created['seats'][seat]['token']}"


def wait_for_turn(app, game_id, seat, timeout=20):
    session = app.games[game_id]
    deadline = time.time() + timeout
    while time.time() < deadline:
        with session.cond:
            if session._to_move() == seat or session.over:
                return session
            session.cond.wait(0.2)
    raise AssertionError("the agents did not move")


@pytest.mark.parametrize("body, status, message", [
    (b"{bad", 400, "not valid JSON"),
    (b"[1, 2]", 400, "JSON object"),
    (json.dumps({"game": "chess", "agents": ["human", "random"]}).encode(), 400, "unknown game"),
    (json.dumps({"game": "haste_bock", "agents": ["human"]}).encode(), 400, "2..4 players"),
    (json.dumps({"game": "haste_bock", "agents": ["human", "wizard"]}).encode(), 400, "unknown agent"),
    (json.dumps({"game": "haste_bock", "agents": ["human", "random"], "seed": -1}).encode(), 400, "seed"),
    (json.dumps({"game": "haste_bock", "agents": ["human", "random"], "seed": 2**63}).encode(), 400, "0..2**63-1"),
    (json.dumps({"game": "haste_bock", "agents": ["human", "random"], "seed": 2**64}).encode(), 400, "0..2**63-1"),
    (json.dumps({"game": "haste_bock", "agents": ["human", "random"], "colour": 1}).encode(), 400, "unknown field"),
    (json.dumps({"game": "haste_bock", "agents": ["human", "random"], "options": {"layout": "x"}}).encode(), 400, "layout"),
    (json.dumps({"game": "haste_bock", "agents": ["human", "mcts:many"]}).encode(), 400, "cannot start"),
    # wrong JSON types, deep nesting, a person's seat with a parameter, a search of days
    (json.dumps({"game": ["x"], "agents": ["human", "random"]}).encode(), 400, "unknown game"),
    (json.dumps({"game": {"a": 1}, "agents": ["human", "random"]}).encode(), 400, "unknown game"),
    (b"[" * 100_000, 400, "nested too deeply"),
    (json.dumps({"game": "volle_wolle", "agents": ["human:", "random"]}).encode(), 400, "a person's seat"),
    (json.dumps({"game": "volle_wolle", "agents": ["human:1", "random"]}).encode(), 400, "a person's seat"),
    (json.dumps({"game": "volle_wolle", "agents": ["human", "mcts:100000000"]}).encode(), 400, "at most mcts"),
])
def test_a_bad_new_game_request_is_refused_clearly(server, body, status, message):
    app, base = server
    before = set(app.games)
    got, answer = call(base, "POST", "/api/games", raw=body)
    assert got == status and message in answer["error"]
    assert set(app.games) == before


def test_bad_moves_get_clear_errors_and_leave_the_game_unchanged(server):
    app, base = server
    created = new_game(base, "haste_bock", ["human", "random"], seed=5)
    game_id, token = created["id"], created["seats"][0]["token"]
    session = wait_for_turn(app, game_id, 0)
    snapshot, version, played = session.env.snapshot(), session.version, len(session.moves)
    legal = session.env.legal_actions()
    illegal = next(a for a in range(session.env.num_actions) if a not in legal)
    cases = [
        ({"seat": 0, "token": token, "action": illegal}, 409, "is not legal now; legal actions: ["),
        ({"seat": 0, "token": token, "action": 5000}, 409, "out of range"),
        ({"seat": 0, "token": token, "action": True}, 400, "action must be"),
        ({"seat": 0, "token": token, "action": [1]}, 400, "action must be"),
        ({"seat": 0, "token": token, "action": "fly away"}, 400, "unknown action"),
        ({"seat": 0, "token": "wrong", "action": legal[0]}, 403, "wrong or missing token"),
        ({"seat": 0, "action": legal[0]}, 403, "token"),
        ({"seat": 1, "token": token, "action": legal[0]}, 403, "played by the agent"),
        ({"seat": 7, "token": token, "action": legal[0]}, 400, "seat must be"),
        ({"seat": 0, "token": token}, 400, "missing field 'action'"),
        ({"seat": 0, "token": token, "action": legal[0], "version": version - 1}, 409, "moved on"),
        ({"seat": 0, "token": token, "action": legal[0], "extra": 1}, 400, "unknown field"),
    ]
    for body, status, message in cases:
        got, answer = call(base, "POST", f"/api/games/{game_id}/act", body)
        assert got == status and message in answer["error"], (body, answer)
        assert session.env.snapshot() == snapshot and session.version == version
    assert call(base, "GET", f"/api/games/{game_id}/record")[0] == 409  # not over: would reveal the seed
    assert call(base, "GET", f"/api/games/{game_id}?seat=1")[0] == 403
    assert call(base, "GET", f"/api/games/{game_id}?seat=x")[0] == 400
    assert call(base, "GET", "/api/games/nope")[0] == 404
    assert call(base, "GET", "/api/nothing")[0] == 404
    assert call(base, "GET", "/static/../server.py")[0] == 404
    assert call(base, "PUT", f"/api/games/{game_id}", {"x": 1}) == (405, {"error": "method PUT is not used here: GET, POST or DELETE"})
    assert call(base, "POST", f"/api/games/{game_id}/act", raw=b"x" * 10)[0] == 400
    # and a good move by name is taken
    name = session.env.action_to_string(legal[0])
    got, state = call(base, "POST", f"/api/games/{game_id}/act", {"seat": 0, "token": token, "action": name})
    assert got == 200 and state["moves"] == played + 1
    assert session.moves[played].name == name and session.moves[played].seat == 0


def test_a_human_game_to_the_end_replays_identically(server):
    app, base = server
    created = new_game(base, "volle_wolle", ["random", "human"], seed=8)
    game_id, token = created["id"], created["seats"][1]["token"]
    moves = 0
    while True:
        session = wait_for_turn(app, game_id, 1)
        if session.over:
            break
        status, state = call(base, "GET", seat_of(created, 1))
        assert status == 200 and state["legal"]
        status, state = call(base, "POST", f"/api/games/{game_id}/act",
                             {"seat": 1, "token": token, "action": state["legal"][-1]["action"], "version": state["version"]})
        assert status == 200, state
        moves += 1
    status, state = call(base, "GET", seat_of(created, 1))
    assert state["over"] and state["result"]["places"] is not None and state["legal"] == []
    status, record = call(base, "GET", f"/api/games/{game_id}/record")
    assert status == 200 and record["seed"] == 8 and len(record["actions"]) == len(session.moves) > moves
    status, opened = call(base, "POST", "/api/replays", {"game": game_id})
    assert status == 200 and opened["count"] == len(record["actions"])
    assert [m["name"] for m in opened["moves"]] == [m.name for m in session.moves]
    status, last = call(base, "GET", f"/api/replays/{opened['id']}/{opened['count']}")
    assert last["view"]["places"] == state["result"]["places"]
    assert call(base, "GET", f"/api/replays/{opened['id']}/{opened['count'] + 1}")[0] == 404
    status, picture = call(base, "GET", f"/api/replays/{opened['id']}/gif?first=0&last=5&frame_ms=100")
    assert status == 200 and Image.open(io.BytesIO(picture)).n_frames == 6
    assert call(base, "GET", f"/api/replays/{opened['id']}/gif?first=9&last=5")[0] == 400
    # a saved record opens the same replay; a broken one is refused
    assert call(base, "POST", "/api/replays", {"record": record})[1]["count"] == opened["count"]
    broken = dict(record, actions=record["actions"][:3] + [999])
    status, answer = call(base, "POST", "/api/replays", {"record": broken})
    assert status == 400 and "move 4 (999) cannot be played" in answer["error"]


class SlowAgent(RandomAgent):
    """Thinks until the test lets it move (no CPU spent: the test measures locking, not speed)."""

    name = "slow"
    go = threading.Event()

    def act(self, env, agent):
        assert self.go.wait(30)
        return super().act(env, agent)


def test_many_games_at_once_and_a_thinking_agent_blocks_no_other_game(server, monkeypatch):
    app, base = server
    monkeypatch.setitem(registry.AGENTS, "slow", lambda game, parameter, seed: SlowAgent(seed))
    SlowAgent.go.clear()
    slow = new_game(base, "hase_und_igel", ["slow", "human"], seed=1, options={"start_player": 0})
    session = app.games[slow["id"]]
    others = [new_game(base, "haste_bock", ["human", "random"], seed=s) for s in range(6)]
    errors = []

    def play_one(created):
        try:
            game_id, token = created["id"], created["seats"][0]["token"]
            for _ in range(3):
                wait_for_turn(app, game_id, 0)
                state = call(base, "GET", seat_of(created, 0))[1]
                start = time.perf_counter()
                status, answer = call(base, "POST", f"/api/games/{game_id}/act",
                                      {"seat": 0, "token": token, "action": state["legal"][0]["action"]})
                assert status == 200, answer
                assert time.perf_counter() - start < 2.0
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=play_one, args=(created,)) for created in others]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors
    assert all(len(app.games[c["id"]].moves) >= 3 for c in others)
    assert session.moves == [] and session._to_move() == 0  # the slow agent is still thinking
    status, state = call(base, "GET", f"/api/games/{slow['id']}?seat=1&token={slow['seats'][1]['token']}")
    assert status == 200 and state["to_move"] == 0  # its game answers pages while it thinks
    SlowAgent.go.set()
    wait_for_turn(app, slow["id"], 1)
    assert session.moves and {m.seat for m in session.moves} == {0}
    assert call(base, "DELETE", f"/api/games/{slow['id']}")[0] == 200
    session.worker.join(10)
    assert not session.worker.is_alive() and slow["id"] not in app.games


def test_long_polling_returns_when_the_game_moves(server):
    app, base = server
    created = new_game(base, "haste_bock", ["human", "random"], seed=2)
    game_id, token = created["id"], created["seats"][0]["token"]
    session = wait_for_turn(app, game_id, 0)
    version = session.version
    start = time.perf_counter()
    status, state = call(base, "GET", f"{seat_of(created, 0)}&since={version}")  # nothing happens: waits 1 s
    assert status == 200 and state["version"] == version and time.perf_counter() - start >= 0.9
    waiting = {}
    thread = threading.Thread(target=lambda: waiting.update(answer=call(base, "GET", f"{seat_of(created, 0)}&since={version}")))
    thread.start()
    time.sleep(0.3)
    call(base, "POST", f"/api/games/{game_id}/act", {"seat": 0, "token": token, "action": session.env.legal_actions()[0]})
    thread.join(10)
    assert waiting["answer"][1]["version"] > version


def test_tournament_records_replay_with_or_without_their_actions(tmp_path):
    result = evaluate.evaluate("haste_bock", 2, ["greedy", "random"], 2, seed=3, progress=False)
    record = dict(result["records"][1])
    with_actions = replay.from_tournament(result, 1)
    assert [m["action"] for m in with_actions.moves] == record["actions"]
    for r in result["records"]:
        del r["actions"]  # as in the results written before records kept them
    again = replay.from_tournament(result, 1)
    assert [m["action"] for m in again.moves] == record["actions"]
    result["records"][1]["decisions"] += 1
    with pytest.raises(ValueError, match="the agents changed"):
        replay.from_tournament(result, 1)
    with pytest.raises(ValueError, match="no game with index 7"):
        replay.from_tournament(result, 7)


def test_stored_results_are_listed_and_open_as_replays(server):
    app, base = server
    status, listed = call(base, "GET", "/api/results")
    names = {r["name"] for r in listed["results"]}
    assert status == 200 and "hb_2p_strong_vs_greedy" in names
    status, opened = call(base, "POST", "/api/replays", {"results": "hb_2p_strong_vs_greedy", "index": 0})
    assert status == 200 and opened["count"] == 62  # the stored record says 62 decisions
    assert opened["moves"][0]["name"].startswith("panic ram")
    assert call(base, "POST", "/api/replays", {"results": "../etc", "index": 0})[0] == 404
    assert call(base, "POST", "/api/replays", {"results": "hb_2p_strong_vs_greedy", "index": 10**6})[0] == 400


def test_serve_writes_a_gif_from_the_command_line(tmp_path, capsys):
    from meadowzoo.training import serve

    out = tmp_path / "game.gif"
    serve.main(["--gif", str(out), "--replay", "results/hb_2p_strong_vs_greedy/results.json", "--index", "0",
                "--last", "4", "--frame-ms", "100"])
    assert Image.open(out).n_frames == 5 and "wrote" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        serve.main(["--gif", str(out), "--replay", "results/hb_2p_strong_vs_greedy/results.json"])  # no --index


def test_agents_only_games_play_to_the_end_and_old_finished_games_are_forgotten(monkeypatch):
    from meadowzoo.training.web import server as web_server

    monkeypatch.setattr(web_server, "KEEP_GAMES", 3)
    with running_server() as (app, base):
        created = [new_game(base, "haste_bock", ["random", "greedy"], seed=s)["id"] for s in range(4)]
        for game_id in created:
            session = app.games.get(game_id)
            if session is not None:
                session.worker.join(30)  # the worker stops once its game is over
                assert session.over and not session.worker.is_alive()
        newest = new_game(base, "haste_bock", ["human", "random"], seed=9)["id"]
        assert len(app.games) == 3 and newest in app.games and created[-1] in app.games
        assert created[0] not in app.games and call(base, "GET", f"/api/games/{created[0]}")[0] == 404
        status, listed = call(base, "GET", "/api/games")
        assert status == 200 and {g["id"] for g in listed["games"]} == set(app.games)
        spectator = call(base, "GET", f"/api/games/{created[-1]}")[1]
        assert spectator["over"] and spectator["seat"] is None and spectator["legal"] == []


def test_shipped_agents_are_offered_with_their_player_count():
    """Every shipped agent file of a game is offered, with the player count of its name and the
    agent kind its record gives (a from-scratch network plays sampled, as it was trained)."""
    from meadowzoo.training.web.server import agent_choices

    offered = {choice["spec"]: choice["players"] for choice in agent_choices("volle_wolle")}
    assert offered["policy:agents/trained/volle_wolle_2p.pt"] == 2
    assert offered["sampled:agents/trained/volle_wolle_2p_scratch.npz"] == 2
    assert offered["random"] is None
    assert not any("haste_bock" in spec for spec in offered)
    assert {c["spec"]: c["players"] for c in agent_choices("haste_bock")}["lookahead:agents/trained/haste_bock_4p.pt"] == 4


def test_a_value_learnt_without_the_heuristic_is_offered_with_its_recorded_settings(tmp_path, monkeypatch):
    """An afterstate value whose record says how it plays (``afterstate_selfplay``'s
    ``lookahead:<value file>:prior=none``) is offered with those settings, others as plain ``lookahead:``."""
    import json

    from meadowzoo.training.web import server

    scratch, guided = tmp_path / "haste_bock_2p_scratch.pt", tmp_path / "haste_bock_4p.pt"
    for path, record in ((scratch, {"kind": "afterstate-value", "player": "lookahead:<value file>:prior=none"}),
                         (guided, {"kind": "afterstate-value"})):
        path.write_bytes(b"")
        path.with_suffix(".json").write_text(json.dumps(record))
    monkeypatch.setattr(server, "shipped_files", lambda: [scratch, guided])
    offered = {c["spec"]: c["players"] for c in server.agent_choices("haste_bock")}
    assert offered["lookahead:agents/trained/haste_bock_2p_scratch.pt:prior=none"] == 2
    assert offered["lookahead:agents/trained/haste_bock_4p.pt"] == 4


def _raw_request(base: str, lines: list[str], body: bytes = b"") -> bytes:
    """Send a hand-made HTTP/1.1 request on one connection; everything the server answers on it."""
    import socket
    from urllib.parse import urlsplit

    url = urlsplit(base)
    with socket.create_connection((url.hostname, url.port), timeout=5) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        sock.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def test_other_sites_cannot_drive_the_server(server):
    """A POST must be JSON (a page elsewhere can send text/plain without asking), and a loopback
    server answers only to loopback host names (DNS rebinding)."""
    app, base = server
    body = json.dumps({"game": "volle_wolle", "agents": ["random", "random"]}).encode()
    port = base.rsplit(":", 1)[1]
    for content_type, host, status in (("text/plain", f"127.0.0.1:{port}", b"415"),
                                       ("application/json", f"attacker.example:{port}", b"403"),
                                       ("application/json", f"localhost:{port}", b"200")):
        before = len(app.games)
        answer = _raw_request(base, ["POST /api/games HTTP/1.1", f"Host: {host}", f"Content-Type: {content_type}",
                                     f"Content-Length: {len(body)}", "Connection: close"], body)
        assert answer.split(b" ")[1] == status, answer[:200]
        assert len(app.games) == before + (status == b"200")


def test_a_body_on_a_get_is_read_and_not_taken_for_the_next_request(server):
    app, base = server
    created = new_game(base)
    hidden = f"DELETE /api/games/{created['id']} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    answer = _raw_request(base, ["GET /api/meta HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(hidden)}",
                                 "Connection: close"], hidden)
    assert answer.count(b"HTTP/1.1 200") == 1
    assert created["id"] in app.games  # the body was not run as a second request


def test_a_token_with_non_ascii_characters_is_a_wrong_token(server):
    app, base = server
    created = new_game(base)
    status, answer = call(base, "GET", f"/api/games/{created['id']}?seat=1&token=%C3%A9")
    assert status == 403 and "token" in answer["error"]
    status, answer = call(base, "POST", f"/api/games/{created['id']}/act", {"seat": 1, "token": "\u00e9", "action": 0})
    assert status == 403


def test_replay_requests_of_the_wrong_shape_are_refused(server):
    app, base = server
    for body, message in (({"results": ["x"], "index": 0}, "must be a name"), ({"game": {"a": 1}}, "must be a name"),
                          ({"record": {"format": "meadowzoo-game", "game": "volle_wolle", "options": {}, "seed": 1,
                                       "actions": [], "agents": 5}}, "record"),
                          *(({"record": {"format": "meadowzoo-game", "game": "volle_wolle", "options": {}, "seed": seed,
                                         "actions": []}}, "0..2**63-1") for seed in (-1, True, 2**63, 2**70)),
                          ({"results": "vw_2p_strong_vs_greedy", "index": 0, "record": {}}, "one thing")):
        status, answer = call(base, "POST", "/api/replays", body)
        assert status == 400 and message in answer["error"], answer


def test_a_broken_results_file_is_left_out_of_the_list(tmp_path):
    good = tmp_path / "good"
    good.mkdir()
    (good / "results.json").write_text(json.dumps({"game": "volle_wolle", "players": 2, "agents": ["a", "b"],
                                                   "records": []}))
    for name, text in (("list", "[1, 2]"), ("half", "{")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "results.json").write_text(text)
    with running_server(tmp_path) as (app, base):
        status, listed = call(base, "GET", "/api/results")
        assert status == 200 and [r["name"] for r in listed["results"]] == ["good"]
        status, answer = call(base, "POST", "/api/replays", {"results": "half", "index": 0})
        assert status == 400


def test_gif_limits_are_clear_errors(server):
    app, base = server
    status, opened = call(base, "POST", "/api/replays", {"results": "vw_2p_strong_vs_greedy", "index": 0})
    assert status == 200
    for query, message in (("frame_ms=300000&first=0&last=2", "frame_ms"), ("frame_ms=10&last=2", "frame_ms")):
        status, answer = call(base, "GET", f"/api/replays/{opened['id']}/gif?{query}")
        assert status == 400 and message in answer["error"]
    from meadowzoo.training.web import gif
    long_replay = replay.Replay.__new__(replay.Replay)
    long_replay.frames, long_replay.moves = [None] * (gif.MAX_FRAMES + 5), [None] * (gif.MAX_FRAMES + 4)
    with pytest.raises(ValueError, match="choose first and last"):
        gif.replay_gif(long_replay)


def test_an_idle_game_makes_room_when_the_server_is_full(monkeypatch):
    from meadowzoo.training.web import server as web_server

    monkeypatch.setattr(web_server, "MAX_GAMES", 2)
    with running_server() as (app, base):
        first, second = new_game(base, seed=1), new_game(base, seed=2)
        status, answer = call(base, "POST", "/api/games", {"game": "volle_wolle", "agents": ["random", "human"]})
        assert status == 503
        app.games[first["id"]].changed -= web_server.IDLE_SECONDS + 1  # the first has been idle for an hour
        third = new_game(base, seed=3)
        assert set(app.games) == {second["id"], third["id"]}


def test_a_taken_port_is_a_one_line_error(capsys):
    import socket

    from meadowzoo.training import serve

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        with pytest.raises(SystemExit) as stopped:
            serve.main(["--port", str(taken.getsockname()[1])])
    assert stopped.value.code == 2
    assert "cannot listen on" in capsys.readouterr().err


def test_a_client_that_stops_halfway_frees_its_thread(monkeypatch):
    import socket
    from urllib.parse import urlsplit

    from meadowzoo.training.web.server import Handler

    monkeypatch.setattr(Handler, "timeout", 0.5)
    with running_server() as (app, base):
        url = urlsplit(base)
        with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
            sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 100\r\n\r\n{\"game\"")  # and then nothing more
            start = time.time()
            answer = b""
            while chunk := sock.recv(65536):  # until the server closes the connection
                answer += chunk
            assert time.time() - start < 5
            assert answer.startswith(b"HTTP/1.1 408") and b"did not arrive" in answer
        assert call(base, "GET", "/api/meta")[0] == 200


def test_a_policy_for_another_player_count_is_refused_when_the_game_starts(server):
    app, base = server
    status, answer = call(base, "POST", "/api/games", {
        "game": "volle_wolle", "agents": ["human", "policy:agents/trained/volle_wolle_2p.pt", "random", "random"]})
    assert status == 400 and "was trained for 2 players" in answer["error"]


def test_head_and_unused_methods_get_405_with_allow_and_the_connection_stays_usable(server):
    """HEAD is answered with headers only (a body would be read as the next answer's start), and a
    405 names the methods used (Allow); the same kept-alive connection then serves a GET."""
    import http.client

    app, base = server
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        connection.request("HEAD", "/api/meta")
        answer = connection.getresponse()
        assert answer.status == 405 and answer.getheader("Allow") == "GET, POST, DELETE"
        assert answer.read() == b""
        connection.request("PUT", "/api/meta", body=b'{"x": 1}', headers={"Content-Type": "application/json"})
        answer = connection.getresponse()
        assert answer.status == 405 and answer.getheader("Allow") == "GET, POST, DELETE"
        assert "not used here" in json.loads(answer.read())["error"]
        connection.request("GET", "/api/meta")
        answer = connection.getresponse()
        assert answer.status == 200 and "games" in json.loads(answer.read())
    finally:
        connection.close()


def test_an_agent_whose_packages_are_missing_is_a_400_naming_the_extra(server, monkeypatch):
    """A core install lists the shipped policy files; playing one needs the train extra."""
    import sys

    app, base = server
    before = set(app.games)
    for name in ["sb3_contrib", *(m for m in sys.modules if m.startswith("sb3_contrib."))]:
        monkeypatch.setitem(sys.modules, name, None)  # as if not installed (submodules too: an import
        # of a module already loaded by an earlier test would not look at its parent)
    status, answer = call(base, "POST", "/api/games", {"game": "volle_wolle", "seed": 1,
                                                       "agents": ["policy:agents/trained/volle_wolle_2p.pt", "human"]})
    assert status == 400 and "'train' extra" in answer["error"]
    assert set(app.games) == before
