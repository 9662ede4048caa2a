"""A local HTTP receiver for apprise's ``json://`` notifications (127.0.0.1 only)."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class Receiver:
    """Collects every JSON body POSTed to it, with the time it arrived.

    ``gate``: while cleared, each request is collected on arrival but answered only once the
    gate is set again (a slow channel: the sender waits, the message is already here)."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []  # each request's headers (lower-case names)
        self.arrived: list[float] = []
        self.lock = threading.Lock()
        self.gate = threading.Event()
        self.gate.set()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                with owner.lock:
                    owner.messages.append(body)
                    owner.headers.append({k.lower(): v for k, v in self.headers.items()})
                    owner.arrived.append(time.monotonic())
                owner.gate.wait(600)
                try:
                    self.send_response(200)
                    self.end_headers()
                    self.wfile.write(b"{}")
                except OSError:
                    pass  # the sender is gone (killed while it waited)

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                del format, args

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        """The apprise URL that posts here."""
        return f"json://127.0.0.1:{self.port}"

    def titles(self) -> list[str]:
        """The titles received so far."""
        with self.lock:
            return [str(m.get("title", "")) for m in self.messages]

    def wait(self, predicate: Any, timeout: float = 30.0) -> bool:
        """Poll until ``predicate(messages)`` holds (True) or ``timeout`` passes (False)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                snapshot = list(self.messages)
            if predicate(snapshot):
                return True
            time.sleep(0.05)
        return False

    def close(self) -> None:
        """Stop serving."""
        self.gate.set()
        self.server.shutdown()
        self.server.server_close()
