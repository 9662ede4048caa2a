"""What a resumed wave runner concludes from the audit and the outbox (pure)."""

from __future__ import annotations

from paw.core.wave_recovery import (
    Delivery,
    Fate,
    answer_from_audit,
    decision_fate,
    delivery,
    undelivered,
)


def _decision(event: str = "approve", user: str = "ann") -> dict[str, object]:
    return {"event": event, "decision": "send", "prompt_id": "p1", "user": user}


def _outcome(outcome: str) -> dict[str, object]:
    return {"event": "outcome", "outcome": outcome, "prompt_id": "p1"}


def test_a_decision_alone_is_pending_and_only_its_outcome_says_whether_keys_went() -> None:
    """Issue 29 (5): `approve:recorded` then `not-sent` is not "approved"."""
    assert decision_fate([], "p1") == (Fate.NONE, None)
    assert decision_fate([_decision()], "p1")[0] is Fate.PENDING
    assert decision_fate([_decision(), _outcome("not-sent")], "p1")[0] is Fate.NOT_SENT
    assert decision_fate([_decision(), _outcome("send-failed")], "p1")[0] is Fate.NOT_SENT
    assert decision_fate([_decision(), _outcome("sent-unconfirmed")], "p1")[0] is Fate.SENT
    assert decision_fate([_decision(), _outcome("interrupted")], "p1")[0] is Fate.UNCERTAIN
    again = [_decision(), _outcome("not-sent"), _decision(user="bob"), _outcome("sent")]
    fate, record = decision_fate(again, "p1")
    assert fate is Fate.SENT
    assert record is not None
    assert record["user"] == "bob"
    other = [_decision(), {**_outcome("sent"), "prompt_id": "p2"}]
    assert decision_fate(other, "p1")[0] is Fate.PENDING


def test_an_answer_is_named_only_when_keys_went_or_are_on_their_way() -> None:
    assert answer_from_audit([_decision(), _outcome("not-sent")], "p1") is None
    assert answer_from_audit([_decision("deny")], "p1") == "denied by ann"
    assert answer_from_audit([_decision(), _outcome("sent")], "p1") == "approved by ann"
    cut = answer_from_audit([_decision(), _outcome("interrupted")], "p1")
    assert cut == "approved by ann (interrupted: the keys may have reached the agent)"


def test_the_outbox_delivers_what_was_never_attempted_and_never_repeats_an_attempt() -> None:
    """Issue 29 (6): at most once per message id."""
    marks: dict[str, object] = {
        "attempted": {"w-1": 1.0, "w-2": 2.0},
        "delivered": {"w-1": 1.5},
    }
    assert delivery("w-1", marks) is Delivery.DELIVERED
    assert delivery("w-2", marks) is Delivery.UNCERTAIN
    assert delivery("w-3", marks) is Delivery.DUE
    messages = [
        {"id": "w-1"},
        {"id": "w-2"},
        {"id": "w-3"},
        {"event": "parked"},  # written before the outbox: delivered as far as anyone knows
        {"id": "w-4", "outcome": "uncertain"},  # settled by an earlier resume
    ]
    due, cut = undelivered(messages, marks)
    assert due == [{"id": "w-3"}]
    assert cut == [{"id": "w-2"}]
