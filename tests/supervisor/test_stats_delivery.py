"""``paw stats`` and a decision whose delivery is unknown: neither approved nor refused until a
later outcome reconciles it (pure counting over audit records)."""

from __future__ import annotations

from paw.supervisor.stats import compute_stats


def _send(prompt: str) -> dict[str, object]:
    return {"event": "approve", "decision": "send", "agent": "a", "prompt_id": prompt}


def _outcome(prompt: str, outcome: str) -> dict[str, object]:
    return {"event": "outcome", "agent": "a", "prompt_id": prompt, "outcome": outcome}


def _row(records: list[dict[str, object]]) -> tuple[int, int, int]:
    row = compute_stats(records)["all"]
    return row["approved"], row["refused"], row["delivery_unknown"]


def test_delivery_unknown_counts_as_nothing_until_reconciled() -> None:
    unknown = [_send("p1"), _outcome("p1", "delivery-unknown")]
    assert _row(unknown) == (0, 0, 1)
    assert _row([*unknown, _outcome("p1", "sent")]) == (1, 0, 0)  # confirmed on reconnect
    not_delivered = [*unknown, _outcome("p1", "not-delivered")]
    assert _row(not_delivered) == (0, 0, 0)
    again = [*not_delivered, _send("p1"), _outcome("p1", "sent")]
    assert _row(again) == (1, 0, 0)  # the human's second approval, counted once
    assert _row([*unknown, _outcome("p1", "interrupted")]) == (0, 0, 0)
