"""The wave's report: its state, with the approvals and denials humans sent counted from the
audit (standing-rule approvals and decisions whose keys never went out left out)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from paw.core.wave_report import HumanAnswers, report_data

if TYPE_CHECKING:
    from paw.core.wave import WaveState


def wave_report(state: WaveState, audit: list[dict[str, object]], now: float) -> dict[str, object]:
    """The report of ``state``, with human approvals and denials counted from the audit."""
    return report_data(state, human_answers(state, audit), now)


def human_answers(state: WaveState, audit: list[dict[str, object]]) -> dict[str, HumanAnswers]:
    """Approvals and denials sent for each task's prompts, not counting standing-rule ones
    (the approval right after a ``wave-rule-approve`` of its prompt) nor decisions whose
    outcome says nothing was sent (a rule approval cut off, then a human's: the human's)."""
    by_agent = {t.agent: t for t in state.tasks}
    ruling: set[str] = set()  # prompts whose next approval is a standing rule's
    decisions: list[tuple[dict[str, object], bool]] = []
    unsent: set[int] = set()
    open_decision: dict[str, int] = {}
    for record in audit:
        event, prompt_id = record.get("event"), str(record.get("prompt_id"))
        if event == "wave-rule-approve":
            ruling.add(prompt_id)
        elif event in ("approve", "deny") and record.get("decision") == "send":
            by_rule = event == "approve" and prompt_id in ruling
            ruling.discard(prompt_id)
            open_decision[prompt_id] = len(decisions)
            decisions.append((record, by_rule))
        elif event == "outcome" and prompt_id in open_decision:
            if record.get("outcome") in ("not-sent", "send-failed"):
                unsent.add(open_decision[prompt_id])
            del open_decision[prompt_id]
    counts: dict[str, HumanAnswers] = {}
    for number, (record, by_rule) in enumerate(decisions):
        task = by_agent.get(str(record.get("agent")))
        if task is None or record.get("time", 0.0) < state.started_at:  # type: ignore[operator]
            continue
        if by_rule or number in unsent:
            continue
        old = counts.get(task.name, HumanAnswers())
        counts[task.name] = (
            replace(old, approved=old.approved + 1)
            if record.get("event") == "approve"
            else replace(old, denied=old.denied + 1)
        )
    return counts
