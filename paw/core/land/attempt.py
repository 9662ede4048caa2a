"""One landing attempt: begun before its scratch worktree exists, recorded when it is over, and
judged after a crash from where the base is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from paw.core.detect.screen import strip_ansi
from paw.core.land.followup import followup_text
from paw.core.land.journal import (
    Attempt,
    LandState,
    LandStatus,
    Step,
    TaskLanding,
    note_event,
    task_landing,
)
from paw.core.land.queue import park
from paw.core.output_tail import tail

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from paw.core.output_tail import TailRoom
    from paw.core.wave.schema import WaveTask

PARKED_TAIL_LINES = 30


def scratch_name(task: str, number: int) -> str:
    """The scratch worktree's folder name (under ``.paw/land/<wave>/``)."""
    return f"{task}-{number}"


def begin(land: LandState, task: str, scratch: str, base: str, head: str, now: float) -> Attempt:
    """Record the attempt about to start (before its scratch worktree exists)."""
    t = task_landing(land, task)
    t.attempts += 1
    attempt = Attempt(
        task=task, number=t.attempts, scratch=scratch, base_sha=base, head_sha=head, started_at=now
    )
    land.current = attempt
    return attempt


@dataclass(frozen=True, slots=True)
class Outcome:
    """What an attempt came to."""

    kind: str  # landed, conflict, check-failed, base-moved
    files: tuple[str, ...] = ()
    check: str | None = None
    exit_code: int = 0
    output: str = ""
    commits: tuple[str, ...] = ()  # landed: the base's new commits, oldest first
    base_before: str | None = None
    base_after: str | None = None


def after_attempt(
    spec: WaveTask,
    land: LandState,
    outcome: Outcome,
    head: str,
    now: float,
    strategy: str,
    room: TailRoom | None = None,
) -> TaskLanding:
    """Record what the attempt came to: landed, sent back with a follow-up, or parked. The
    attempt in flight is over (``land.current`` is cleared). ``room``: what a follow-up must
    fit in and where a failed check's whole output was saved."""
    t = task_landing(land, spec.name)
    land.current = None
    if outcome.kind == "landed":
        t.status, t.finished_at, t.why = LandStatus.LANDED, now, None
        t.commits = list(outcome.commits)
        t.base_before, t.base_after = outcome.base_before, outcome.base_after
        t.problem, t.files, t.check, t.tail, t.saved = None, [], None, "", None
        n = len(outcome.commits)
        after = setbacks_text(t.setbacks)
        said = f"landed: {n} commit{'' if n == 1 else 's'}" + (f" (after {after})" if after else "")
        note_event(land, t.name, LandStatus.LANDED, said, now)
        return t
    if outcome.kind == "base-moved":
        note_event(land, t.name, LandStatus.QUEUED, "the base moved meanwhile: tried again", now)
        return t
    verb = "rebase" if strategy == "rebase" else "merge"
    if outcome.kind == "conflict":
        t.problem, t.files, t.check, t.tail = f"conflict on {verb}", list(outcome.files), None, ""
        t.saved = None
    else:
        t.problem = f"check failed after the {verb}"
        t.files, t.check = [], outcome.check
        t.tail = tail(strip_ansi(outcome.output), PARKED_TAIL_LINES)
        t.saved = room.saved if room is not None else None
    t.setbacks.append(
        {
            "kind": outcome.kind, "problem": t.problem, "files": list(t.files), "check": t.check,
            "exit_code": outcome.exit_code if outcome.kind == "check-failed" else None, "at": now,
        }
    )  # fmt: skip
    if t.followups < spec.retries:
        t.status, t.sent_at, t.sent_head = LandStatus.SENT_BACK, now, head
        t.followup_text = followup_text(t, outcome, land.into, verb, room)
        t.followup_why = None
        t.why = f"sent back to its agent: {t.problem}"
        note_event(land, t.name, LandStatus.SENT_BACK, t.why, now)
        return t
    count = f"{t.followups} follow-up{'' if t.followups == 1 else 's'}"
    detail = f" in {', '.join(t.files)}" if t.files else f" (exit {outcome.exit_code})"
    park(land, t.name, f"{t.problem}{detail} after {count}", now)
    return t


def setbacks_text(setbacks: Sequence[Mapping[str, object]]) -> str:
    """A task's setbacks in a few words: ``1 conflict, 2 failing checks`` ("" for none)."""
    conflicts = sum(1 for s in setbacks if s.get("kind") == "conflict")
    checks = sum(1 for s in setbacks if s.get("kind") == "check-failed")
    words = []
    if conflicts:
        words.append(f"{conflicts} conflict{'' if conflicts == 1 else 's'}")
    if checks:
        words.append(f"{checks} failing check{'' if checks == 1 else 's'}")
    return ", ".join(words)


# -- after a crash -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Recovery:
    """What to do with the attempt a dead lander left: ``landed`` (the base holds its result:
    record it) or ``redo`` (nothing moved: throw the scratch away and try again)."""

    kind: str
    attempt: Attempt


def recover(land: LandState, base_now: str | None) -> Recovery | None:
    """The attempt in flight when the lander died, judged from where the base is now. Only a
    step recorded as ``moving`` whose result the base now holds counts as landed; anything
    else moved no base and is done again from the start."""
    attempt = land.current
    if attempt is None:
        return None
    if attempt.step is Step.MOVING and base_now is not None and base_now == attempt.result_sha:
        return Recovery("landed", attempt)
    return Recovery("redo", attempt)


def redo(land: LandState, attempt: Attempt, now: float) -> None:
    """Forget an attempt cut off before it moved the base (its task stays queued)."""
    land.current = None
    note_event(
        land, attempt.task, LandStatus.QUEUED, f"attempt {attempt.number} cut off: again", now
    )
