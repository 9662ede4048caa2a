"""Respawning a sent-back task's agent that is gone (pure): when it may, and what it types.

A conflict or a check failing after the rebase goes back to the task's agent: the agent that
made the branch if it still runs, else a new one started on the same branch, in the same
worktree (``paw spawn --resume``). The new agent gets the follow-up like any other, typed
only into its idle, empty input (the same proof as every typed text).

The respawn is counted in the journal before anything happens, and marked ``pending`` until
the agent is up: a lander killed in between does it again (never twice more than allowed),
and one whose respawn failed parks the task for a human with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from paw.core.output_tail import LAND_FOLLOWUP_MAX_CHARS, LAND_FOLLOWUP_TAIL_LINES, fitted_tail
from paw.core.printable import printable_line

if TYPE_CHECKING:
    from paw.core.land.journal import TaskLanding
    from paw.core.typed_room import Fit

# The agent statuses after which a new agent may take over the branch: it exited, its record
# is gone, or its tmux server went away. ("replaced": a process paw did not start runs in
# its pane: a human decides.)
RESPAWNABLE = frozenset({"exited", "gone", "server-restarted"})


@dataclass(frozen=True, slots=True)
class Respawn:
    """Start a new agent on the task's branch (its agent is gone)."""

    task: str


def may_respawn(t: TaskLanding, status: str, retries: int) -> bool:
    """True when the task's gone agent may be replaced: a respawn cut off is done again; a new
    one only within the task's ``retries`` (at least one)."""
    if status not in RESPAWNABLE:
        return False
    return t.respawn_pending or t.respawns < max(1, retries)


def respawn_counted(t: TaskLanding, now: float) -> bool:
    """A respawn is about to start: counted and marked pending first (False: it was pending
    already, a lander killed during it: done again, not counted again)."""
    if t.respawn_pending:
        return False
    t.respawns += 1
    t.respawn_pending = True
    t.sent_at = now  # the new agent gets the whole wait
    return True


def respawned(t: TaskLanding, into: str, strategy: str, fit: Fit | None = None) -> None:
    """The new agent is up: its follow-up waits to be typed (again, when the gone agent had
    been told already: the same follow-up, not one more). ``fit``: the room in the new
    agent's input (see :func:`respawn_text`)."""
    t.respawn_pending = False
    if t.followup_text is None:
        t.followups = max(0, t.followups - 1)  # counted again when it is typed
        t.followup_text = respawn_text(t, into, strategy, fit)
    t.followup_why = None


def respawn_text(t: TaskLanding, into: str, strategy: str, fit: Fit | None = None) -> str:
    """The follow-up for an agent started on a sent-back branch (ONE line, printable). A
    failed check's tail is sized as the lander's first follow-up is
    (:func:`~paw.core.output_tail.fitted_tail`: its last lines that show whole in ``fit``,
    "(trimmed)" said) and the file holding the whole output is named."""
    verb = "rebase" if strategy == "rebase" else "merge"
    how = f"git {verb} {into}"
    ask = f"Please bring {into} into your branch ({how}), fix this, commit, and finish."
    if t.files:
        files = ", ".join(printable_line(f) for f in t.files[:20])
        return f"Your branch conflicts with {into} ({verb}): {files}. {ask}"
    if t.check:
        check = printable_line(t.check)
        saved = f"The whole output is in {printable_line(t.saved)}. " if t.saved else ""

        def compose(tail: str) -> str:
            return (
                f"On top of {into} ({verb}) the check `{check}` failed. "
                f"Output tail: {tail}. " + saved + ask
            )

        return fitted_tail(t.tail, LAND_FOLLOWUP_TAIL_LINES, LAND_FOLLOWUP_MAX_CHARS, compose, fit)
    return f"Your branch could not land on {into}: {printable_line(t.problem or 'unknown')}. {ask}"


def respawn_event(events: list[dict[str, object]], task: str, text: str, now: float) -> None:
    """One state change of the queue (the task stays sent back)."""
    events.append({"at": now, "task": task, "status": "sent-back", "text": text})
