"""opencode's (and Kilo Code's) server beside its TUI, as a channel: an event reader, answers
bound to the request (how paw wires the server at spawn: ``opencode_wiring``).

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

import contextlib
import http.client
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace

from paw.adapters.channels.listeners import listening_pids
from paw.adapters.channels.opencode_wiring import OpencodeServer
from paw.adapters.channels.sse import sse_data
from paw.core.channels.opencode import REPLIES, Book, Replied, parse_event, parse_pending
from paw.core.channels.request import ChannelAnswer, ChannelRequest, ChannelState
from paw.core.config import SERVER_TIMEOUT_S
from paw.errors import ChannelRefused, DeliveryUnknown

# How long a request paw answered stays listed (state RESOLVED) after the answer: the agent may
# still be drawing its dialog, and keys must never answer it a second time (as Claude's hook).
ANSWERED_GRACE_S = 3.0


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

    def __init__(
        self,
        server: OpencodeServer,
        *,
        timeout: float = SERVER_TIMEOUT_S,
        clock: Callable[[], float] = time.time,
        is_agent: Callable[[int], bool] | None = None,
        stream: bool = True,
        listeners: Callable[[int], frozenset[int]] | None = None,
    ) -> None:
        """``is_agent(pid)``: whether a process is the agent's own (in its pane's process tree).
        Given, the server is trusted only while every process listening on the port is the
        agent's (checked when the stream connects, or before every list request without one):
        a process that took the port after the agent exited serves nothing to paw.
        ``listeners(port)``: the processes listening on a port (default: read now).
        ``timeout``: the wall-clock budget of one request to the server (``[channels]
        server_timeout_s``); a list request unanswered within it leaves the channel down for
        that look (the screen path applies, as with a lost stream)."""
        self.server = server
        self._is_agent = is_agent
        self.stream = stream
        self._listeners = listeners
        self._listed_at: float | None = None  # monotonic time of the last list (no stream)
        self.timeout = timeout  # the budget of the list and the reply requests
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
            for data in sse_data(response):
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
                status, text = self._request("GET", "/permission")
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

    def _request(self, method: str, path: str, body: str | None = None) -> tuple[int, str]:
        conn = http.client.HTTPConnection(self.server.host, self.server.port, self.timeout)
        try:
            headers = self._headers("application/json")
            if body is not None:
                headers["Content-Type"] = "application/json"
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            return response.status, response.read(1 << 20).decode("utf-8", "replace")
        finally:
            conn.close()


_REFUSALS = {
    "channel-down": "the agent's server is not connected: request {id} cannot be answered now",
    "not-pending": "the agent does not hold request {id} open: nothing was answered",
    "already-answered": "request {id} was answered already: not answered twice",
    "conflicting-claims": "the agent's server sent two different claims for {id}: not answered",
}
