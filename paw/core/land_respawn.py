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

from paw.core.printable import printable_line

if TYPE_CHECKING:
    from paw.core.land.journal import TaskLanding

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


def respawned(t: TaskLanding, into: str, strategy: str) -> None:
    """The new agent is up: its follow-up waits to be typed (again, when the gone agent had
    been told already: the same follow-up, not one more)."""
    t.respawn_pending = False
    if t.followup_text is None:
        t.followups = max(0, t.followups - 1)  # counted again when it is typed
        t.followup_text = respawn_text(t, into, strategy)
    t.followup_why = None


def respawn_text(t: TaskLanding, into: str, strategy: str) -> str:
    """The follow-up for an agent started on a sent-back branch (ONE line, printable)."""
    verb = "rebase" if strategy == "rebase" else "merge"
    if t.files:
        files = ", ".join(printable_line(f) for f in t.files[:20])
        what = f"Your branch conflicts with {into} ({verb}): {files}."
    elif t.check:
        lines = [printable_line(ln.strip()) for ln in t.tail.splitlines() if ln.strip()][-10:]
        what = (
            f"On top of {into} ({verb}) the check `{printable_line(t.check)}` failed. "
            f"Output tail: {' | '.join(lines)[-1000:]}."
        )
    else:
        what = f"Your branch could not land on {into}: {printable_line(t.problem or 'unknown')}."
    how = f"git {verb} {into}"
    return f"{what} Please bring {into} into your branch ({how}), fix this, commit, and finish."


def respawn_event(events: list[dict[str, object]], task: str, text: str, now: float) -> None:
    """One state change of the queue (the task stays sent back)."""
    events.append({"at": now, "task": task, "status": "sent-back", "text": text})
