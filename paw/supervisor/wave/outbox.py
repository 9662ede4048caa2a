"""The wave's messages: composed from the runner's notes, recorded before they leave, delivered
at most once, and the badge of prompts waiting for a human.

Every message is recorded "to send" in the wave's state (one save), then audited
(``wave-notify``, its full text), and only then handed to the channels; the delivery thread
marks each attempt and each delivery in the outbox document (``<wave>.outbox.json``, its own:
written from that thread). A runner that died before a message was attempted delivers it on
resume; one whose delivery was cut off never sends it again (audited as uncertain). A message
recorded in the state whose runner died before its ``wave-notify`` is audited on resume (the
text it sends), before it leaves: one record each.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Protocol

from paw.core.wave import audited
from paw.core.wave_recovery import answer_from_audit, undelivered
from paw.core.wave_report import Message, digest_message, prompt_message, task_message, wave_message
from paw.errors import PawError
from paw.supervisor.links import occurrence_link

if TYPE_CHECKING:
    from paw.core.notify_settings import NotifySettings
    from paw.core.wave import Notify, PromptState, TaskState, WaveState
    from paw.supervisor.context import Context
    from paw.supervisor.records import StateStore

OUTBOX_SUFFIX = ".outbox"  # the delivery marks of the wave's messages: <wave>.outbox.json
_TEXTS = ("outgoing_title", "outgoing_body")  # an entry's text (dropped once delivered)


class Notifier(Protocol):
    """Escalation channels (paw.adapters.notify)."""

    def send(
        self,
        message: Message,
        on_attempt: Callable[[], None] | None = None,
        on_done: Callable[[], None] | None = None,
    ) -> None:
        """Queue ``message`` on every channel (returns at once; delivery is in the background):
        ``on_attempt`` runs right before the channels are called (not delivered if it raises),
        ``on_done`` once they returned."""
        ...

    def badge(self, waiting: int) -> None:
        """Show how many prompts wait for a human (0 clears it)."""
        ...


class Outbox:
    """The messages of one wave's runner (see the module's docstring)."""

    def __init__(
        self,
        ctx: Context,
        store: StateStore,
        wave: str,
        notifier: Notifier,
        settings: NotifySettings,
        save: Callable[[], None],
    ) -> None:
        """``save`` writes the wave's state (the runner's, which holds the messages)."""
        self.ctx = ctx
        self.store = store
        self.wave = wave
        self.repo = ctx.repo_root
        self.host = ctx.where  # the machine messages name beside the repository
        self.notifier = notifier
        self.settings = settings
        self.save = save
        self._marks_lock = threading.Lock()  # the delivery thread marks, the runner reads
        self._marks: dict[str, dict[str, float]] = {"attempted": {}, "delivered": {}}
        self._badge: int | None = None
        self.fingerprints: dict[str, str] = {}  # live prompt id -> fingerprint (the last sweep)

    def load_marks(self) -> None:
        """Read the marks a runner before this one left (on resume)."""
        marks = self.store.read(f"{self.wave}{OUTBOX_SUFFIX}") or {}
        for kind, known in self._marks.items():
            found = marks.get(kind)
            if isinstance(found, dict):
                known.update({str(k): float(v) for k, v in found.items()})

    def drop_delivered_texts(self, state: WaveState) -> None:
        """A delivered message keeps its record, not its text (the audit has it): the state
        stays small however many messages a long wave sends."""
        with self._marks_lock:
            delivered = set(self._marks["delivered"])
        for entry in state.messages:
            if entry.get("id") in delivered and "outgoing_body" in entry:
                entry.pop("outgoing_title", None)
                entry.pop("outgoing_body", None)

    def notify(self, state: WaveState, notes: list[Notify], now: float) -> int:
        """Mark every message in the state (one save), then audit them, then hand them to
        the channels: a crash never sends one twice nor leaves one sent unaudited, and a burst
        costs one fsync of the state.
        The number of messages (0: nothing composed, nothing saved)."""
        outbox: list[Message] = []
        parked = [n for n in notes if n.event == "parked" and n.prompt_id is not None]
        digest = len(parked) > self.settings.digest_over
        if digest:
            items = []
            for n in parked:
                task = state.task(n.task or "")
                prompt = task.prompt(n.prompt_id or "")
                if prompt is not None and prompt.notified_at is None and prompt.live:
                    prompt.notified_at = now
                    items.append((task, prompt))
            if items:
                links = {p.id: url for t, p in items if (url := self._link(t, p, now))}
                outbox.append(digest_message(self.wave, items, now, repo=self.repo, links=links,
                                              host=self.host))  # fmt: skip
        for note in notes:
            if digest and note in parked:
                continue
            message = self._compose(state, note, now)
            if message is not None:
                outbox.append(message)
        self.send(state, outbox)
        return len(outbox)

    def _compose(self, state: WaveState, note: Notify, now: float) -> Message | None:
        if note.event in ("wave-over-budget", "wave-budget-warning"):
            return wave_message(note.event, state, repo=self.repo, host=self.host)
        task = state.task(note.task) if note.task else None
        if task is None:
            return None
        if note.prompt_id is not None:
            prompt = task.prompt(note.prompt_id)
            if prompt is None:
                return None
            if note.event == "parked":
                if prompt.notified_at is not None or not prompt.live:
                    return None  # announced already, or answered while paw was down
                prompt.notified_at = now
            elif note.event == "answered":
                answer = answer_from_audit(self.ctx.audit.read(), prompt.id)
                prompt.answered = answer or prompt.answered
            elif note.event == "reminder":
                prompt.reminders += 1
                prompt.last_reminded = now
            link = self._link(task, prompt, now) if note.event != "answered" else None
            return prompt_message(
                note.event, self.wave, task, prompt, now, repo=self.repo, link=link, host=self.host
            )
        if note.event in ("stuck", "stuck-reminder"):
            task.stuck_notified = now
            task.stuck_count += 1 if note.event == "stuck" else 0
        return task_message(note.event, self.wave, task, now, repo=self.repo, host=self.host)

    def _link(self, task: TaskState, prompt: PromptState, now: float) -> str | None:
        """The one-occurrence link of a live prompt (``[serve] public_url``), or None."""
        fingerprint = self.fingerprints.get(prompt.id)
        if fingerprint is None or not prompt.live:
            return None  # not on the last sweep: a link to it would only say it ended
        try:
            return occurrence_link(
                self.ctx, agent=task.agent, prompt_id=prompt.id, fingerprint=fingerprint,
                verdict=prompt.verdict, now=now,
            )  # fmt: skip
        except (PawError, OSError):
            return None  # the key cannot be kept: the message goes without a link

    def send(self, state: WaveState, messages: list[Message]) -> None:
        """The outbox: every message is recorded "to send" in the state (one save), then
        audited, then handed to the delivery thread, which marks each attempt and each delivery (see
        :meth:`_mark`); a runner that died before a message was attempted delivers it on
        resume, one whose delivery was cut off never sends it again (at most once)."""
        if not messages:
            return
        first = len(state.messages)
        entries: list[dict[str, object]] = [
            {
                "id": f"{self.wave}-{first + number}",
                "event": m.event,
                "task": m.task,
                "prompt_id": m.prompt_id,
                "title": m.title,
                "redacted": m.redacted,
                "at": self.ctx.clock(),
                "outgoing_title": m.outgoing_title,
                "outgoing_body": m.outgoing_body,
            }
            for number, m in enumerate(messages, 1)
        ]
        state.messages += entries
        self.save()  # recorded before sending: one message per occurrence, never two
        self.ctx.fault("wave:recorded")
        for message, entry in zip(messages, entries, strict=True):  # audited before it leaves
            self._audit(entry, message.event, message.body)
        self.ctx.fault("wave:audited")
        for message, entry in zip(messages, entries, strict=True):
            self._deliver(message, str(entry["id"]))
        self.ctx.fault("wave:handed")

    def _audit(self, entry: Mapping[str, object], event: object, body: str, **more: object) -> None:
        """The message's ``wave-notify`` record (its full text; the state keeps the outgoing,
        redacted one), fsync'd before the message is handed to a channel."""
        fields = {k: v for k, v in entry.items() if k not in ("event", *_TEXTS)}
        self.ctx.record("wave-notify", wave=self.wave, message=event, **fields, body=body, **more)

    def _deliver(self, message: Message, key: str) -> None:
        self.notifier.send(
            message,
            on_attempt=lambda: self._mark("attempted", key),
            on_done=lambda: self._mark("delivered", key),
        )

    def _mark(self, kind: str, key: str) -> None:
        """Record (fsync'd) that message ``key`` is about to go to the channels, or went
        (called from the delivery thread; the outbox document is its own, not the state's)."""
        with self._marks_lock:
            self._marks[kind][key] = self.ctx.clock()
            self.store.write(f"{self.wave}{OUTBOX_SUFFIX}", dict(self._marks))

    def resend_undelivered(self, state: WaveState) -> None:
        """After a crash: deliver the messages recorded but never handed to a channel; those
        whose delivery was cut off may have arrived and are not sent again (audited)."""
        with self._marks_lock:
            marks: dict[str, object] = {k: dict(v) for k, v in self._marks.items()}
        due, cut = undelivered(state.messages, marks)
        if not due and not cut:
            return
        by_id = {str(m.get("id")): m for m in state.messages}
        for entry in cut:
            by_id[str(entry["id"])]["outcome"] = "uncertain"
            self.ctx.record(
                "wave-notify-uncertain", wave=self.wave, id=entry["id"],
                message=entry.get("event"), title=entry.get("title"),
                reason="the runner died while the channels delivered it; not sent again",
            )  # fmt: skip
        self.save()
        audited_ids = audited(self.ctx.audit.read(), "wave-notify", self.wave, "id") if due else ()
        for entry in due:
            message = _stored_message(self.wave, entry)
            if str(entry["id"]) not in audited_ids:  # killed before its record: the text sent
                self._audit(entry, message.event, message.outgoing_body, resumed=True)
            self.ctx.record(
                "wave-notify-resumed", wave=self.wave, id=entry["id"],
                message=message.event, title=entry.get("title"),
            )  # fmt: skip
            self._deliver(message, str(entry["id"]))

    def update_badge(self, waiting: int) -> None:
        """Show ``waiting`` (prompts parked for a human) on the channels that keep a badge,
        when it changed."""
        if waiting != self._badge:
            self._badge = waiting
            self.notifier.badge(waiting)


def _stored_message(wave: str, entry: Mapping[str, object]) -> Message:
    """An outbox entry as a message again (the outgoing, redacted text: that is all the state
    keeps; the full text is in the audit's ``wave-notify``)."""

    def text(key: str) -> str:
        value = entry.get(key)
        return value if isinstance(value, str) else ""

    def optional(key: str) -> str | None:
        value = entry.get(key)
        return value if isinstance(value, str) else None

    title, body = text("outgoing_title"), text("outgoing_body")
    return Message(
        text("event"), wave, optional("task"), optional("prompt_id"), title, body, title, body,
        bool(entry.get("redacted")),
    )  # fmt: skip
