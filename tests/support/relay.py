"""A TCP relay on 127.0.0.1 in front of the test sshd: ssh connects to the relay, the relay to
sshd, and a test decides what crosses. It can swallow what the host sends back (a command then
reaches the host and its answer never comes), swallow both ways (a command never reaches the
host), drop every open connection at once (the link dies), and turn new connections away (the
host is unreachable). Nothing listens beyond the loopback interface."""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
from dataclasses import dataclass, field


@dataclass(eq=False)
class _Link:
    """One relayed connection: ssh on one side, sshd on the other."""

    client: socket.socket
    upstream: socket.socket
    hold_replies: bool = False
    hold_requests: bool = False
    swallowed_requests: int = 0
    closed: threading.Event = field(default_factory=threading.Event)

    def start(self) -> None:
        threading.Thread(target=self._pump, args=(True,), daemon=True).start()
        threading.Thread(target=self._pump, args=(False,), daemon=True).start()

    def _pump(self, requests: bool) -> None:
        src, dst = (self.client, self.upstream) if requests else (self.upstream, self.client)
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                break
            if not data:
                break
            if requests and self.hold_requests:
                self.swallowed_requests += len(data)
                continue
            if not requests and self.hold_replies:
                continue
            try:
                dst.sendall(data)
            except OSError:
                break
        self.close()

    def close(self) -> None:
        """Reset both ends (no orderly goodbye: the link just dies)."""
        self.closed.set()
        for sock in (self.client, self.upstream):
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                sock.close()


class Relay:
    """Relays 127.0.0.1:``port`` (its own, free) to 127.0.0.1:``target``."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.refusing = False  # new connections are closed at once (the host is unreachable)
        self._server = socket.socket()
        self._server.bind(("127.0.0.1", 0))
        self._server.listen(16)
        self.port: int = self._server.getsockname()[1]
        self._links: list[_Link] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            if self.refusing:
                _Link(client, socket.socket()).close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            link = _Link(client, upstream)
            with self._lock:
                self._links.append(link)
            link.start()

    def hold(self, *, requests: bool) -> None:
        """From now on, on every open connection, swallow what the host sends back, and with
        ``requests`` what is sent to it too."""
        with self._lock:
            for link in self._links:
                link.hold_requests = requests
                link.hold_replies = True

    def swallowed_requests(self) -> int:
        """Bytes sent to the host that were swallowed (since :meth:`hold`)."""
        with self._lock:
            return sum(link.swallowed_requests for link in self._links)

    def cut(self) -> None:
        """Drop every open connection at once; new ones are relayed in full."""
        with self._lock:
            links, self._links = self._links, []
        for link in links:
            link.close()

    def close(self) -> None:
        """Stop listening and drop every connection."""
        with contextlib.suppress(OSError):
            self._server.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread
        with contextlib.suppress(OSError):
            self._server.close()
        self.cut()
