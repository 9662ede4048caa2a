"""Where the page reads the supervisor, and where it decides: one lock, one small seam.

:meth:`Source.read_board` is the only place the page reads the picture. With a
:class:`~paw.supervisor.feed.Feed` (what `paw serve` runs) it is the feed's latest picture, the
same schedule of sweeps the TUI follows: pane events (tmux control mode) ask for a sweep as an
agent draws, and every open page's stream is woken by the picture (:meth:`Source.changes`), so
a new prompt reaches an open page within a sweep of its drawing. Without a feed (a test's
plain supervisor) it sweeps with ``poll_once`` itself, at most every :data:`READ_TTL_S`.
:meth:`Source.decide` is the only place the page acts: the same ``approve`` and ``deny``
`paw approve` / `paw deny` call (proof before send, the record on disk before the keys, one
decision per occurrence), preceded by a record of who asked from where.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from paw.core.wave_view import WaveTask, agent_tasks
from paw.errors import PawError
from paw.supervisor.feed import Picture, SweepFailed
from paw.web.details import FileStat, diff_stat, pane_tail

if TYPE_CHECKING:
    from collections.abc import Callable

    from paw.core.wave_view import WaveReading
    from paw.supervisor.context import Context
    from paw.supervisor.feed import Feed, FeedEvent
    from paw.supervisor.model import Decision, Snapshot

READ_TTL_S = 0.5  # pages open together share one sweep this young
PANE_TTL_S = 1.0  # the selected agent's pane is read again after this long
DIFF_TTL_S = 5.0  # and its diff (a git call over the whole worktree)
AUDIT_ROWS = 12  # the audit tail on the page
LINKS_DOC = "web-links"  # .paw/web-links.json: ids of links already used (until they expire)
LINKS_LOCK = "web-links"


class Supervised(Protocol):
    """What the page needs of a Supervisor or a Fleet."""

    @property
    def ctx(self) -> Context:
        """Its context (settings, the audit log)."""
        ...

    def poll_once(self) -> Snapshot:
        """Sweep once."""
        ...

    def approve(
        self, prompt_id: str, *, always: bool = False, confirmed: bool = False,
        override: str | None = None,
    ) -> Decision:  # fmt: skip
        """The one approval path."""
        ...

    def deny(self, prompt_id: str) -> Decision:
        """The one denial path."""
        ...

    def capture_ansi(self, agent: str) -> str:
        """The agent's pane (colours as tmux keeps them)."""
        ...

    def diff(self, agent: str) -> str:
        """``git diff`` of the agent's worktree against its base."""
        ...

    def audit_tail(self, n: int) -> list[dict[str, object]]:
        """The last ``n`` audit records."""
        ...


@dataclass(frozen=True, slots=True)
class Board:
    """What the page shows."""

    snapshot: Snapshot
    unreachable: dict[str, str]
    waves: dict[str, WaveTask] = field(default_factory=dict)  # agent -> its wave and task


@dataclass(frozen=True, slots=True)
class AgentDetails:
    """The selected agent's recent pane text (untrusted) and diff stat."""

    agent: str
    pane: str
    files: tuple[FileStat, ...]


@dataclass(frozen=True, slots=True)
class Asker:
    """Who asked for a decision over the web (recorded before the decision)."""

    client: str  # the client's address as the server saw it
    token_id: str  # the access token (or link) the session came from
    user_agent: str


class Source:
    """The supervisor behind the page. Every call is serialised: a Supervisor's caches are not
    shared between threads, and the approval path takes its own cross-process lock anyway."""

    def __init__(
        self, sup: Supervised, clock: Callable[[], float], feed: Feed | None = None,
        waves: Callable[[], WaveReading | None] | None = None,
    ) -> None:  # fmt: skip
        """Read and decide through ``sup``; read its pictures from ``feed`` when given (it
        sweeps ``sup``; :meth:`start` subscribes); ``waves`` reads the repository's latest
        wave (the TUI's reader: a stat, a parse only when its file changed), so a prompt's
        card names the wave and task of its agent."""
        self.sup = sup
        self.clock = clock
        self.feed = feed
        self.waves = waves
        self._waves_lock = threading.Lock()  # (the reader keeps what it parsed last)
        self._lock = threading.Lock()
        self._picture: Picture | None = None  # the feed's latest
        self._waiters_lock = threading.Lock()
        self._waiters: dict[asyncio.Event, asyncio.AbstractEventLoop] = {}
        self._last: Board | None = None
        self._last_at = 0.0
        self._pane: tuple[str, float, str] | None = None  # agent, when read, text
        self._diff: tuple[str, float, tuple[FileStat, ...]] | None = None
        self._audit: tuple[float, tuple[dict[str, object], ...]] | None = None

    def start(self) -> None:
        """Follow the feed's pictures (no feed: nothing to do)."""
        if self.feed is not None:
            self.feed.subscribe(self._fed)

    def _fed(self, event: FeedEvent) -> None:
        """The feed's thread: keep the latest picture and wake every open page's stream."""
        if isinstance(event, SweepFailed):
            self._picture = None  # never the last good picture as if current: sweep here
        elif isinstance(event, Picture):
            self._picture = event
        else:
            return  # (the page reads its selected agent's details itself)
        with self._waiters_lock:
            waiters = list(self._waiters.items())
        for changed, loop in waiters:
            try:
                loop.call_soon_threadsafe(changed.set)
            except RuntimeError:  # its loop is closed: the stream is gone
                self.forget(changed)

    def changes(self) -> asyncio.Event:
        """An event set on the running loop whenever the feed posts a picture (an open
        page's stream waits on it; :meth:`forget` it when the stream ends)."""
        changed = asyncio.Event()
        with self._waiters_lock:
            self._waiters[changed] = asyncio.get_running_loop()
        return changed

    def forget(self, changed: asyncio.Event) -> None:
        """No more wake-ups for ``changed`` (idempotent)."""
        with self._waiters_lock:
            self._waiters.pop(changed, None)

    def read_details(self, agent: str) -> AgentDetails | None:
        """``agent``'s recent pane text and diff stat (None: no such agent, or gone)."""
        with self._lock:
            now = self.clock()
            try:
                if (
                    self._pane is None
                    or self._pane[0] != agent
                    or now - self._pane[1] >= PANE_TTL_S
                ):
                    self._pane = (agent, now, pane_tail(self.sup.capture_ansi(agent)))
                if (
                    self._diff is None
                    or self._diff[0] != agent
                    or now - self._diff[1] >= DIFF_TTL_S
                ):
                    self._diff = (agent, now, diff_stat(self.sup.diff(agent)))
            except PawError:
                self._pane = self._diff = None
                return None
            return AgentDetails(agent, self._pane[2], self._diff[2])

    def read_audit(self) -> tuple[dict[str, object], ...]:
        """The last :data:`AUDIT_ROWS` audit records (unreadable: none), read at most every
        :data:`READ_TTL_S` whatever the number of open pages."""
        with self._lock:
            now = self.clock()
            if self._audit is None or now - self._audit[0] >= READ_TTL_S:
                try:
                    rows = tuple(self.sup.audit_tail(AUDIT_ROWS))
                except (PawError, OSError, ValueError):
                    rows = ()
                self._audit = (now, rows)
            return self._audit[1]

    def read_board(self, *, fresh: bool = False) -> Board:
        """The current picture: the feed's latest (before its first, a sweep of its own
        under the feed's lock), or without a feed a sweep at most :data:`READ_TTL_S` old.
        ``fresh``: a sweep now, whatever the feed holds (a decision or a link checks the
        prompt as it is now, not as the last picture had it)."""
        picture, feed = self._picture, self.feed
        if feed is not None and picture is not None and not fresh:
            return Board(picture.snapshot, self._unreachable(), self.wave_tasks())
        with self._lock:
            now = self.clock()
            if fresh or self._last is None or now - self._last_at >= READ_TTL_S:
                if feed is not None:
                    with feed.poll_lock:  # (the feed's sweeps are not shared between threads)
                        snapshot = self.sup.poll_once()
                else:
                    snapshot = self.sup.poll_once()
                board = Board(snapshot, self._unreachable(), self.wave_tasks())
                self._last, self._last_at = board, now
            return self._last

    def wave_tasks(self) -> dict[str, WaveTask]:
        """The agents of the latest wave, with their wave and task (none without a reader,
        a wave, or a readable state)."""
        if self.waves is None:
            return {}
        with self._waves_lock:
            try:
                return agent_tasks(self.waves())
            except (OSError, ValueError):
                return {}

    def _unreachable(self) -> dict[str, str]:
        unreachable = getattr(self.sup, "unreachable", None)
        return unreachable() if callable(unreachable) else {}

    def decide(
        self, action: str, prompt_id: str, asker: Asker, *, confirmed: bool = False
    ) -> Decision:
        """Record who asks, then approve (never with an override: a typed override of a
        ``block`` is a terminal act) or deny ``prompt_id`` through the one path."""
        with self._lock:
            self.sup.ctx.record(
                "web-request", action=action, prompt_id=prompt_id, confirmed=confirmed,
                client=asker.client, token_id=asker.token_id, user_agent=asker.user_agent,
            )  # fmt: skip
            self._last = self._audit = None  # the next read sweeps again
            try:
                if action == "approve":
                    return self.sup.approve(prompt_id, confirmed=confirmed)
                return self.sup.deny(prompt_id)
            finally:
                if self.feed is not None:
                    self.feed.request()  # the decided prompt leaves the open pages at once

    def use_link(self, nonce: str, expires: float) -> bool:
        """Mark the link ``nonce`` used, on disk (every paw process and a restart see it);
        False when it was used already. Expired ids are dropped (their links are refused
        by their expiry anyway)."""
        state = self.sup.ctx.state
        with state.lock(LINKS_LOCK):
            doc = state.read(LINKS_DOC) or {}
            used = doc.get("used")
            seen = dict(used) if isinstance(used, dict) else {}
            if nonce in seen:
                return False
            now = self.clock()
            seen = {k: v for k, v in seen.items() if isinstance(v, (int, float)) and v > now}
            seen[nonce] = expires
            state.write(LINKS_DOC, {"used": seen})
            return True

    def link_used(self, nonce: str) -> bool:
        """True when the link ``nonce`` was used already."""
        doc = self.sup.ctx.state.read(LINKS_DOC) or {}
        used = doc.get("used")
        return isinstance(used, dict) and nonce in used
