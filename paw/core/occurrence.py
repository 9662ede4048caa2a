"""The life of one prompt occurrence, as a pure machine: ``step(record, event, now)``.

An occurrence is one showing of one prompt (same prompt, pane, tmux server and agent
process); a prompt asked again after an answer, or by a restarted agent, is a new one. Its
record (:class:`PromptRecord`, persisted in ``.paw/prompts.json``) goes through::

    (none) ── Seen ─────────────────────────────▶ OPEN            note "prompt-seen"
    OPEN ──── Gone ─────────────────────────────▶ ENDED           ended outside paw: noted
    OPEN ──── Decided ──────────────────────────▶ SENDING         (recorded before any key)
    ENDED ─── Decided ──────────────────────────▶ SENDING         approve's fresh proof wins
    SENDING ─ KeysSent(failed) ─────────────────▶ ANSWERED        (may have reached it)
    SENDING ─ KeysSent(unknown) ────────────────▶ DELIVERY_UNKNOWN (a host's link dropped)
    SENDING ─ Verified ─────────────────────────▶ ANSWERED
    SENDING ─ SeenAgain, sender not running ────▶ OPEN            reconciled after a crash:
    SENDING ─ Gone, sender not running ─────────▶ ANSWERED          not-sent / interrupted
    DELIVERY_UNKNOWN ─ SeenAgain, settled ──────▶ OPEN            not-delivered
    DELIVERY_UNKNOWN ─ Gone, host readable ─────▶ ANSWERED        sent (reconnect) / interrupted

The agent's structured channel (issue 32) moves it too. A channel event names the request; one
a sweep read for another request than the occurrence is bound to changes nothing (a forged or
stale request answers nothing)::

    OPEN ──── ChannelRequested ─────────────────▶ OPEN            bound: request id, exact input
    ENDED ─── ChannelRequested ─────────────────▶ ENDED           bound (approve's fresh proof)
    OPEN ──── ChannelResolved (a sweep saw it) ─▶ ENDED           answered outside paw: noted
    SENDING ─ ChannelResolved (sender's word) ──▶ ANSWERED        the agent took paw's answer
    SENDING ─ ChannelResolved, sender not running ▶ ANSWERED      sent (confirmed by the channel)
    SENDING ─ ChannelTimedOut / ChannelWithdrawn (sender's word) ▶ ANSWERED   decided once
    OPEN ──── ChannelTimedOut / ChannelWithdrawn (seen) ▶ OPEN    unbound: the screen's alone

A decision in flight keeps the request it was bound to (ChannelRequested changes a SENDING or
DELIVERY_UNKNOWN occurrence no more); the sender's word (``action`` given: the paw process that
answered through the channel says what became of it) closes any state as :class:`Verified`
does; closed occurrences take nothing else from the channel.

ANSWERED and ENDED are closed: kept a while (:func:`retained`) so that a decision on a closed
id says why not, then forgotten. An event that does not apply to a state leaves the record as
it is, with no effect (``tests/core/test_occurrence.py`` holds the row of every pair).

The events carry the facts their callers read (is the paw process that recorded SENDING still
running, is the host readable, is the agent alive): the machine decides, the callers observe.
"Reconciled after a crash" is ``SeenAgain`` or ``Gone`` of a SENDING record whose sender no
longer runs; "ended outside paw" is ``Gone`` of an OPEN one.

Effects are what the caller carries out beside persisting the record it gets back (a record
returned unchanged is the very object given): :class:`NoteSeen`, :class:`NoteEnded`,
:class:`RecordOutcome`. The sweep carries them out and writes its records in one batched,
non-durable write; approve steps the record current under the prompts lock and writes it
durably, recording its own decision and outcome lines (they carry what only the sender knows).

The events and effects are values of :mod:`paw.core.occurrence_events` (re-exported here).
Adding an event takes: a frozen dataclass there beside the others, a member of its
:data:`Event`, a ``case`` in :func:`step` (mypy's ``assert_never`` fails until there
is one), and their rows for every state in the table of ``tests/core/test_occurrence.py``
(its completeness test fails until each (state, event) pair has one). New states, if any, are
members of :class:`OccurrenceState` (their values are what ``prompts.json`` stores).
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, assert_never, overload

from pydantic import BaseModel, ConfigDict

from paw.core.occurrence_events import (
    ChannelEvent,
    ChannelRequested,
    ChannelResolved,
    ChannelTimedOut,
    ChannelWithdrawn,
    Decided,
    Delivery,
    Effect,
    Effects,
    Event,
    Gone,
    KeysSent,
    NoteEnded,
    NoteSeen,
    ProcIdentity,
    RecordOutcome,
    Seen,
    SeenAgain,
    Verified,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

KEEP_GONE_S = 3600.0  # how long a closed occurrence stays in .paw/prompts.json
KEEP_GONE_MAX = 200  # closed occurrences kept at most (the newest)
# Keys handed to a host's link that dropped may still be on their way to the screen: a prompt
# still shown is taken for "not delivered" only once it has been this long since the drop.
UNKNOWN_SETTLE_S = 3.0


class OccurrenceState(StrEnum):
    """Where an occurrence is in its life (the value is what ``prompts.json`` stores)."""

    OPEN = "open"  # shown, undecided
    SENDING = "sending"  # a decision to send was recorded; the keys are going (or paw died)
    ANSWERED = "answered"  # paw sent keys for it (or may have: see the audit's outcome)
    ENDED = "ended"  # it went away while paw sent nothing
    # the keys were handed to the link to the agent's host and it dropped before the host
    # answered: nothing is sent to this occurrence until a sweep of the host reconciles it
    DELIVERY_UNKNOWN = "delivery-unknown"


OPEN = OccurrenceState.OPEN
SENDING = OccurrenceState.SENDING
ANSWERED = OccurrenceState.ANSWERED
ENDED = OccurrenceState.ENDED
DELIVERY_UNKNOWN = OccurrenceState.DELIVERY_UNKNOWN

# States in which a screen still showing the prompt is this occurrence (a sweep matches a
# shown prompt to it, and steps it with SeenAgain or Gone).
WATCHED = frozenset({OPEN, SENDING, DELIVERY_UNKNOWN})


class _Record(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class PromptRecord(_Record):
    """A live prompt as first seen: the proof ``approve`` checks again before sending, and
    where this occurrence is in its life."""

    id: str
    agent: str
    kind: str
    pane_id: str
    fingerprint: str
    prompt_kind: str
    subject: str | None
    question: str
    first_seen: float
    proc: ProcIdentity
    state: OccurrenceState = OPEN
    server: str = ""
    closed_at: float | None = None  # closed (or handed to a dropped link) at
    action: str | None = None  # approve/deny, while SENDING and after
    sender: ProcIdentity | None = None  # the paw process sending, while SENDING
    decided_by: str | None = None  # the user whose decision it was
    # The agent's channel (issue 32): the request this occurrence is bound to, the fusion it
    # was last seen with ("agree", "channel-only", "disagree"; "screen" unbound) and the
    # channel's exact input.
    channel_request: str | None = None
    source: str = "screen"
    channel_subject: str | None = None

    def audit_ids(self) -> dict[str, object]:
        """The fields every audit record about this occurrence carries."""
        return {
            "agent": self.agent,
            "kind": self.kind,
            "pane": self.pane_id,
            "prompt_id": self.id,
            "fingerprint": self.fingerprint,
        }


NOT_SENT = "not-sent"
INTERRUPTED = "interrupted"
NOT_DELIVERED = "not-delivered"
SENT = "sent"


# -- the machine -------------------------------------------------------------------------------


@overload
def step(record: PromptRecord, event: Event, now: float) -> tuple[PromptRecord, Effects]: ...
@overload
def step(record: None, event: Event, now: float) -> tuple[PromptRecord | None, Effects]: ...
def step(
    record: PromptRecord | None, event: Event, now: float
) -> tuple[PromptRecord | None, Effects]:
    """The record after ``event`` at ``now`` and what the caller is to do about it.
    ``record`` None: no occurrence yet (only :class:`Seen` starts one)."""
    if record is None:
        return (_first(event, now), (NoteSeen(),)) if isinstance(event, Seen) else (None, ())
    match event:
        case Seen():
            return record, ()  # seen once: later sightings are SeenAgain
        case SeenAgain():
            return _seen_again(record, event, now)
        case Gone():
            return _gone(record, event, now)
        case Decided():
            return _decided(record, event)
        case KeysSent():
            return _keys_sent(record, event, now)
        case Verified():
            return _closed(record, ANSWERED, event.action, event.user, now), ()
        case ChannelRequested():
            return _requested(record, event), ()
        case ChannelResolved() | ChannelTimedOut() | ChannelWithdrawn():
            return _channel_closed(record, event, now)
        case _:
            assert_never(event)


def _first(event: Seen, now: float) -> PromptRecord:
    return PromptRecord(
        id=event.id, agent=event.agent, kind=event.kind, pane_id=event.pane_id,
        fingerprint=event.fingerprint, prompt_kind=event.prompt_kind, subject=event.subject,
        question=event.question, first_seen=now, proc=event.proc, server=event.server,
    )  # fmt: skip


def _seen_again(record: PromptRecord, event: SeenAgain, now: float) -> tuple[PromptRecord, Effects]:
    if record.state == SENDING and not event.sender_running:
        reason = "paw stopped before sending; the prompt is still shown"
        reopened = record.model_copy(update={"state": OPEN, "sender": None, "action": None})
        return reopened, (RecordOutcome(record.action, NOT_SENT, reason),)
    if record.state == DELIVERY_UNKNOWN and event.host_readable:
        if now - (record.closed_at or 0.0) < UNKNOWN_SETTLE_S:
            return record, ()  # the keys may still be on their way
        reason = (
            "not delivered: on reconnect the host's screen still shows the prompt; "
            "it is open for a decision again"
        )
        update = {"state": OPEN, "sender": None, "action": None, "closed_at": None}
        reopened = record.model_copy(update={**update, "decided_by": None})
        return reopened, (RecordOutcome(record.action, NOT_DELIVERED, reason),)
    return record, ()


def _gone(record: PromptRecord, event: Gone, now: float) -> tuple[PromptRecord, Effects]:
    if record.state == OPEN:
        ended = record.model_copy(update={"state": ENDED, "closed_at": now})
        return ended, (NoteEnded(event.client_attached),)
    if record.state == SENDING and not event.sender_running:
        reason = "paw stopped while sending; the prompt is gone, keys may have reached it"
        return _answered(record, now), (RecordOutcome(record.action, INTERRUPTED, reason),)
    if record.state == DELIVERY_UNKNOWN and event.host_readable:
        if event.agent_alive:
            reason = "sent (confirmed on reconnect): the prompt is gone from the host's screen"
            effect = RecordOutcome(record.action, SENT, reason, confirmed="reconnect")
        else:
            reason = "on reconnect the agent is gone; the keys may have reached it"
            effect = RecordOutcome(record.action, INTERRUPTED, reason)
        return _answered(record, now), (effect,)
    return record, ()


def _answered(record: PromptRecord, now: float) -> PromptRecord:
    return record.model_copy(update={"state": ANSWERED, "closed_at": now, "sender": None})


def _decided(record: PromptRecord, event: Decided) -> tuple[PromptRecord, Effects]:
    """OPEN, or ENDED by a sweep that raced approve's proof (approve, under its own lock,
    refused every other state before proving the prompt live on a fresh capture)."""
    if record.state not in (OPEN, ENDED):
        return record, ()
    update = {"state": SENDING, "action": event.action, "sender": event.sender}
    return record.model_copy(update={**update, "closed_at": None, "decided_by": event.user}), ()


def _keys_sent(record: PromptRecord, event: KeysSent, now: float) -> tuple[PromptRecord, Effects]:
    if event.delivery is Delivery.SENT:
        return record, ()  # SENDING until verified
    state = DELIVERY_UNKNOWN if event.delivery is Delivery.UNKNOWN else ANSWERED
    return _closed(record, state, event.action, event.user, now), ()


def _requested(record: PromptRecord, event: ChannelRequested) -> PromptRecord:
    """An occurrence a decision may start from (OPEN; ENDED, by approve's fresh proof) is
    bound to the request it shows; a decision in flight keeps its own, an answered one takes
    nothing."""
    if record.state not in (OPEN, ENDED):
        return record
    if (
        record.channel_request == event.request_id
        and record.source == event.source
        and record.channel_subject == event.subject
    ):
        return record  # (every sweep of a bound occurrence: the common case, kept cheap)
    update = {"channel_request": event.request_id, "source": event.source}
    return record.model_copy(update={**update, "channel_subject": event.subject})


_UNBOUND = {"channel_request": None, "source": "screen", "channel_subject": None}
ANSWERED_OUTSIDE = "the agent's channel says the request was answered outside paw"
TAKEN_AFTER_STOP = (
    "paw stopped after answering through the agent's channel; the channel says the agent took it"
)


def _channel_closed(
    record: PromptRecord,
    event: ChannelResolved | ChannelTimedOut | ChannelWithdrawn,
    now: float,
) -> tuple[PromptRecord, Effects]:
    if event.action is not None:  # the sender's word: the decision is carried out, once
        return _closed(record, ANSWERED, event.action, event.user, now), ()
    if event.request_id != record.channel_request:
        return record, ()  # another request (forged, stale, or another spawn's) answers nothing
    if isinstance(event, ChannelResolved):
        if record.state == OPEN:
            ended = record.model_copy(update={"state": ENDED, "closed_at": now})
            return ended, (NoteEnded(client_attached=False, reason=ANSWERED_OUTSIDE),)
        if record.state == SENDING and not event.sender_running:
            effect = RecordOutcome(record.action, SENT, TAKEN_AFTER_STOP, confirmed="channel")
            return _answered(record, now), (effect,)
        return record, ()
    if record.state == OPEN:  # timed out or withdrawn: the dialog, if drawn, is the screen's
        return record.model_copy(update=_UNBOUND), ()
    return record, ()


def _closed(
    record: PromptRecord, state: OccurrenceState, action: str, user: str, now: float
) -> PromptRecord:
    update = {"state": state, "action": action, "sender": None, "closed_at": now}
    return record.model_copy(update={**update, "decided_by": user})


# -- reading the table -------------------------------------------------------------------------


def takes_decision(record: PromptRecord) -> bool:
    """Whether a human may decide on the occurrence now (offered, no decision in flight)."""
    return record.state == OPEN


def in_flight(table: Mapping[str, PromptRecord]) -> dict[str, str]:
    """Per agent, the decision another paw process is carrying out on one of its occurrences:
    the action being sent ("approve", "deny"; "decision" when unrecorded), or
    "delivery-unknown" (which wins over a send)."""
    out: dict[str, str] = {}
    for record in table.values():
        if record.state == SENDING and out.get(record.agent) != DELIVERY_UNKNOWN:
            out[record.agent] = record.action or "decision"
        elif record.state == DELIVERY_UNKNOWN:
            out[record.agent] = DELIVERY_UNKNOWN.value
    return out


def retained(
    table: Mapping[str, PromptRecord], live: set[str], now: float
) -> dict[str, PromptRecord]:
    """Live occurrences plus recent closed ones (:data:`KEEP_GONE_S`, at most
    :data:`KEEP_GONE_MAX`), so deciding on a closed id says why not."""
    recent = {k: r for k, r in table.items() if k not in live and now - r.first_seen < KEEP_GONE_S}
    newest = sorted(recent.values(), key=lambda r: -r.first_seen)[:KEEP_GONE_MAX]
    keep = {r.id for r in newest} | live
    return {k: r for k, r in table.items() if k in keep}


__all__ = [  # the machine, its record, and the events and effects it re-exports
    "ANSWERED",
    "ANSWERED_OUTSIDE",
    "DELIVERY_UNKNOWN",
    "ENDED",
    "INTERRUPTED",
    "KEEP_GONE_MAX",
    "KEEP_GONE_S",
    "NOT_DELIVERED",
    "NOT_SENT",
    "OPEN",
    "SENDING",
    "SENT",
    "TAKEN_AFTER_STOP",
    "UNKNOWN_SETTLE_S",
    "WATCHED",
    "ChannelEvent",
    "ChannelRequested",
    "ChannelResolved",
    "ChannelTimedOut",
    "ChannelWithdrawn",
    "Decided",
    "Delivery",
    "Effect",
    "Effects",
    "Event",
    "Gone",
    "KeysSent",
    "NoteEnded",
    "NoteSeen",
    "OccurrenceState",
    "ProcIdentity",
    "PromptRecord",
    "RecordOutcome",
    "Seen",
    "SeenAgain",
    "Verified",
    "in_flight",
    "retained",
    "step",
    "takes_decision",
]
