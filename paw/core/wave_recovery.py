"""What a wave runner concludes from what was recorded before a crash (pure).

Two questions a resumed runner must answer without guessing:

- **Did a decision's keys go out?** The audit holds the decision (``approve``/``deny`` with
  ``decision = send``, written before the keys) and, later, its ``outcome`` (written by the
  deciding process, or by the sweep that reconciles a decision whose process died). The
  decision alone says nothing about the keys: only the outcome does.
- **Which messages were delivered?** The wave's outbox: each message is recorded "to send" in
  the wave's state before it is handed to the channels; the delivery thread records an
  attempt right before the channels are called and the delivery right after. A message never
  attempted is delivered on resume; one attempted but not recorded delivered may have arrived
  and is never sent again (at most once per message id).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum


class Fate(StrEnum):
    """What became of the latest decision sent for a prompt occurrence."""

    NONE = "none"  # no decision was sent for it (refused, or cut off before it was recorded)
    PENDING = "pending"  # recorded, no outcome yet: its process is still at it, or not swept
    SENT = "sent"  # the keys went out (the prompt cleared, or stayed shown)
    NOT_SENT = "not-sent"  # recorded, but nothing reached the agent
    UNCERTAIN = "uncertain"  # interrupted while sending: the keys may have reached the agent


_OUTCOME_FATE = {
    "sent": Fate.SENT,
    "sent-unconfirmed": Fate.SENT,
    "not-sent": Fate.NOT_SENT,
    "send-failed": Fate.NOT_SENT,
    "interrupted": Fate.UNCERTAIN,
}
DECISIONS = ("approve", "deny")


def decision_fate(
    audit: Sequence[Mapping[str, object]], prompt_id: str
) -> tuple[Fate, Mapping[str, object] | None]:
    """The fate of the latest decision sent for ``prompt_id``, and that decision's record."""
    decision: Mapping[str, object] | None = None
    fate = Fate.NONE
    for record in audit:
        if record.get("prompt_id") != prompt_id:
            continue
        event = record.get("event")
        if event in DECISIONS and record.get("decision") == "send":
            decision, fate = record, Fate.PENDING
        elif event == "outcome" and fate is Fate.PENDING:
            fate = _OUTCOME_FATE.get(str(record.get("outcome")), Fate.PENDING)
    return fate, decision


def answer_from_audit(audit: Sequence[Mapping[str, object]], prompt_id: str) -> str | None:
    """How a prompt was answered through paw, in words; None when no keys of paw went out.

    A decision still without an outcome is named (its keys are on their way: the prompt went
    away while its process verified); one whose outcome says nothing was sent is not."""
    fate, decision = decision_fate(audit, prompt_id)
    if decision is None or fate in (Fate.NONE, Fate.NOT_SENT):
        return None
    verb = "approved" if decision.get("event") == "approve" else "denied"
    said = f"{verb} by {decision.get('user')}"
    if fate is Fate.UNCERTAIN:
        return f"{said} (interrupted: the keys may have reached the agent)"
    return said


class Delivery(StrEnum):
    """Where one outbox message stands."""

    DUE = "due"  # recorded, never handed to a channel: deliver it
    UNCERTAIN = "uncertain"  # a channel was called, the runner died before it returned
    DELIVERED = "delivered"  # the channels returned (each channel's errors are reported)


def delivery(message_id: str, marks: Mapping[str, object]) -> Delivery:
    """Where message ``message_id`` stands, from the delivery marks (the outbox document)."""
    if message_id in _ids(marks.get("delivered")):
        return Delivery.DELIVERED
    if message_id in _ids(marks.get("attempted")):
        return Delivery.UNCERTAIN
    return Delivery.DUE


def undelivered(
    messages: Iterable[Mapping[str, object]], marks: Mapping[str, object]
) -> tuple[list[Mapping[str, object]], list[Mapping[str, object]]]:
    """Outbox entries to deliver now (never attempted), and those whose delivery was cut off
    (never sent again). Entries without an id predate the outbox: treated as delivered."""
    due: list[Mapping[str, object]] = []
    cut: list[Mapping[str, object]] = []
    for entry in messages:
        key = entry.get("id")
        if not isinstance(key, str) or entry.get("outcome") is not None:
            continue
        where = delivery(key, marks)
        if where is Delivery.DUE:
            due.append(entry)
        elif where is Delivery.UNCERTAIN:
            cut.append(entry)
    return due, cut


def _ids(value: object) -> Mapping[str, object]:
    return value if isinstance(value, dict) else {}
