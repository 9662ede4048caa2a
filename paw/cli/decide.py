"""`paw approve` and `paw deny`: a decision on a live prompt, re-verified by the supervisor,
and its exit code and hint."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.cli import error_object
from paw.cli.repo_supervisor import supervisor_of
from paw.cli.result import Lines, Question, json_of
from paw.supervisor.model import Outcome

if TYPE_CHECKING:
    import argparse

    from paw.cli.result import Result
    from paw.supervisor.model import Decision

EXIT_NEEDS_CONFIRMATION = 3
EXIT_NEEDS_OVERRIDE = 4
EXIT_DELIVERY_UNKNOWN = 6  # approve/deny: the keys may have reached the agent (a host's link)


def _decision_json(d: Decision) -> dict[str, object]:
    data: dict[str, object] = {
        "outcome": d.outcome.value, "prompt_id": d.prompt_id, "reason": d.reason,
        "keys": list(d.keys), "verdict": d.verdict.to_dict() if d.verdict else None,
        "confirmation": d.confirmation,
    }  # fmt: skip
    if _EXIT[d.outcome]:
        data["error"] = error_object(
            f"{d.outcome.value}: {d.reason}", hint=_hint(d), code=_EXIT[d.outcome]
        )
    return data


def cmd_approve(args: argparse.Namespace) -> Result:
    """Approve a live prompt (after re-verifying it)."""
    sup = supervisor_of(args, counts=False)
    options = {"always": args.always, "override": args.override}
    decision = sup.approve(args.id, confirmed=args.yes, **options)
    if decision.outcome is not Outcome.NEEDS_CONFIRMATION or args.json:
        return _report(args, decision)
    # at a terminal the renderer asks; a yes approves again, confirmed (re-verified anew)
    question = Question(
        text=decision.confirmation or decision.reason,
        ask="approve? [y/N] ",
        then=lambda: _report(args, sup.approve(args.id, confirmed=True, **options)),
    )
    return _report(args, decision, question=question)


def cmd_deny(args: argparse.Namespace) -> Result:
    """Deny a live prompt (after re-verifying it)."""
    return _report(args, supervisor_of(args, counts=False).deny(args.id))


_EXIT = {
    Outcome.SENT: 0,
    Outcome.SENT_UNCONFIRMED: 0,
    Outcome.REFUSED: 1,
    Outcome.NEEDS_CONFIRMATION: EXIT_NEEDS_CONFIRMATION,
    Outcome.NEEDS_OVERRIDE: EXIT_NEEDS_OVERRIDE,
    Outcome.DELIVERY_UNKNOWN: EXIT_DELIVERY_UNKNOWN,
}


_HINTS = {
    Outcome.NEEDS_CONFIRMATION: "to confirm, run `paw approve {id} --yes`",
    Outcome.NEEDS_OVERRIDE: '`paw approve {id} --override "REASON"` sends anyway (recorded)',
    Outcome.DELIVERY_UNKNOWN: (
        "do not answer it in the pane blind: `paw log` shows the outcome once the host answers "
        "(not-delivered: the prompt is offered again; sent: it was answered)"
    ),
}


def _hint(d: Decision) -> str | None:
    hint = _HINTS.get(d.outcome)
    return hint.format(id=d.prompt_id or "ID") if hint else None


def _report(args: argparse.Namespace, d: Decision, *, question: Question | None = None) -> Result:
    code = _EXIT[d.outcome]
    if args.json:
        return json_of(_decision_json(d), code=code)
    said = Lines()
    if d.outcome in (Outcome.SENT, Outcome.SENT_UNCONFIRMED):
        note = "" if d.outcome is Outcome.SENT else " (the prompt still shows; check the pane)"
        said.out(f"sent {' '.join(d.keys)} to prompt {d.prompt_id}: {d.reason}{note}")
    else:
        # the reason already names the outcome ("needs confirmation: …"): say it once
        head = d.outcome.value.replace("-", " ")
        reason = d.reason if d.reason.startswith(head) else f"{head}: {d.reason}"
        said.err(f"paw: {reason}")
        if d.confirmation:
            said.err(d.confirmation)
        hint = _hint(d)
        if hint:  # last, where the eye lands: what actually answers this (not a "YES" reply)
            said.err(f"hint: {hint}")
    return said.result(code, question=question)
