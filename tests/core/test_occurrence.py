"""The occurrence machine: one row per (state, event) pair and every fact that matters."""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import NamedTuple

import pytest

from paw.core import occurrence
from paw.core.occurrence import (
    ANSWERED,
    ANSWERED_OUTSIDE,
    DELIVERY_UNKNOWN,
    ENDED,
    OPEN,
    SENDING,
    TAKEN_AFTER_STOP,
    UNKNOWN_SETTLE_S,
    ChannelRequested,
    ChannelResolved,
    ChannelTimedOut,
    ChannelWithdrawn,
    Decided,
    Delivery,
    Effect,
    Event,
    Gone,
    KeysSent,
    NoteEnded,
    NoteSeen,
    OccurrenceState,
    ProcIdentity,
    PromptRecord,
    RecordOutcome,
    Seen,
    SeenAgain,
    Verified,
    in_flight,
    retained,
    step,
)
from paw.supervisor.model import Outcome

NOW = 1000.0
PROC = ProcIdentity(pid=42, create_time=7.0, exe="/bin/agent")
ME = ProcIdentity(pid=9, create_time=3.0)
SEEN = Seen(
    id="p1", agent="a", kind="claude", pane_id="%1", fingerprint="f", prompt_kind="shell",
    subject="ls", question="Run ls?", proc=PROC, server="/tmp/s",
)  # fmt: skip


def record(state: OccurrenceState, **update: object) -> PromptRecord:
    """An occurrence in ``state`` with the fields that state carries."""
    base = PromptRecord(
        id="p1", agent="a", kind="claude", pane_id="%1", fingerprint="f", prompt_kind="shell",
        subject="ls", question="Run ls?", first_seen=NOW - 10, proc=PROC, server="/tmp/s",
    )  # fmt: skip
    fields: dict[str, object] = {"state": state}
    if state is SENDING:
        fields |= {"action": "approve", "sender": ME, "decided_by": "ann"}
    elif state is DELIVERY_UNKNOWN:
        fields |= {"action": "deny", "closed_at": NOW - 10, "decided_by": "ann"}
    elif state is ANSWERED:
        fields |= {"action": "approve", "closed_at": NOW - 5, "decided_by": "ann"}
    elif state is ENDED:
        fields |= {"closed_at": NOW - 5}
    return base.model_copy(update={**fields, **update})


def outcome(action: str | None, value: Outcome, reason: str, **more: str) -> RecordOutcome:
    return RecordOutcome(action, value.value, reason, **more)


NOT_SENT = "paw stopped before sending; the prompt is still shown"
INTERRUPTED = "paw stopped while sending; the prompt is gone, keys may have reached it"
NOT_DELIVERED = (
    "not delivered: on reconnect the host's screen still shows the prompt; "
    "it is open for a decision again"
)
RECONNECTED = "sent (confirmed on reconnect): the prompt is gone from the host's screen"
AGENT_GONE = "on reconnect the agent is gone; the keys may have reached it"
SETTLED = NOW - 10  # a drop UNKNOWN_SETTLE_S ago and more
FRESH = NOW - UNKNOWN_SETTLE_S / 2  # a drop too recent to judge the screen by


class Row(NamedTuple):
    test_id: str
    state: OccurrenceState | None  # None: no occurrence yet
    event: Event
    after: OccurrenceState | None
    effects: tuple[Effect, ...] = ()
    update: Mapping[str, object] | None = None  # the record's fields given before the event
    expect: Mapping[str, object] | None = None  # fields of the record after the event


DECIDE = Decided("approve", ME, "bob")
SENT = KeysSent("approve", "bob")
FAILED = KeysSent("approve", "bob", Delivery.FAILED)
UNKNOWN = KeysSent("approve", "bob", Delivery.UNKNOWN)
VERIFIED = Verified("approve", "bob")
CLOSED_BY_BOB: Mapping[str, object] = {
    "action": "approve",
    "sender": None,
    "closed_at": NOW,
    "decided_by": "bob",
}
UNKNOWN_BY_BOB: Mapping[str, object] = {
    "action": "approve",
    "sender": None,
    "closed_at": NOW,
    "decided_by": "bob",
}

ROWS = [
    # -- no occurrence yet: only Seen starts one
    Row("new-seen", None, SEEN, OPEN, (NoteSeen(),), expect={"first_seen": NOW, "id": "p1"}),
    Row("new-seen-again", None, SeenAgain(), None),
    Row("new-gone", None, Gone(), None),
    Row("new-decided", None, DECIDE, None),
    Row("new-keys-sent", None, SENT, None),
    Row("new-verified", None, VERIFIED, None),
    # -- OPEN
    Row("open-seen", OPEN, SEEN, OPEN),
    Row("open-seen-again", OPEN, SeenAgain(), OPEN),
    Row("open-gone-ended-outside", OPEN, Gone(client_attached=True), ENDED,
        (NoteEnded(client_attached=True),), expect={"closed_at": NOW}),
    Row("open-gone-host-unreadable", OPEN, Gone(host_readable=False, agent_alive=False), ENDED,
        (NoteEnded(client_attached=False),)),
    Row("open-decided", OPEN, DECIDE, SENDING,
        expect={"action": "approve", "sender": ME, "decided_by": "bob", "closed_at": None}),
    Row("open-keys-sent", OPEN, SENT, OPEN),
    Row("open-keys-failed", OPEN, FAILED, ANSWERED, expect=CLOSED_BY_BOB),
    Row("open-keys-unknown", OPEN, UNKNOWN, DELIVERY_UNKNOWN, expect=UNKNOWN_BY_BOB),
    Row("open-verified", OPEN, VERIFIED, ANSWERED, expect=CLOSED_BY_BOB),
    # -- SENDING
    Row("sending-seen", SENDING, SEEN, SENDING),
    Row("sending-seen-again-sender-runs", SENDING, SeenAgain(sender_running=True), SENDING),
    Row("sending-seen-again-crash", SENDING, SeenAgain(), OPEN,
        (outcome("approve", Outcome.NOT_SENT, NOT_SENT),),
        expect={"action": None, "sender": None, "decided_by": "ann"}),
    Row("sending-gone-sender-runs", SENDING, Gone(sender_running=True), SENDING),
    Row("sending-gone-crash", SENDING, Gone(), ANSWERED,
        (outcome("approve", Outcome.INTERRUPTED, INTERRUPTED),),
        expect={"action": "approve", "sender": None, "closed_at": NOW}),
    Row("sending-decided", SENDING, DECIDE, SENDING, expect={"decided_by": "ann"}),
    Row("sending-keys-sent", SENDING, SENT, SENDING, expect={"sender": ME}),
    Row("sending-keys-failed", SENDING, FAILED, ANSWERED, expect=CLOSED_BY_BOB),
    Row("sending-keys-unknown", SENDING, UNKNOWN, DELIVERY_UNKNOWN, expect=UNKNOWN_BY_BOB),
    Row("sending-verified", SENDING, VERIFIED, ANSWERED, expect=CLOSED_BY_BOB),
    # -- DELIVERY_UNKNOWN
    Row("unknown-seen", DELIVERY_UNKNOWN, SEEN, DELIVERY_UNKNOWN),
    Row("unknown-seen-again-too-soon", DELIVERY_UNKNOWN, SeenAgain(), DELIVERY_UNKNOWN,
        update={"closed_at": FRESH}),
    Row("unknown-seen-again-settled", DELIVERY_UNKNOWN, SeenAgain(), OPEN,
        (outcome("deny", Outcome.NOT_DELIVERED, NOT_DELIVERED),), update={"closed_at": SETTLED},
        expect={"action": None, "sender": None, "closed_at": None, "decided_by": None}),
    Row("unknown-seen-again-host-unreadable", DELIVERY_UNKNOWN,
        SeenAgain(host_readable=False), DELIVERY_UNKNOWN),
    Row("unknown-gone-agent-runs", DELIVERY_UNKNOWN, Gone(), ANSWERED,
        (outcome("deny", Outcome.SENT, RECONNECTED, confirmed="reconnect"),),
        expect={"action": "deny", "closed_at": NOW}),
    Row("unknown-gone-agent-gone", DELIVERY_UNKNOWN, Gone(agent_alive=False), ANSWERED,
        (outcome("deny", Outcome.INTERRUPTED, AGENT_GONE),)),
    Row("unknown-gone-host-unreadable", DELIVERY_UNKNOWN,
        Gone(host_readable=False, agent_alive=False), DELIVERY_UNKNOWN),
    Row("unknown-decided", DELIVERY_UNKNOWN, DECIDE, DELIVERY_UNKNOWN),
    Row("unknown-keys-sent", DELIVERY_UNKNOWN, SENT, DELIVERY_UNKNOWN),
    Row("unknown-keys-failed", DELIVERY_UNKNOWN, FAILED, ANSWERED, expect=CLOSED_BY_BOB),
    Row("unknown-keys-unknown", DELIVERY_UNKNOWN, UNKNOWN, DELIVERY_UNKNOWN,
        expect=UNKNOWN_BY_BOB),
    Row("unknown-verified", DELIVERY_UNKNOWN, VERIFIED, ANSWERED, expect=CLOSED_BY_BOB),
    # -- ANSWERED: closed
    Row("answered-seen", ANSWERED, SEEN, ANSWERED),
    Row("answered-seen-again", ANSWERED, SeenAgain(), ANSWERED),
    Row("answered-gone", ANSWERED, Gone(), ANSWERED),
    Row("answered-decided", ANSWERED, DECIDE, ANSWERED, expect={"decided_by": "ann"}),
    Row("answered-keys-sent", ANSWERED, SENT, ANSWERED),
    Row("answered-keys-failed", ANSWERED, FAILED, ANSWERED, expect=CLOSED_BY_BOB),
    Row("answered-keys-unknown", ANSWERED, UNKNOWN, DELIVERY_UNKNOWN, expect=UNKNOWN_BY_BOB),
    Row("answered-verified", ANSWERED, VERIFIED, ANSWERED, expect=CLOSED_BY_BOB),
    # -- ENDED: closed, but approve's fresh proof wins over a sweep that raced it
    Row("ended-seen", ENDED, SEEN, ENDED),
    Row("ended-seen-again", ENDED, SeenAgain(), ENDED),
    Row("ended-gone", ENDED, Gone(), ENDED),
    Row("ended-decided", ENDED, DECIDE, SENDING,
        expect={"action": "approve", "sender": ME, "closed_at": None, "decided_by": "bob"}),
    Row("ended-keys-sent", ENDED, SENT, ENDED),
    Row("ended-keys-failed", ENDED, FAILED, ANSWERED, expect=CLOSED_BY_BOB),
    Row("ended-keys-unknown", ENDED, UNKNOWN, DELIVERY_UNKNOWN, expect=UNKNOWN_BY_BOB),
    Row("ended-verified", ENDED, VERIFIED, ANSWERED, expect=CLOSED_BY_BOB),
]  # fmt: skip

# -- the agent's channel (issue 32): "seen" events are a sweep's reading of the channel; the
# sender's word ("by bob") is the paw process that answered through it saying what became of it
REQUESTED = ChannelRequested("r1", "agree", "ls -la")
BOUND: Mapping[str, object] = {"channel_request": "r1", "source": "agree",
                               "channel_subject": "ls -la"}  # fmt: skip
UNBOUND: Mapping[str, object] = {"channel_request": None, "source": "screen",
                                 "channel_subject": None}  # fmt: skip
RESOLVED_SEEN = ChannelResolved("r1")
RESOLVED_BY_BOB = ChannelResolved("r1", "approve", "bob")
RESOLVED_OTHER = ChannelResolved("r2")  # a request this occurrence is not bound to
TIMED_OUT_SEEN = ChannelTimedOut("r1")
TIMED_OUT_BY_BOB = ChannelTimedOut("r1", "approve", "bob")
WITHDRAWN_SEEN = ChannelWithdrawn("r1")
WITHDRAWN_BY_BOB = ChannelWithdrawn("r1", "approve", "bob")
OUTSIDE = NoteEnded(client_attached=False, reason=ANSWERED_OUTSIDE)

CHANNEL_ROWS = [
    # -- no occurrence yet: the channel starts none (a sweep's Seen does, fused)
    Row("new-channel-requested", None, REQUESTED, None),
    Row("new-channel-resolved", None, RESOLVED_SEEN, None),
    Row("new-channel-timed-out", None, TIMED_OUT_SEEN, None),
    Row("new-channel-withdrawn", None, WITHDRAWN_BY_BOB, None),
    # -- OPEN: bound to the request it shows; answered outside paw ends it
    Row("open-channel-requested", OPEN, REQUESTED, OPEN, expect=BOUND),
    Row("open-channel-requested-again", OPEN, REQUESTED, OPEN, update=BOUND, expect=BOUND),
    Row("open-channel-requested-another", OPEN, ChannelRequested("r2", "disagree", "rm -rf ~"),
        OPEN, update=BOUND, expect={"channel_request": "r2", "source": "disagree",
                                    "channel_subject": "rm -rf ~"}),
    Row("open-channel-resolved-outside", OPEN, RESOLVED_SEEN, ENDED, (OUTSIDE,), update=BOUND,
        expect={"closed_at": NOW, **BOUND}),
    Row("open-channel-resolved-another-request", OPEN, RESOLVED_OTHER, OPEN, update=BOUND),
    Row("open-channel-resolved-unbound", OPEN, RESOLVED_SEEN, OPEN),
    Row("open-channel-resolved-by-sender", OPEN, RESOLVED_BY_BOB, ANSWERED, update=BOUND,
        expect=CLOSED_BY_BOB),
    Row("open-channel-timed-out", OPEN, TIMED_OUT_SEEN, OPEN, update=BOUND, expect=UNBOUND),
    Row("open-channel-timed-out-another-request", OPEN, ChannelTimedOut("r2"), OPEN,
        update=BOUND, expect=BOUND),
    Row("open-channel-timed-out-by-sender", OPEN, TIMED_OUT_BY_BOB, ANSWERED,
        expect=CLOSED_BY_BOB),
    Row("open-channel-withdrawn", OPEN, WITHDRAWN_SEEN, OPEN, update=BOUND, expect=UNBOUND),
    Row("open-channel-withdrawn-by-sender", OPEN, WITHDRAWN_BY_BOB, ANSWERED,
        expect=CLOSED_BY_BOB),
    # -- SENDING: keeps its request; the sender's word closes it; a crash is reconciled
    Row("sending-channel-requested", SENDING, ChannelRequested("r2", "agree", "x"), SENDING,
        update=BOUND, expect=BOUND),
    Row("sending-channel-resolved-by-sender", SENDING, RESOLVED_BY_BOB, ANSWERED, update=BOUND,
        expect={**CLOSED_BY_BOB, **BOUND}),
    Row("sending-channel-resolved-sender-runs", SENDING, ChannelResolved("r1", sender_running=True),
        SENDING, update=BOUND),
    Row("sending-channel-resolved-after-crash", SENDING, RESOLVED_SEEN, ANSWERED,
        (outcome("approve", Outcome.SENT, TAKEN_AFTER_STOP, confirmed="channel"),),
        update=BOUND, expect={"action": "approve", "sender": None, "closed_at": NOW,
                              "decided_by": "ann"}),
    Row("sending-channel-resolved-another-request", SENDING, RESOLVED_OTHER, SENDING,
        update=BOUND),
    Row("sending-channel-timed-out", SENDING, TIMED_OUT_SEEN, SENDING, update=BOUND),
    Row("sending-channel-timed-out-by-sender", SENDING, TIMED_OUT_BY_BOB, ANSWERED,
        update=BOUND, expect=CLOSED_BY_BOB),
    Row("sending-channel-withdrawn", SENDING, WITHDRAWN_SEEN, SENDING, update=BOUND),
    Row("sending-channel-withdrawn-by-sender", SENDING, WITHDRAWN_BY_BOB, ANSWERED,
        update=BOUND, expect=CLOSED_BY_BOB),
    # -- DELIVERY_UNKNOWN: keys went; only the screen reconciles it, or the sender's word
    Row("unknown-channel-requested", DELIVERY_UNKNOWN, REQUESTED, DELIVERY_UNKNOWN,
        expect=UNBOUND),
    Row("unknown-channel-resolved", DELIVERY_UNKNOWN, RESOLVED_SEEN, DELIVERY_UNKNOWN,
        update=BOUND),
    Row("unknown-channel-resolved-by-sender", DELIVERY_UNKNOWN, RESOLVED_BY_BOB, ANSWERED,
        expect=CLOSED_BY_BOB),
    Row("unknown-channel-timed-out", DELIVERY_UNKNOWN, TIMED_OUT_SEEN, DELIVERY_UNKNOWN,
        update=BOUND),
    Row("unknown-channel-withdrawn", DELIVERY_UNKNOWN, WITHDRAWN_SEEN, DELIVERY_UNKNOWN,
        update=BOUND),
    Row("unknown-channel-withdrawn-by-sender", DELIVERY_UNKNOWN, WITHDRAWN_BY_BOB, ANSWERED,
        expect=CLOSED_BY_BOB),
    # -- ANSWERED: closed; only the sender's word (as Verified) restates it
    Row("answered-channel-requested", ANSWERED, REQUESTED, ANSWERED, expect=UNBOUND),
    Row("answered-channel-resolved", ANSWERED, RESOLVED_SEEN, ANSWERED, update=BOUND),
    Row("answered-channel-resolved-by-sender", ANSWERED, RESOLVED_BY_BOB, ANSWERED,
        update=BOUND, expect=CLOSED_BY_BOB),
    Row("answered-channel-timed-out", ANSWERED, TIMED_OUT_SEEN, ANSWERED, update=BOUND),
    Row("answered-channel-withdrawn", ANSWERED, WITHDRAWN_SEEN, ANSWERED, update=BOUND),
    # -- ENDED: bound by approve's fresh proof (a decision may start from it), else closed
    Row("ended-channel-requested", ENDED, REQUESTED, ENDED, expect=BOUND),
    Row("ended-channel-resolved", ENDED, RESOLVED_SEEN, ENDED, update=BOUND),
    Row("ended-channel-resolved-by-sender", ENDED, RESOLVED_BY_BOB, ANSWERED, update=BOUND,
        expect=CLOSED_BY_BOB),
    Row("ended-channel-timed-out", ENDED, TIMED_OUT_SEEN, ENDED, update=BOUND),
    Row("ended-channel-withdrawn", ENDED, WITHDRAWN_SEEN, ENDED, update=BOUND),
]  # fmt: skip
ROWS += CHANNEL_ROWS


@pytest.mark.parametrize(Row._fields, ROWS, ids=[r.test_id for r in ROWS])
def test_occurrence_step(
    test_id: str,
    state: OccurrenceState | None,
    event: Event,
    after: OccurrenceState | None,
    effects: tuple[Effect, ...],
    update: Mapping[str, object] | None,
    expect: Mapping[str, object] | None,
) -> None:
    before = None if state is None else record(state, **(update or {}))
    got, done = step(before, event, NOW)
    assert done == effects
    if after is None:
        assert got is None
        return
    assert got is not None
    assert got.state is after
    for name, value in (expect or {}).items():
        assert getattr(got, name) == value, name
    if before is not None and got == before:
        assert got is before  # unchanged: the very record (callers skip the write)
    if before is not None:  # the proof itself never changes
        for name in ("id", "agent", "pane_id", "fingerprint", "proc", "server", "first_seen"):
            assert getattr(got, name) == getattr(before, name)


def test_occurrence_table_covers_every_state_and_event() -> None:
    """A new event (the channel's) or state fails here until its rows are in the table."""
    events = typing.get_args(Event)
    states: list[OccurrenceState | None] = [None, *OccurrenceState]
    covered = {(r.state, type(r.event)) for r in ROWS}
    missing = [(s, e.__name__) for s in states for e in events if (s, e) not in covered]
    assert missing == []


def test_occurrence_outcomes_are_the_supervisors() -> None:
    """The outcomes the machine records are :class:`paw.supervisor.model.Outcome` values."""
    values = {Outcome(v) for v in ("not-sent", "interrupted", "not-delivered", "sent")}
    assert {occurrence.NOT_SENT, occurrence.INTERRUPTED, occurrence.NOT_DELIVERED,
            occurrence.SENT} == {v.value for v in values}  # fmt: skip


def test_occurrence_states_keep_their_stored_values() -> None:
    """prompts.json written by an older paw still loads: the states are the same strings."""
    assert [s.value for s in OccurrenceState] == [
        "open", "sending", "answered", "ended", "delivery-unknown",
    ]  # fmt: skip
    stored = record(OPEN).model_dump(mode="json") | {"state": "delivery-unknown"}
    loaded = PromptRecord.model_validate(stored)
    assert loaded.state is DELIVERY_UNKNOWN
    assert loaded.model_dump(mode="json")["state"] == "delivery-unknown"


def test_occurrence_in_flight_prefers_delivery_unknown() -> None:
    table = {
        "u": record(DELIVERY_UNKNOWN, id="u"),
        "s": record(SENDING, id="s"),
        "x": record(SENDING, id="x", agent="b", action=None),
        "o": record(OPEN, id="o", agent="c"),
    }
    assert in_flight(table) == {"a": "delivery-unknown", "b": "decision"}
    assert in_flight(dict(reversed(table.items()))) == {"a": "delivery-unknown", "b": "decision"}


def test_occurrence_retained_keeps_live_and_recent_closed() -> None:
    old = record(ENDED, id="old", first_seen=NOW - occurrence.KEEP_GONE_S - 1)
    new = record(ENDED, id="new")
    live = record(OPEN, id="live", first_seen=NOW - occurrence.KEEP_GONE_S - 1)
    table = {"old": old, "new": new, "live": live}
    assert set(retained(table, {"live"}, NOW)) == {"new", "live"}


def _started() -> PromptRecord:
    rec, _ = step(None, SEEN, NOW)
    assert rec is not None
    return rec


def test_occurrence_channel_life_answered_through_the_channel() -> None:
    """Seen (from the screen) → the channel's request lands → decided → the agent took it."""
    rec = _started()
    rec, _ = step(rec, SeenAgain(), NOW + 1)
    rec, _ = step(rec, REQUESTED, NOW + 1)
    assert (rec.state, rec.channel_request, rec.source) == (OPEN, "r1", "agree")
    rec, _ = step(rec, DECIDE, NOW + 2)
    # a sweep meanwhile: the channel says the agent took it, the sender still runs
    same, done = step(rec, ChannelResolved("r1", sender_running=True), NOW + 2)
    assert (same, done) == (rec, ())
    rec, done = step(rec, RESOLVED_BY_BOB, NOW + 3)
    assert (rec.state, rec.action, rec.decided_by, done) == (ANSWERED, "approve", "bob", ())


def test_occurrence_channel_kill_9_after_the_answer_is_reconciled_as_sent() -> None:
    """paw killed after handing the answer to the channel: the next sweep reads the request
    resolved and records the outcome once, confirmed by the channel, never "not sent"."""
    rec = _started()
    rec, _ = step(rec, REQUESTED, NOW)
    rec, _ = step(rec, Decided("approve", ME, "bob"), NOW + 1)
    rec, done = step(rec, RESOLVED_SEEN, NOW + 2)
    assert rec.state is ANSWERED
    assert done == (outcome("approve", Outcome.SENT, TAKEN_AFTER_STOP, confirmed="channel"),)
    again, more = step(rec, RESOLVED_SEEN, NOW + 3)  # a second sweep: recorded once
    assert (again, more) == (rec, ())


def test_occurrence_a_forged_or_stale_request_answers_nothing() -> None:
    """A sweep's reading for a request the occurrence is not bound to changes nothing."""
    rec = record(OPEN, **BOUND)
    for event in (RESOLVED_OTHER, ChannelTimedOut("r2"), ChannelWithdrawn("r2")):
        assert step(rec, event, NOW) == (rec, ())
