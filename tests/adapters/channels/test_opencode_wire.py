"""wire_opencode: each spawn's private server (a port paw picked on 127.0.0.1, a per-spawn
password), recorded in paw's state directory only; and the reader against a local server that
replays the events captured from the pinned opencode (the live test drives the real one:
tests/e2e/test_channel_opencode_live.py)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import stat
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from paw.adapters.channels.opencode import ANSWERED_GRACE_S, OpencodeChannel
from paw.adapters.channels.opencode_wiring import (
    OpencodeServer,
    forget_opencode_server,
    load_opencode_server,
    wire_opencode,
)
from paw.core.channels.fuse import Fusion, fuse
from paw.core.channels.request import ChannelAnswer, ChannelState
from paw.core.models import Detection, DetectionState, Prompt, PromptKind
from paw.errors import ChannelRefused, PawError
from tests.support.budget import budget

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "channels" / "opencode"
WAIT = budget(20.0)


@pytest.mark.parametrize(
    ("kind", "password_var", "user"),
    [
        ("opencode", "OPENCODE_SERVER_PASSWORD", "opencode"),
        ("kilocode", "KILO_SERVER_PASSWORD", "kilo"),
    ],
)
def test_wiring_is_private_to_the_spawn(
    tmp_path: Path, kind: str, password_var: str, user: str
) -> None:
    argv, env, server = wire_opencode("agent-1", tmp_path / "state", kind=kind)
    assert argv == ["--port", str(server.port), "--hostname", "127.0.0.1", "--no-mdns"]
    assert password_var not in env  # given by the launcher, from a file (test_hub.py)
    assert len(server.password) >= 40
    assert server.username == user
    assert server.host == "127.0.0.1"
    with socket.socket() as sock:  # the port is free for the agent to take
        sock.bind(("127.0.0.1", server.port))
    record = tmp_path / "state" / "channels" / "agent-1.opencode.json"
    assert stat.S_IMODE(record.stat().st_mode) == 0o600
    assert load_opencode_server("agent-1", tmp_path / "state") == server
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == [record.name]
    other = wire_opencode("agent-2", tmp_path / "state", kind=kind)[2]
    assert other.password != server.password
    forget_opencode_server("agent-1", tmp_path / "state")
    assert load_opencode_server("agent-1", tmp_path / "state") is None


def test_bad_names_and_records_wire_nothing(tmp_path: Path) -> None:
    with pytest.raises(PawError):
        wire_opencode("../x", tmp_path)
    with pytest.raises(PawError):
        wire_opencode("a", tmp_path, kind="claude-code")
    (tmp_path / "channels").mkdir()
    (tmp_path / "channels" / "a.opencode.json").write_text("{not json", encoding="utf-8")
    assert load_opencode_server("a", tmp_path) is None
    (tmp_path / "channels" / "b.opencode.json").write_text(
        json.dumps(
            {
                "agent": "c",
                "kind": "opencode",
                "host": "127.0.0.1",
                "port": 1,
                "username": "u",
                "password": "p",
            }
        ),
        encoding="utf-8",
    )
    assert load_opencode_server("b", tmp_path) is None  # a record for another agent


# --- the reader, against a local server replaying captured events ----------------------------


class Replay:
    """A local stand-in for opencode's server: the captured events, its 401 and 404 rules."""

    def __init__(self, password: str) -> None:
        self.password = password
        events = json.loads((FIXTURES / "opencode-shell-events.json").read_text("utf-8"))
        self.asked = next(e for e in events if e["type"] == "permission.asked")
        self.pending: list[dict[str, Any]] = []
        self.streams: list[Any] = []
        self.event_requests = 0  # GET /event requests made (streams opened), over its life
        self.replies: list[tuple[str, dict[str, Any]]] = []
        self.down = threading.Event()  # while set, /event answers 503
        self.closed = threading.Event()  # set by close(): every held stream ends then
        self.holding: list[threading.Thread] = []  # the handlers holding a stream open
        self.list_delay = 0.0  # seconds GET /permission takes to answer (a loaded machine)
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def port(self) -> int:
        return int(self.server.server_address[1])

    def emit(self, event: dict[str, Any]) -> None:
        data = f"data: {json.dumps(event)}\n\n".encode()
        with self.lock:
            for sock in list(self.streams):
                try:
                    sock.sendall(data)
                except OSError:
                    self.streams.remove(sock)

    def drop_streams(self) -> None:
        with self.lock:
            for sock in self.streams:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
            self.streams.clear()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        replay = self
        import base64

        good = "Basic " + base64.b64encode(f"opencode:{self.password}".encode()).decode()

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                del args

            def _send(self, status: int, body: str) -> None:
                raw = body.encode()
                # paw may have given up on a delayed answer (what a delay is there to show)
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self.send_response(status)
                    self.send_header("Content-Length", str(len(raw)))
                    self.end_headers()
                    self.wfile.write(raw)

            def do_GET(self) -> None:
                if self.headers.get("Authorization") != good:
                    return self._send(401, "")
                if self.path == "/permission":
                    if replay.list_delay:
                        replay.closed.wait(replay.list_delay)
                    with replay.lock:
                        return self._send(200, json.dumps(replay.pending))
                if self.path == "/event" and replay.down.is_set():
                    return self._send(503, "")
                if self.path == "/event":
                    # connected, and listed for emit(), at once (under emit's lock): an event
                    # emitted once the client saw "connected" reaches its stream
                    with replay.lock:
                        replay.event_requests += 1
                        self.send_response(200)
                        self.send_header("Content-Type", "text/event-stream")
                        self.end_headers()
                        self.wfile.write(b'data: {"type":"server.connected","properties":{}}\n\n')
                        self.wfile.flush()
                        replay.streams.append(self.connection)
                        replay.holding.append(threading.current_thread())
                    # hold the stream open until the replay closes, then end it: a handler
                    # that outlived its test read its dead connection again in a later test
                    # (a connection reset printed there)
                    replay.closed.wait()
                    self.close_connection = True
                    return None
                return self._send(404, "")

            def do_POST(self) -> None:
                if self.headers.get("Authorization") != good:
                    return self._send(401, "")
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                rid = self.path.split("/")[2]
                with replay.lock:
                    held = [p for p in replay.pending if p["id"] == rid]
                    if not held:
                        return self._send(404, '{"_tag":"PermissionNotFoundError"}')
                    replay.pending.remove(held[0])
                    replay.replies.append((rid, body))
                return self._send(200, "true")

        return Handler

    def close(self) -> None:
        self.closed.set()
        self.drop_streams()
        self.server.shutdown()
        self.server.server_close()
        with self.lock:
            holding = list(self.holding)
        for thread in holding:  # nothing of this replay outlives it
            thread.join(budget(10.0))
            assert not thread.is_alive(), "a stream handler did not end"


@pytest.fixture
def replay() -> Iterator[Replay]:
    server = Replay("s3cret")
    yield server
    server.close()


def _server(port: int, password: str = "s3cret") -> OpencodeServer:  # noqa: S107 - a test server
    return OpencodeServer("a1", "opencode", "127.0.0.1", port, "opencode", password)


def test_a_closed_replay_leaves_no_thread_behind() -> None:
    """The stand-in server ends every handler when it closes, a held event stream's too: one
    that outlived its test read its dead connection again during a later test of the same
    worker, which printed that test a connection reset from a client it never had."""
    before = set(threading.enumerate())
    replay = Replay("s3cret")
    channel = OpencodeChannel(_server(replay.port)).start()
    try:
        assert channel.wait_connected(WAIT)  # a stream is held open
    finally:
        channel.close()
        replay.close()

    def handlers() -> list[threading.Thread]:  # (the server's: a request each)
        new = set(threading.enumerate()) - before
        return [t for t in new if "process_request_thread" in t.name]

    end = time.monotonic() + budget(10.0)
    while time.monotonic() < end and handlers():
        time.sleep(0.05)
    assert not handlers()


def test_a_request_pending_before_paw_connected_is_listed(replay: Replay) -> None:
    replay.pending.append(replay.asked["properties"])
    channel = OpencodeChannel(_server(replay.port)).start()
    try:
        assert channel.wait_connected(WAIT)
        (request,) = channel.pending()
        assert request.subject == "touch paw-shell.txt"
    finally:
        channel.close()


def test_without_the_password_nothing_is_listed(replay: Replay) -> None:
    replay.pending.append(replay.asked["properties"])
    channel = OpencodeChannel(_server(replay.port, "wrong")).start()
    try:
        assert not channel.wait_connected(budget(2.0))
        assert channel.pending() == []
        with pytest.raises(ChannelRefused) as refused:
            channel.answer(replay.asked["properties"]["id"], ChannelAnswer.ALLOW)
        assert refused.value.reason == "channel-down"
        assert replay.replies == []
    finally:
        channel.close()


def test_an_answer_goes_once_bound_to_the_request(replay: Replay) -> None:
    channel = OpencodeChannel(_server(replay.port)).start()
    try:
        assert channel.wait_connected(WAIT)
        props = replay.asked["properties"]
        replay.pending.append(props)
        replay.emit(replay.asked)
        assert channel.wait_pending(WAIT)
        with pytest.raises(ChannelRefused):
            channel.answer("per_forged", ChannelAnswer.ALLOW)
        with pytest.raises(ChannelRefused):
            channel.answer(props["id"], ChannelAnswer.ALWAYS)  # not verified: never sent
        channel.answer(props["id"], ChannelAnswer.DENY)
        # answered: listed RESOLVED a while (the dialog may still be drawn), never PENDING
        assert [r.state for r in channel.pending()] == [ChannelState.RESOLVED]
        with pytest.raises(ChannelRefused) as twice:
            channel.answer(props["id"], ChannelAnswer.ALLOW)
        assert twice.value.reason == "already-answered"
        assert replay.replies == [(props["id"], {"reply": "reject"})]
        replay.emit(
            {
                "type": "permission.replied",
                "properties": {
                    "sessionID": props["sessionID"],
                    "requestID": props["id"],
                    "reply": "reject",
                },
            }
        )
        assert channel.wait_state(props["id"], ChannelState.RESOLVED, WAIT)
        assert channel.reply_of(props["id"]) == "reject"
        replay.emit(replay.asked)  # a replay of the old event reopens nothing
        assert not [r for r in channel.pending() if r.state is not ChannelState.RESOLVED]
    finally:
        channel.close()


def test_a_dropped_stream_vouches_for_nothing_until_it_is_back(replay: Replay) -> None:
    channel = OpencodeChannel(_server(replay.port))
    channel.RETRY = 0.05
    channel.start()
    try:
        assert channel.wait_connected(WAIT)
        props = replay.asked["properties"]
        replay.pending.append(props)
        replay.emit(replay.asked)
        assert channel.wait_pending(WAIT)
        replay.down.set()
        replay.drop_streams()
        assert channel.wait_state(props["id"], ChannelState.TIMED_OUT, WAIT)
        assert channel.pending() == []
        with pytest.raises(ChannelRefused) as down:
            channel.answer(props["id"], ChannelAnswer.ALLOW)
        assert down.value.reason == "channel-down"
        replay.down.clear()
        assert channel.wait_connected(WAIT)  # reconnected: the list says it is still open
        assert channel.wait_state(props["id"], ChannelState.PENDING, WAIT)
        assert [r.request_id for r in channel.pending()] == [props["id"]]
    finally:
        channel.close()


def test_a_port_held_by_another_process_serves_nothing(replay: Replay) -> None:
    replay.pending.append(replay.asked["properties"])
    channel = OpencodeChannel(_server(replay.port))
    assert channel.listener_pids() == {os.getpid()}  # the replay listens in this process
    strangers = OpencodeChannel(_server(replay.port), is_agent=lambda pid: pid != os.getpid())
    owned = OpencodeChannel(_server(replay.port), is_agent=lambda pid: pid == os.getpid())
    strangers.start()
    owned.start()
    try:
        assert owned.wait_connected(WAIT)
        assert not strangers.wait_connected(budget(1.0))
        assert strangers.pending() == []
    finally:
        strangers.close()
        owned.close()


def test_a_request_paw_answered_reads_answered_while_its_dialog_may_still_show(
    replay: Replay,
) -> None:
    """Fused with a screen still drawing the dialog, a request paw answered is ANSWERED (busy:
    nothing to answer again, by keys or otherwise) for a grace period, then gone."""
    now = [1000.0]
    channel = OpencodeChannel(_server(replay.port), clock=lambda: now[0]).start()
    try:
        assert channel.wait_connected(WAIT)
        props = replay.asked["properties"]
        replay.pending.append(props)
        replay.emit(replay.asked)
        assert channel.wait_pending(WAIT)
        prompt = Prompt(PromptKind.SHELL, "touch paw-shell.txt", "Permission required",
                        ("Enter",), ("Escape",), "fp")  # fmt: skip
        screen = Detection(DetectionState.PROMPT, "opencode", prompt)
        assert fuse(screen, channel.pending()).fusion is Fusion.AGREE
        channel.answer(props["id"], ChannelAnswer.ALLOW)
        assert fuse(screen, channel.pending()).fusion is Fusion.ANSWERED
        replay.emit(
            {
                "type": "permission.replied",
                "properties": {
                    "sessionID": props["sessionID"],
                    "requestID": props["id"],
                    "reply": "once",
                },
            }
        )
        assert channel.wait_state(props["id"], ChannelState.RESOLVED, WAIT)
        now[0] += ANSWERED_GRACE_S - 0.5
        assert fuse(screen, channel.pending()).fusion is Fusion.ANSWERED
        now[0] += 1.0
        assert channel.pending() == []
    finally:
        channel.close()


def test_without_a_stream_a_frozen_server_holds_a_look_only_for_its_budget() -> None:
    """A server that accepts and never answers (a stopped agent): a one-shot look gives up once
    the server's budget (``[channels] server_timeout_s``, here 0.3 s) passed and the channel
    vouches for nothing (the screen path applies), instead of holding `paw prompts` for
    ever."""
    with socket.socket() as frozen:
        frozen.bind(("127.0.0.1", 0))
        frozen.listen(8)  # the kernel accepts; nobody reads
        port = frozen.getsockname()[1]
        channel = OpencodeChannel(_server(port), stream=False, timeout=0.3)
        started = time.monotonic()
        assert channel.pending() == []
        assert not channel.connected
        assert 0.3 <= time.monotonic() - started < budget(20.0)
        with pytest.raises(ChannelRefused) as refused:
            channel.answer("per_x", ChannelAnswer.ALLOW)
        assert refused.value.reason == "channel-down"
