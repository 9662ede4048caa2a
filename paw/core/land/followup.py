"""A task sent back to its agent: the follow-up's text, counted before it is typed, typed or
refused."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.core.land.journal import LandState, LandStatus, TaskLanding, note_event, task_landing
from paw.core.output_tail import (
    LAND_FOLLOWUP_MAX_CHARS,
    LAND_FOLLOWUP_TAIL_LINES,
    TailRoom,
    fitted_tail,
)
from paw.core.printable import printable_line

if TYPE_CHECKING:
    from paw.core.land.attempt import Outcome

FOLLOWUP_TAIL_LINES = LAND_FOLLOWUP_TAIL_LINES
FOLLOWUP_MAX_CHARS = LAND_FOLLOWUP_MAX_CHARS


def followup_text(
    t: TaskLanding, outcome: Outcome, into: str, verb: str, room: TailRoom | None = None
) -> str:
    """The follow-up: what went wrong when the work was put on top of ``into``, on ONE line
    and without control characters (it is typed; a newline would submit early). With a
    ``room``, a failed check's output tail is cut (its last lines kept, "(trimmed)" said) so
    the message shows whole in the agent's input, and the file holding the whole output is
    named."""
    how = f"git rebase {into}" if verb == "rebase" else f"git merge {into}"
    ask = f"Please bring {into} into your branch ({how}), fix this, commit, and finish."
    if outcome.kind == "conflict":
        files = ", ".join(printable_line(f) for f in outcome.files[:20]) or "(unknown files)"
        return f"Your branch conflicts with {into} ({verb}): {files}. {ask}"
    room = room or TailRoom()
    saved = f"The whole output is in {printable_line(room.saved)}. " if room.saved else ""

    def compose(tail: str) -> str:
        return (
            f"On top of {into} ({verb}) the check `{printable_line(outcome.check or '')}` "
            f"failed (exit {outcome.exit_code}). Output tail: {tail}. " + saved + ask
        )

    return fitted_tail(outcome.output, FOLLOWUP_TAIL_LINES, FOLLOWUP_MAX_CHARS, compose, room.fit)


def followup_counted(land: LandState, task: str, now: float) -> TaskLanding:
    """A follow-up is about to be typed: counted first (a crash never types it twice)."""
    del now  # (the event is told once it was typed: followup_typed)
    t = task_landing(land, task)
    t.followups += 1
    t.followup_text = None
    return t


def followup_typed(land: LandState, task: str, now: float) -> TaskLanding:
    """The follow-up reached the agent's input (proven, Enter pressed)."""
    t = task_landing(land, task)
    t.followup_why = None
    note_event(land, task, LandStatus.SENT_BACK, f"follow-up {t.followups} typed", now)
    return t


def followup_refused(land: LandState, task: str, text: str, why: str, now: float) -> TaskLanding:
    """The follow-up was not typed (paw could not prove an idle, empty input): not counted; it
    waits for a later look, until ``wait_s`` parks the task."""
    t = task_landing(land, task)
    t.followups = max(0, t.followups - 1)
    told = t.followup_why == why  # the same refusal again: said once
    t.followup_text, t.followup_why = text, why
    if not told:
        note_event(land, task, LandStatus.SENT_BACK, f"follow-up not typed: {why}", now)
    return t
