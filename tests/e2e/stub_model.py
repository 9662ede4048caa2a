"""A scripted stub model server for the end-to-end tests (stdlib only, 127.0.0.1, port 0).

It speaks the Anthropic Messages API, OpenAI Chat Completions and Responses, and the Gemini API,
streaming included. On a user message containing ``SCENARIO <name>`` it answers with the
scenario's tool call (see :mod:`tests.e2e.scenarios`); after the tool result it answers with a
short final text. Side requests (titles, next-speaker checks, routers, commit messages,
suggestions, token counts) get canned answers. Every request and every tool result received is
recorded so tests can check what approval or denial did.

Run it by hand with ``python -m tests.e2e.stub_model [PORT]``.
"""

from __future__ import annotations

import gzip
import json
import re
import sys
import threading
import time
import zlib
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, NamedTuple

from tests.e2e import wire
from tests.e2e.scenarios import (
    SCENARIOS,
    SLOW_SECONDS,
    ToolCall,
    final_text,
    plan,
    text_reply,
)
from tests.e2e.side import Reply, all_text, side_reply

Json = dict[str, Any]
MODEL = "paw-stub"


class Received(NamedTuple):
    """A tool result the stub received: scenario, step (0 = first tool call), tool, text."""

    scenario: str
    step: int
    tool: str
    text: str


class StubModel:
    """The scripted model: state shared by every request handler thread."""

    def __init__(self, workdir: str = "") -> None:
        self.workdir = workdir
        self.requests: list[tuple[str, Json]] = []
        self.tool_results: list[Received] = []
        self.errors: list[str] = []
        self._plans: dict[str, int] = {}  # scenario -> number of tool calls in its plan
        self._issued: dict[str, list[str]] = {}  # scenario -> call ids issued, by step
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle ----------------------------------------------------------------------------

    def start(self) -> StubModel:
        """Listen on 127.0.0.1, an ephemeral port, in a daemon thread."""
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="stub-model", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    @property
    def port(self) -> int:
        assert self._server is not None, "start() first"
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # --- queries for tests --------------------------------------------------------------------

    def results_for(self, scenario: str, tool: str | None = None) -> list[str]:
        """Tool results received for ``scenario`` (only those of ``tool`` when given)."""
        with self._lock:
            return [
                r.text
                for r in self.tool_results
                if r.scenario == scenario and (tool is None or r.tool == tool)
            ]

    def gated_results(self, scenario: str) -> list[str]:
        """Results of the scenario's permission-gated call (its last tool call)."""
        with self._lock:
            last = max((r.step for r in self.tool_results if r.scenario == scenario), default=-1)
            plans = self._plans.get(scenario)
        if plans is None or last < plans - 1:
            return []
        return [r.text for r in self.tool_results if r.scenario == scenario and r.step == plans - 1]

    def gated_issued(self, scenario: str) -> bool:
        """Whether the scenario's permission-gated call (its last tool call) was sent out."""
        with self._lock:
            plans = self._plans.get(scenario)
            return plans is not None and len(self._issued.get(scenario, ())) >= plans

    def scenario_requests(self, scenario: str) -> int:
        """How many main requests started ``scenario``."""
        with self._lock:
            return sum(
                1 for path, body in self.requests if f"SCENARIO {scenario}" in all_text(body)
            )

    # --- answering ----------------------------------------------------------------------------

    def record(self, path: str, body: Json) -> None:
        with self._lock:
            self.requests.append((path, body))

    def decide(self, turn: wire.Turn, tools: dict[str, Json], body: Json) -> Reply:
        """The scripted answer for one request."""
        side = side_reply(body)
        if side is not None:
            return side
        scenario = turn.latest
        if scenario is None:
            return Reply("OK.")
        action = SCENARIOS[scenario]
        if scenario == "slow":  # a turn that takes a while: the agent's busy screen
            time.sleep(SLOW_SECONDS)
        if action is None:
            return Reply(final_text(scenario))
        if not tools:
            aider = "SEARCH/REPLACE" in all_text(body) and turn.scenario == scenario
            return Reply(text_reply(scenario) if aider and turn.results == 0 else "OK.")
        try:
            steps = plan(action, self.workdir, tools)
        except LookupError as err:
            self.errors.append(str(err))
            return Reply(f"stub error: {err}")
        step, last = self._progress(scenario, turn)
        self._note(scenario, steps, step, last)
        if step < len(steps):
            return Reply("", self._issue(scenario, step, steps[step]))
        return Reply(final_text(scenario))

    def _progress(self, scenario: str, turn: wire.Turn) -> tuple[int, str | None]:
        """How many of the scenario's calls have results, and the newest result.

        By call id where the request carries the ids the stub issued (robust against agents
        that merge messages); else by position after the scenario's user message."""
        with self._lock:
            issued = list(self._issued.get(scenario, ()))
            known = any(cid in turn.by_id for ids in self._issued.values() for cid in ids)
        if known:
            answered = [cid for cid in issued if cid in turn.by_id]
            return len(answered), (turn.by_id[answered[-1]] if answered else None)
        if turn.scenario == scenario:
            return turn.results, turn.last_result
        return 0, None

    def _issue(self, scenario: str, step: int, call: ToolCall) -> ToolCall:
        call = call._replace(id=wire.new_id("call_stub"))
        with self._lock:
            issued = self._issued.setdefault(scenario, [])
            del issued[step:]
            issued.append(call.id)
        return call

    def _note(self, scenario: str, steps: list[ToolCall], step: int, last: str | None) -> None:
        with self._lock:
            self._plans[scenario] = len(steps)
            if step == 0 or last is None:
                return
            index = min(step, len(steps)) - 1
            entry = Received(scenario, index, steps[index].name, last)
            if entry not in self.tool_results:
                self.tool_results.append(entry)


def _read_body(handler: BaseHTTPRequestHandler) -> bytes:
    if handler.headers.get("Transfer-Encoding", "").lower() == "chunked":
        data = b""
        while True:
            size = int(handler.rfile.readline().strip().split(b";")[0], 16)
            if size == 0:
                handler.rfile.readline()
                return data
            data += handler.rfile.read(size)
            handler.rfile.readline()
    raw = handler.rfile.read(int(handler.headers.get("Content-Length") or 0))
    encoding = handler.headers.get("Content-Encoding", "").lower()
    if encoding == "gzip":
        return gzip.decompress(raw)
    if encoding == "deflate":
        return zlib.decompress(raw)
    return raw


def _handler_for(stub: StubModel) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_stub = stub

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
            return

        def _send(self, status: int, payload: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def _json(self, obj: Json, status: int = 200) -> None:
            self._send(status, json.dumps(obj).encode(), "application/json")

        def _sse(self, payload: bytes) -> None:
            self._send(200, payload, "text/event-stream")

        def do_GET(self) -> None:
            stub.record(self.path, {})
            if self.path.rstrip("/").endswith("/models"):
                self._json(
                    {
                        "object": "list",
                        "data": [{"id": MODEL, "object": "model", "owned_by": "paw"}],
                    }
                )
            else:
                self._json({"ok": True})

        def do_HEAD(self) -> None:
            self._send(200, b"", "text/plain")

        def do_POST(self) -> None:
            try:
                body = json.loads(_read_body(self) or b"{}")
            except (ValueError, OSError) as err:
                stub.errors.append(f"{self.path}: bad body: {err}")
                self._json({"error": {"message": str(err)}}, 400)
                return
            stub.record(self.path, body)
            route = _route(self.path)
            if route is None:
                self._json({"error": {"message": f"stub: no route for {self.path}"}}, 404)
                return
            route(self, body)

    return Handler


def _anthropic(h: Any, body: Json) -> None:
    if "count_tokens" in h.path:
        h._json({"input_tokens": 42})
        return
    reply = h.server_stub.decide(wire.anthropic_turn(body), wire.anthropic_tools(body), body)
    model = body.get("model", MODEL)
    if body.get("stream"):
        h._sse(wire.anthropic_sse(model, reply.text, reply.call))
    else:
        h._json(wire.anthropic_json(model, reply.text, reply.call))


def _chat(h: Any, body: Json) -> None:
    reply = h.server_stub.decide(wire.chat_turn(body), wire.chat_tools(body), body)
    model = body.get("model", MODEL)
    if body.get("stream"):
        h._sse(wire.chat_sse(model, reply.text, reply.call))
    else:
        h._json(wire.chat_json(model, reply.text, reply.call))


def _responses(h: Any, body: Json) -> None:
    reply = h.server_stub.decide(wire.responses_turn(body), wire.responses_tools(body), body)
    h._sse(wire.responses_sse(body.get("model", MODEL), reply.text, reply.call))


def _gemini(h: Any, body: Json) -> None:
    if ":countTokens" in h.path:
        h._json({"totalTokens": 42})
        return
    stream = ":streamGenerateContent" in h.path
    turn = wire.gemini_turn(body) if stream else wire.Turn(None)
    reply = h.server_stub.decide(turn, wire.gemini_tools(body), body)
    if stream:
        h._sse(wire.gemini_sse(reply.text, reply.call))
    else:
        h._json(wire.gemini_json(reply.text, reply.call))


def _route(path: str) -> Callable[[Any, Json], None] | None:
    clean = path.split("?")[0]
    if clean.endswith(("/messages", "/messages/count_tokens")):
        return _anthropic
    if clean.endswith("/chat/completions"):
        return _chat
    if clean.endswith("/responses"):
        return _responses
    if re.search(r":(streamGenerateContent|generateContent|countTokens)$", clean):
        return _gemini
    return None


def serve(port: int = 0, workdir: str = "") -> StubModel:
    """Start a stub on ``port`` (0: any free port)."""
    stub = StubModel(workdir)
    server = ThreadingHTTPServer(("127.0.0.1", port), _handler_for(stub))
    server.daemon_threads = True
    stub._server = server
    return stub


def main(argv: list[str]) -> int:
    """Serve in the foreground (for poking at a CLI by hand); prints the URL."""
    stub = serve(int(argv[0]) if argv else 0, argv[1] if len(argv) > 1 else "")
    print(stub.url, flush=True)
    assert stub._server is not None
    try:
        stub._server.serve_forever()
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
