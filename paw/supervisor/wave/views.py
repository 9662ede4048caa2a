"""What a sweep shows the wave's decisions: each running task's agent, its live prompts with
the guard's verdict, and a hash of its screen when it is idle."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from paw.core.wave import Phase, SeenPrompt, TaskView
from paw.errors import PawError
from paw.supervisor.model import AgentStatus

if TYPE_CHECKING:
    from collections.abc import Sequence

    from paw.core.ports import Terminal
    from paw.core.wave import TaskState
    from paw.supervisor.model import AgentView, Snapshot


def screen_hashes(
    terminal: Terminal, tasks: Sequence[TaskState], views: dict[str, AgentView]
) -> dict[str, str]:
    """Hashes of the screens of running, not busy, not prompting agents (one tmux call)."""
    panes: dict[str, str] = {}
    for task in tasks:
        view = views.get(task.agent)
        if task.phase is not Phase.RUNNING or view is None or view.pane_id is None:
            continue
        if view.status in (AgentStatus.IDLE, AgentStatus.UNKNOWN):
            panes[view.pane_id] = task.agent
    if not panes:
        return {}
    try:
        survey = terminal.survey(list(panes), fresh=False)
    except PawError:
        return {}
    return {
        panes[c.pane_id]: hashlib.sha256((c.text or "").encode()).hexdigest()[:16]
        for c in survey.captures
        if c.pane_id in panes
    }


def task_view(
    task: TaskState, view: AgentView | None, snap: Snapshot, screens: dict[str, str]
) -> TaskView:
    """What one sweep shows of a running task's agent, in the decisions' terms."""
    if view is None:
        return TaskView(
            "exited", "", task.commits, task.insertions, task.deletions, 0,
            uncommitted=task.uncommitted, untracked=task.untracked,
        )  # fmt: skip
    status = "exited" if view.alive is False else view.status.value
    prompts = tuple(
        SeenPrompt(
            id=p.id,
            kind=p.prompt.kind.value,
            subject=p.prompt.subject,
            question=p.prompt.question,
            verdict=p.verdict.action,
            reasons=p.verdict.reasons,
            approvable=not p.only_in_the_pane,
            first_seen=p.first_seen,
        )
        for p in snap.prompts
        if p.agent == task.agent
    )
    stat = view.stat
    return TaskView(
        status=status,
        screen=screens.get(task.agent, ""),
        commits=stat.ahead,
        insertions=stat.insertions,
        deletions=stat.deletions,
        dirty=stat.uncommitted + stat.untracked,
        prompts=prompts,
        worktree=view.worktree,
        uncommitted=stat.uncommitted,
        untracked=stat.untracked,
    )
