"""A server on a free local port for the tests, and a small JSON client for it."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from meadowzoo.training.web.server import App, Server

RESULTS = Path(__file__).resolve().parents[2] / "results"


@contextmanager
def running_server(results_dir: Path | None = RESULTS, agent_delay: float = 0.0, wait_seconds: float = 20.0):
    """An :class:`App` served on 127.0.0.1 (any free port) in a thread; yields (app, base url)."""
    app = App(results_dir, agent_delay, wait_seconds)
    server = Server(("127.0.0.1", 0), app)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield app, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def call(base: str, method: str, path: str, body=None, raw: bytes | None = None, timeout: float = 30):
    """(status, parsed JSON or bytes) of a request; error statuses are answers, not exceptions."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, payload, kind = response.status, response.read(), response.headers["Content-Type"]
    except urllib.error.HTTPError as error:
        status, payload, kind = error.code, error.read(), error.headers["Content-Type"]
    return status, json.loads(payload) if kind == "application/json" else payload
