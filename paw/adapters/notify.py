"""Escalation channels: apprise URLs, the terminal bell, a tmux status-line badge, a command hook.

Messages are delivered by one background thread, in order, so a slow chat service never holds up
the wave runner's sweeps. Everything that leaves paw's process gets the redacted text (see
:func:`paw.core.redact.redact`, with a line saying so; the hook also gets ``PAW_REDACTED=1``);
the full text is only in the local audit.
"""

from __future__ import annotations

import logging
import queue
import sys
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO
from urllib.parse import quote

from paw.adapters import proc
from paw.errors import ConfigError

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    import apprise

    from paw.core.wave import NotifySettings
    from paw.core.wave_report import Message

HOOK_TIMEOUT_S = 30.0
NTFY_SCHEMES = frozenset({"ntfy", "ntfys"})  # apprise services that offer action buttons
NTFY_ACTIONS_MAX = 3  # ntfy shows at most three buttons
BADGE_OPTION = "status-right"
_STOP = object()


@dataclass(frozen=True, slots=True)
class _Outgoing:
    message: Message
    on_attempt: Callable[[], None] | None
    on_done: Callable[[], None] | None


class ChannelNotifier:
    """Sends each message to every configured channel, from a background thread."""

    def __init__(
        self,
        settings: NotifySettings,
        *,
        tmux_socket: str | None = None,
        tmux_session: str | None = None,
        bell_stream: TextIO | None = None,
    ) -> None:
        """``bell_stream`` is the foreground terminal (None: no bell, e.g. when detached)."""
        self.settings = settings
        self.socket = tmux_socket
        self.session = tmux_session
        self.bell_stream = bell_stream if settings.bell else None
        self.errors: list[str] = []
        self.sent: list[tuple[float, str]] = []  # (monotonic time handed to channels, event)
        self._apprise = _apprise(settings.urls) if settings.urls else None
        # ntfy's URLs apart: a message with one-occurrence links goes to them with an "Open"
        # button per link (a view action: it opens the page, it never decides)
        self._ntfy = [u for u in settings.urls if _scheme(u).lower() in NTFY_SCHEMES]
        others = [u for u in settings.urls if u not in self._ntfy]
        self._others = _apprise(others) if others and self._ntfy else None
        self._queue: queue.Queue[object] = queue.Queue()
        self._thread = threading.Thread(target=self._work, name="paw-notify", daemon=True)
        self._thread.start()

    def send(
        self,
        message: Message,
        on_attempt: Callable[[], None] | None = None,
        on_done: Callable[[], None] | None = None,
    ) -> None:
        """Queue ``message`` (returns at once). The delivery thread calls ``on_attempt`` right
        before the channels (if it raises, the message is not delivered) and ``on_done`` once
        every channel returned (delivered, or failed with an error in :attr:`errors`)."""
        self._queue.put(_Outgoing(message, on_attempt, on_done))

    def badge(self, waiting: int) -> None:
        """Show ``paw: N waiting`` in paw's tmux session status line (0 removes it)."""
        if not self.settings.tmux_badge or not self.session:
            return
        self._queue.put(("badge", waiting))

    def close(self, timeout: float = 10.0) -> None:
        """Deliver what is queued (up to ``timeout`` seconds), then stop the thread."""
        self._queue.put(_STOP)
        self._thread.join(timeout)
        if self._thread.is_alive():
            self.errors.append(
                f"channels still busy after {timeout:g}s: {self._queue.qsize()} queued "
                "messages not delivered"
            )

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            try:
                if isinstance(item, _Outgoing):
                    if item.on_attempt is not None:
                        item.on_attempt()
                    try:
                        self._deliver(item.message)
                    finally:
                        if item.on_done is not None:
                            item.on_done()
                elif isinstance(item, tuple):
                    self._set_badge(int(item[1]))
            except Exception as err:  # noqa: BLE001 - a channel failing must not stop the others
                self.errors.append(f"{type(err).__name__}: {err}")

    def _deliver(self, message: Message) -> None:
        if self.bell_stream is not None and message.event in ("parked", "digest", "stuck"):
            self.bell_stream.write("\a")
            self.bell_stream.flush()
        if self._apprise is not None:
            targets = [self._apprise]
            actions = open_actions(message.opens)
            if actions and self._ntfy:
                ntfy = _apprise([with_actions(u, actions) for u in self._ntfy])
                targets = [ntfy] if self._others is None else [self._others, ntfy]
            ok = True
            for app in targets:  # every one, whatever the one before did
                ok = bool(app.notify(
                    title=message.outgoing_title, body=message.outgoing_body,
                    notify_type=message.level,  # a failure reads as one on the phone
                )) and ok  # fmt: skip
            if not ok:
                self.errors.append(f"apprise could not deliver {message.event!r}")
        if self.settings.command:
            self._hook(self.settings.command, message)
        self.sent.append((time.monotonic(), message.event))

    def _hook(self, argv: Sequence[str], message: Message) -> None:
        env = {
            "PAW_EVENT": message.event,
            "PAW_WAVE": message.wave,
            "PAW_TASK": message.task or "",
            "PAW_PROMPT_ID": message.prompt_id or "",
            "PAW_TITLE": message.outgoing_title,
            "PAW_REDACTED": "1" if message.redacted else "0",
        }
        done = proc.run(
            argv, input=message.outgoing_body, env=env, timeout=HOOK_TIMEOUT_S, check=False
        )
        if done.returncode != 0:
            self.errors.append(f"hook {argv[0]} exited {done.returncode}: {done.stderr.strip()}")

    def _set_badge(self, waiting: int) -> None:
        flag = "-S" if self.socket and "/" in self.socket else "-L"
        base = ["tmux", *([flag, self.socket] if self.socket else [])]
        target = ["-t", self.session or ""]
        if waiting:
            text = f"#[reverse] paw: {waiting} waiting #[default] %H:%M"
            argv = [*base, "set-option", *target, BADGE_OPTION, text]
        else:
            argv = [*base, "set-option", "-u", *target, BADGE_OPTION]
        proc.run(argv, timeout=10, check=False)


def open_actions(opens: Sequence[tuple[str, str]]) -> str:
    """ntfy's ``actions`` for one-occurrence links: a ``view`` button per link (it opens the
    page, which shows the prompt as it is now; a decision there is a separate POST), at most
    :data:`NTFY_ACTIONS_MAX`. A label or link that would break the list (a comma, a semicolon)
    gets no button: the link stays in the text."""
    usable = [
        (label, url)
        for label, url in opens
        if not any(c in label + url for c in ",;") and url.startswith(("https://", "http://"))
    ]
    return "; ".join(f"view, {label}, {url}" for label, url in usable[:NTFY_ACTIONS_MAX])


def with_actions(url: str, actions: str) -> str:
    """The ntfy ``url`` with ``actions`` (replacing any it had)."""
    base, _, query = url.partition("?")
    kept = [p for p in query.split("&") if p and not p.lower().startswith("actions=")]
    return f"{base}?{'&'.join([*kept, 'actions=' + quote(actions, safe='')])}"


def _apprise(urls: Sequence[str]) -> apprise.Apprise:
    import apprise

    logging.getLogger("apprise").setLevel(logging.CRITICAL)  # its errors land in self.errors
    app = apprise.Apprise()
    for index, url in enumerate(urls, 1):
        if not app.add(url):
            raise ConfigError(
                f"notify.urls[{index}]: apprise does not understand the URL {_scheme(url)}://…",
                hint="`paw config check` and `paw wave check FILE` list every problem",
            )
    return app


def url_problems(urls: Sequence[str]) -> list[tuple[int, str]]:
    """``(0-based index, problem)`` for each of ``urls`` apprise cannot parse. apprise only
    parses them here: nothing is sent."""
    import apprise

    logging.getLogger("apprise").setLevel(logging.CRITICAL)
    return [
        (index, f"apprise does not understand the URL {_scheme(url)}://…")
        for index, url in enumerate(urls)
        if not apprise.Apprise().add(url)
    ]


def _scheme(url: str) -> str:
    return url.split("://", 1)[0] if "://" in url else url[:12]


def terminal_bell_stream() -> TextIO | None:
    """stderr when it is a terminal (the bell has nowhere to ring otherwise)."""
    return sys.stderr if sys.stderr.isatty() else None
