"""The lander's messages: one per state change of the queue, owed from the journal's write until
the channels have it, delivered at most once.

Each change is an event of the journal (``.paw/waves/<wave>.land.json``, with an ``id``): it is
written (fsync'd) before its message is handed to the channels, and the delivery thread marks
each attempt and each delivery in the lander's outbox document
(``<wave>.land.outbox.json``, its own: written from that thread only). A lander killed before a
message was attempted sends it when it is started again (``land-notify-resumed``); one whose
delivery was cut off may have arrived and is never sent again (``land-notify-uncertain``): the
same rule as the wave runner's outbox (:mod:`paw.supervisor.wave.outbox`).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from paw.core.land import land_message
from paw.core.wave_recovery import undelivered
from paw.supervisor.wave.outbox import OUTBOX_SUFFIX

if TYPE_CHECKING:
    from collections.abc import Mapping

    from paw.core.land import LandState
    from paw.supervisor.context import Context
    from paw.supervisor.records import StateStore
    from paw.supervisor.wave.outbox import Notifier


class LandOutbox:
    """The messages of one wave's lander (see the module's docstring)."""

    def __init__(self, ctx: Context, store: StateStore, doc: str, notifier: Notifier) -> None:
        """``doc``: the journal's document (the marks are kept beside it)."""
        self.ctx = ctx
        self.store = store
        self.doc = f"{doc}{OUTBOX_SUFFIX}"
        self.notifier = notifier
        self._lock = threading.Lock()  # the delivery thread marks, the lander reads
        self._marks: dict[str, dict[str, float]] = {"attempted": {}, "delivered": {}}
        found = store.read(self.doc) or {}
        for kind, known in self._marks.items():
            marks = found.get(kind)
            if isinstance(marks, dict):
                known.update({str(k): float(v) for k, v in marks.items()})

    def send(self, land: LandState, event: Mapping[str, object]) -> None:
        """Hand the message of ``event`` (in the journal, written) to the channels."""
        message = land_message(
            land, str(event["task"]), str(event["text"]), repo=self.ctx.repo_root,
            host=self.ctx.where, kind=str(event.get("kind") or ""),
        )  # fmt: skip
        key = event.get("id")
        if not isinstance(key, str):
            self.notifier.send(message)  # an event of an older journal: no marks
            return
        self.notifier.send(
            message,
            on_attempt=lambda: self._mark("attempted", key),
            on_done=lambda: self._mark("delivered", key),
        )

    def _mark(self, kind: str, key: str) -> None:
        """Record (fsync'd) that message ``key`` is about to go to the channels, or went
        (called from the delivery thread)."""
        with self._lock:
            self._marks[kind][key] = self.ctx.clock()
            self.store.write(self.doc, dict(self._marks))

    def resend_undelivered(self, land: LandState) -> bool:
        """After a crash: send the messages of the journal's events never handed to a channel;
        those whose delivery was cut off are marked ``uncertain`` and not sent again. True when
        the journal changed (the caller writes it)."""
        with self._lock:
            marks: dict[str, object] = {k: dict(v) for k, v in self._marks.items()}
        due, cut = undelivered(land.events, marks)
        for entry in cut:
            next(e for e in land.events if e.get("id") == entry["id"])["outcome"] = "uncertain"
            self.ctx.record(
                "land-notify-uncertain", wave=land.wave, id=entry["id"], task=entry.get("task"),
                text=entry.get("text"),
                reason="the lander died while the channels delivered it; not sent again",
            )  # fmt: skip
        for entry in due:
            self.ctx.record(
                "land-notify-resumed", wave=land.wave, id=entry["id"], task=entry.get("task"),
                text=entry.get("text"),
            )  # fmt: skip
            self.send(land, entry)
        return bool(cut)
