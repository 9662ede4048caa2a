"""opencode's (and Kilo Code's) server beside its TUI, as a channel: wiring at spawn, an event
reader, answers bound to the request.

``wire_opencode`` gives the spawn its private server: ``--port`` (a free port on 127.0.0.1
that paw picked), ``--hostname 127.0.0.1`` and ``--no-mdns`` (flags win over any ``server``
table in the user's global config), and a per-spawn password in the environment
(``OPENCODE_SERVER_PASSWORD`` / ``KILO_SERVER_PASSWORD``; the server then answers 401 to any
request without it). Nothing is written to the user's settings or to the worktree; the port and
password are kept in paw's state directory (mode 0600) so a later paw process can reconnect.

The password never passes through a process's argv (``ps`` shows every user the argv of the
tmux client that starts the pane): it is written to a file of its own in paw's state directory
(mode 0600), and the pane starts ``/bin/sh -c LAUNCH paw-launch FILE PROGRAM ARGS…``, a few
lines of shell that read it into the variable and ``exec`` the agent in place (same pid).

``OpencodeChannel`` reads the server in one of two ways. Long-running paw processes (the TUI,
the sweeper, a wave runner: ``stream=True``) keep one background thread per agent on
``GET /event`` (server-sent events) and re-read ``GET /permission`` each time the stream
(re)connects; ``pending()`` and ``state()`` read memory only. Every other paw process (``paw
prompts``, ``paw approve``, ``paw ls``…) holds no stream: each look is one ``GET /permission``
(the server's list of pending requests) on a connection closed at once. opencode's server adds
a listener per open event stream, and past ten at once Node prints a
``MaxListenersExceededWarning`` over the agent's TUI. ``answer()`` posts
``/permission/{id}/reply`` for a request the server listed and has not closed; the server itself
answers 404 to an id it does not hold open (verified live: a wrong id, an answered id), so an
answer reaches only a request the agent holds open.
"""

from __future__ import annotations

import base64
import contextlib
import http.client
import json
import os
import re
import secrets
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import psutil

from paw.core.channels.opencode import REPLIES, Book, Replied, parse_event, parse_pending
from paw.core.channels.request import ChannelAnswer, ChannelRequest, ChannelState
from paw.errors import ChannelRefused, DeliveryUnknown, PawError

HOST = "127.0.0.1"
# How long a request paw answered stays listed (state RESOLVED) after the answer: the agent may
# still be drawing its dialog, and keys must never answer it a second time (as Claude's hook).
ANSWERED_GRACE_S = 3.0

# Per agent kind: the environment variables of the server's credential, its default user name.
_FLAVOURS: dict[str, tuple[str, str, str]] = {
    "opencode": ("OPENCODE_SERVER_PASSWORD", "OPENCODE_SERVER_USERNAME", "opencode"),
    "kilocode": ("KILO_SERVER_PASSWORD", "KILO_SERVER_USERNAME", "kilo"),
}
KINDS = tuple(_FLAVOURS)
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


@dataclass(frozen=True, slots=True)
class OpencodeServer:
    """Where one spawn's server listens and the credential paw gave it."""

    agent: str  # paw's agent name
    kind: str  # "opencode" | "kilocode"
    host: str
    port: int
    username: str
    password: str

    def authorization(self) -> str:
        """The ``Authorization`` header value."""
        token = base64.b64encode(f"{self.username}:{self.password}".encode()).decode()
        return f"Basic {token}"


def wire_opencode(
    agent_name: str, state_dir: Path, *, kind: str = "opencode"
) -> tuple[list[str], dict[str, str], OpencodeServer]:
    """The flags and environment that give this spawn its private server, and where it will be.

    The port is free on 127.0.0.1 when picked (another process could take it before the agent
    binds it: the agent then fails to start its server and the channel stays down, so the screen
    path is used as without a channel). Saved under ``state_dir/channels/`` (0600)."""
    if kind not in _FLAVOURS:
        raise PawError(f"no opencode-style server for agent kind {kind!r}")
    if not _NAME.match(agent_name):
        raise PawError(f"invalid agent name for a channel: {agent_name!r}")
    _password_var, user_var, username = _FLAVOURS[kind]
    server = OpencodeServer(
        agent=agent_name,
        kind=kind,
        host=HOST,
        port=_free_port(),
        username=username,
        password=secrets.token_urlsafe(32),
    )
    _save(server, state_dir)
    argv = ["--port", str(server.port), "--hostname", HOST, "--no-mdns"]
    env = {user_var: username}
    return argv, env, server


# The launcher the pane starts: reads the password from the file paw wrote (never an argument
# of any process), puts it in the agent's environment and execs the agent in place. A file it
# cannot read starts nothing (a server without its password would answer anyone on the host).
_LAUNCH = (
    '{{ IFS= read -r secret < "$1"; }} 2>/dev/null || {{ echo "paw: cannot read the channel '
    'password file $1 (the agent was not started; spawn it again)" >&2; exit 1; }}; '
    'export {var}="$secret"; unset secret; shift; exec "$@"'
)
LAUNCHER = "paw-launch"  # the launcher's $0 (what ps shows of it until the exec)


def launch_argv(server: OpencodeServer, state_dir: Path, argv: list[str]) -> list[str]:
    """``argv`` started through the launcher that gives it the server's password from a file
    (mode 0600, next to the record) instead of from the pane's environment on tmux's command
    line. The file stays until the agent is forgotten (a respawned pane reads it again)."""
    path = _password_file(server.agent, state_dir)
    _write_private(path, server.password + "\n")
    var = _FLAVOURS[server.kind][0]
    return ["/bin/sh", "-c", _LAUNCH.format(var=var), LAUNCHER, str(path), *argv]


def load_opencode_server(agent_name: str, state_dir: Path) -> OpencodeServer | None:
    """The server ``wire_opencode`` recorded for ``agent_name``; ``None`` when none is (or the
    record is unreadable: then the agent runs on the screen path)."""
    if not _NAME.match(agent_name):
        return None
    try:
        data = json.loads(_record(agent_name, state_dir).read_text(encoding="utf-8"))
        server = OpencodeServer(**data)
    except (OSError, ValueError, TypeError):
        return None
    if server.agent != agent_name or server.kind not in _FLAVOURS or server.host != HOST:
        return None
    return server


def forget_opencode_server(agent_name: str, state_dir: Path) -> None:
    """Remove the record (the agent is gone)."""
    if _NAME.match(agent_name):
        _record(agent_name, state_dir).unlink(missing_ok=True)
        _password_file(agent_name, state_dir).unlink(missing_ok=True)


def _record(agent_name: str, state_dir: Path) -> Path:
    return state_dir / "channels" / f"{agent_name}.opencode.json"


def _password_file(agent_name: str, state_dir: Path) -> Path:
    return state_dir / "channels" / f"{agent_name}.opencode.password"


def _save(server: OpencodeServer, state_dir: Path) -> None:
    _write_private(_record(server.agent, state_dir), json.dumps(asdict(server)))


def _write_private(path: Path, text: str) -> None:
    """``text`` to ``path`` atomically, mode 0600 from its creation on."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:  # mkstemp: mode 0600
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        Path(tmp).replace(path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


class OpencodeChannel:
    """One agent's opencode server as a channel (``ChannelPort``): ``pending``, ``answer``,
    ``state``. With ``stream=True``, ``start()`` runs the event reader and ``close()`` stops
    it; with ``stream=False`` (one-shot commands) no stream is ever opened: each look is one
    ``GET /permission``, at most one per ``LIST_TTL`` seconds except where an answer needs the
    server's word now (before an answer, and while waiting for it to be taken)."""

    # The server sends a heartbeat every few seconds; a stream silent this long is dead.
    READ_TIMEOUT = 30.0
    RETRY = 0.5  # seconds between reconnection attempts (doubling, at most RETRY_MAX)
    RETRY_MAX = 5.0
    LIST_TTL = 0.2  # without a stream: a sweep's looks at one agent share one list request
    LIST_INTERVAL = 0.05  # without a stream: how often the waits re-read the list
    # Without a stream: a list request unanswered this long leaves the channel down (the screen
    # path applies, as with a lost stream) instead of holding a command on a frozen agent.
    LIST_TIMEOUT = 3.0

    def __init__(
        self,
        server: OpencodeServer,
        *,
        timeout: float = 10.0,
        clock: Callable[[], float] = time.time,
        is_agent: Callable[[int], bool] | None = None,
        stream: bool = True,
        listeners: Callable[[int], frozenset[int]] | None = None,
    ) -> None:
        """``is_agent(pid)``: whether a process is the agent's own (in its pane's process tree).
        Given, the server is trusted only while every process listening on the port is the
        agent's (checked when the stream connects, or before every list request without one):
        a process that took the port after the agent exited serves nothing to paw.
        ``listeners(port)``: the processes listening on a port (default: read now)."""
        self.server = server
        self._is_agent = is_agent
        self.stream = stream
        self._listeners = listeners
        self._listed_at: float | None = None  # monotonic time of the last list (no stream)
        self.timeout = timeout  # for the list and the reply requests
        self._clock = clock
        self._book = Book()
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._sock: socket.socket | None = None  # the event stream's socket, to cut it
        self._thread: threading.Thread | None = None
        self._taken: dict[str, tuple[ChannelRequest, float]] = {}  # paw's answers, and when

    # --- ChannelPort ----------------------------------------------------------------------

    def pending(self) -> list[ChannelRequest]:
        """The requests the agent holds open (from memory: no request, no subprocess); those
        paw answered stay listed, RESOLVED, for ``ANSWERED_GRACE_S`` after the answer."""
        self._look()
        now = self._clock()
        with self._lock:
            for rid in [r for r, (_, at) in self._taken.items() if now - at >= ANSWERED_GRACE_S]:
                del self._taken[rid]
            taken = [replace(r, state=ChannelState.RESOLVED) for r, _ in self._taken.values()]
            return [*self._book.pending(), *taken]

    def answered_recently(self) -> bool:
        """Whether a request paw answered here is still listed as answered (the grace)."""
        now = self._clock()
        with self._lock:
            return any(now - at < ANSWERED_GRACE_S for _, at in self._taken.values())

    def state(self, request_id: str) -> ChannelState:
        """Where ``request_id`` stands, as the server last said (without a stream: now)."""
        self._look(fresh=True)
        with self._lock:
            return self._book.state(request_id)

    def answer(self, request_id: str, answer: ChannelAnswer) -> None:
        """Send ``answer`` bound to ``request_id``.

        Refused (``ChannelRefused``, nothing sent) when the stream is down, the server does not
        hold the request open, paw answered it already, its claims conflict, or the answer is
        one this channel does not carry. A 404 from the server (it no longer holds the id) is
        a refusal too. No reply at all from the server: ``DeliveryUnknown`` (never resent)."""
        if answer is ChannelAnswer.ALWAYS:
            raise ChannelRefused(
                "opencode's 'always' is not verified on the pinned version: not sent",
                reason="unsupported-answer",
            )
        self._look(fresh=True)
        with self._lock:
            why = self._book.refusal(request_id)
            if why is not None:
                raise ChannelRefused(_REFUSALS[why].format(id=request_id), reason=why)
            self._book.answered.add(request_id)  # never twice, whatever follows
            self._taken[request_id] = (self._book.open[request_id], self._clock())
        body = json.dumps({"reply": REPLIES[answer]})
        try:
            status, text = self._request("POST", f"/permission/{request_id}/reply", body)
        except (OSError, http.client.HTTPException) as err:
            raise DeliveryUnknown(
                f"the answer to {request_id} went to the agent's server and no reply came "
                f"back ({err})",
                hint="paw does not resend it; check the agent's pane",
            ) from err
        if status == 404:
            with self._lock:
                self._book.close(request_id, ChannelState.RESOLVED)
                self._taken.pop(request_id, None)  # nothing answered: nothing to cover
            raise ChannelRefused(
                f"the agent no longer holds request {request_id} open: nothing was answered",
                reason="not-pending",
            )
        if status != 200 or text.strip() != "true":
            raise DeliveryUnknown(
                f"the agent's server answered {status} to the reply for {request_id}",
                hint="paw does not resend it; check the agent's pane",
            )

    def reply_of(self, request_id: str) -> str | None:
        """The reply the server says the agent took (``once``, ``always``, ``reject``), once
        its ``permission.replied`` arrived; ``None`` before, or when it was never seen."""
        with self._lock:
            return self._book.replies.get(request_id)

    # --- waiting (for callers that confirm an answer took) ----------------------------------

    def wait_state(self, request_id: str, wanted: ChannelState, timeout: float) -> bool:
        """Wait until ``state(request_id)`` is ``wanted``; False when ``timeout`` passed."""
        if not self.stream:
            return self._poll(lambda: self._book.state(request_id) is wanted, timeout)
        end = time.monotonic() + timeout
        with self._changed:
            while self._book.state(request_id) is not wanted:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
        return True

    def wait_pending(self, timeout: float) -> list[ChannelRequest]:
        """Wait until something is pending; the list (empty when ``timeout`` passed)."""
        if not self.stream:
            self._poll(lambda: bool(self._book.pending()), timeout)
            with self._lock:
                return self._book.pending()
        end = time.monotonic() + timeout
        with self._changed:
            while not self._book.pending():
                left = end - time.monotonic()
                if left <= 0:
                    return []
                self._changed.wait(left)
            return self._book.pending()

    def wait_connected(self, timeout: float) -> bool:
        """Wait until the stream is up and the pending list read; False after ``timeout``."""
        if not self.stream:
            return self._poll(lambda: self._book.synced, timeout)
        end = time.monotonic() + timeout
        with self._changed:
            while not self._book.synced:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
        return True

    @property
    def connected(self) -> bool:
        """The event stream is up and the pending list was read since it (re)connected
        (without a stream: the list was read, now or within ``LIST_TTL``)."""
        self._look()
        with self._lock:
            return self._book.synced

    # --- the reader ---------------------------------------------------------------------------

    def start(self) -> OpencodeChannel:
        """Start the background event reader (a daemon thread; none without a stream)."""
        if self._thread is None and self.stream:
            name = f"paw-channel-{self.server.agent}"
            self._thread = threading.Thread(target=self._run, name=name, daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop the reader; the channel then lists nothing."""
        self._stop.set()
        sock = self._sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        if self._thread is not None:
            self._thread.join(self.READ_TIMEOUT)
        self._lose()

    def _run(self) -> None:
        delay = self.RETRY
        while not self._stop.is_set():
            try:
                for _ in self._stream():
                    delay = self.RETRY  # a working stream resets the back-off
            except (OSError, http.client.HTTPException, ValueError):
                pass
            self._lose()
            if self._stop.wait(delay):
                return
            delay = min(delay * 2, self.RETRY_MAX)

    def _stream(self) -> Iterator[None]:
        conn = http.client.HTTPConnection(self.server.host, self.server.port, self.READ_TIMEOUT)
        try:
            conn.connect()
            self._sock = conn.sock  # getresponse() drops conn.sock for a stream without length
            if self._stop.is_set():
                return
            conn.request("GET", "/event", headers=self._headers("text/event-stream"))
            response = conn.getresponse()
            if response.status != 200 or not self._owned():
                return
            # Subscribed: whatever happens from now is in the stream; what happened before is
            # in the list. Read the list, then the stream (resends are idempotent).
            status, text = self._request("GET", "/permission")
            listed = parse_pending(
                json.loads(text) if status == 200 else None,
                agent=self.server.agent,
                now=self._clock(),
            )
            if listed is None:
                return
            with self._changed:
                self._book.sync(listed)
                self._changed.notify_all()
            yield None
            for data in _sse_data(response):
                self._apply(data)
                yield None
        finally:
            self._sock = None
            conn.close()

    # --- without a stream: the list, read when looked at ---------------------------------------

    def _look(self, *, fresh: bool = False) -> None:
        """Without a stream: read the server's pending list unless it was read within
        ``LIST_TTL`` (``fresh``: read it now). With one: nothing (the reader keeps it)."""
        if self.stream:
            return
        now = time.monotonic()
        if not fresh and self._listed_at is not None and now - self._listed_at < self.LIST_TTL:
            return
        self._listed_at = now
        listed: tuple[ChannelRequest, ...] | None = None
        if not self._stop.is_set() and self._owned():
            try:
                timeout = min(self.timeout, self.LIST_TIMEOUT)
                status, text = self._request("GET", "/permission", timeout=timeout)
                payload = json.loads(text) if status == 200 else None
            except (OSError, http.client.HTTPException, ValueError):
                payload = None
            listed = parse_pending(payload, agent=self.server.agent, now=self._clock())
        with self._changed:
            if listed is None:
                self._book.lose()  # nothing can be vouched for
            else:
                self._book.sync(listed)
            self._changed.notify_all()

    def _poll(self, done: Callable[[], bool], timeout: float) -> bool:
        """Without a stream: re-read the list until ``done()`` (under the lock) holds."""
        end = time.monotonic() + timeout
        while True:
            self._look(fresh=True)
            with self._lock:
                if done():
                    return True
            left = end - time.monotonic()
            if left <= 0 or self._stop.wait(min(self.LIST_INTERVAL, left)):
                return False

    def listener_pids(self) -> frozenset[int]:
        """The processes listening on the server's port on 127.0.0.1 (empty when unknown)."""
        if self._listeners is not None:
            return self._listeners(self.server.port)
        return listening_pids(self.server.port)

    def _owned(self) -> bool:
        if self._is_agent is None:
            return True
        pids = self.listener_pids()
        return bool(pids) and all(self._is_agent(pid) for pid in pids)

    def _apply(self, data: str) -> None:
        try:
            event = json.loads(data)
        except ValueError:
            return
        parsed = parse_event(event, agent=self.server.agent, now=self._clock())
        if parsed is None:
            return
        with self._changed:
            if isinstance(parsed, Replied):
                self._book.reply(parsed)
            else:
                self._book.ask(parsed)
            self._changed.notify_all()

    def _lose(self) -> None:
        with self._changed:
            self._book.lose()
            self._changed.notify_all()

    def _headers(self, accept: str) -> dict[str, str]:
        return {"Authorization": self.server.authorization(), "Accept": accept}

    def _request(
        self, method: str, path: str, body: str | None = None, *, timeout: float | None = None
    ) -> tuple[int, str]:
        wait = self.timeout if timeout is None else timeout
        conn = http.client.HTTPConnection(self.server.host, self.server.port, wait)
        try:
            headers = self._headers("application/json")
            if body is not None:
                headers["Content-Type"] = "application/json"
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            return response.status, response.read(1 << 20).decode("utf-8", "replace")
        finally:
            conn.close()


def listening_ports() -> dict[int, frozenset[int]]:
    """Per TCP port, the processes listening on it on this machine (empty when unknown)."""
    try:
        conns = psutil.net_connections(kind="tcp")
    except (psutil.Error, OSError):
        return {}
    found: dict[int, set[int]] = {}
    for c in conns:
        if c.pid and c.status == psutil.CONN_LISTEN and c.laddr:
            found.setdefault(c.laddr.port, set()).add(c.pid)
    return {port: frozenset(pids) for port, pids in found.items()}


def listening_pids(port: int) -> frozenset[int]:
    """The processes listening on ``port`` (empty when none or unknown)."""
    return listening_ports().get(port, frozenset())


_REFUSALS = {
    "channel-down": "the agent's server is not connected: request {id} cannot be answered now",
    "not-pending": "the agent does not hold request {id} open: nothing was answered",
    "already-answered": "request {id} was answered already: not answered twice",
    "conflicting-claims": "the agent's server sent two different claims for {id}: not answered",
}


def _sse_data(response: http.client.HTTPResponse) -> Iterator[str]:
    """The ``data`` of each server-sent event (lines joined), as they arrive."""
    lines: list[str] = []
    while True:
        raw = response.readline(1 << 20)
        if not raw:
            return
        line = raw.decode("utf-8", "replace").rstrip("\r\n")
        if not line:
            if lines:
                yield "\n".join(lines)
                lines = []
            continue
        if line.startswith("data:"):
            lines.append(line[5:].removeprefix(" "))
