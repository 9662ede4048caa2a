"""What the decisions ask the runner to do (it records each before carrying it out)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Spawn:
    """Start a task's agent."""

    task: str


@dataclass(frozen=True, slots=True)
class RunCheck:
    """Run a task's check in its worktree."""

    task: str


@dataclass(frozen=True, slots=True)
class FollowUp:
    """Type the check's failure back to the agent."""

    task: str
    text: str


@dataclass(frozen=True, slots=True)
class ApproveByRule:
    """Approve a prompt through the normal approval path, citing a standing rule."""

    task: str
    prompt_id: str
    rule: int


@dataclass(frozen=True, slots=True)
class Notify:
    """Tell a human: ``event`` is parked, reminder, answered, stuck, task-failed, wave-done…"""

    event: str
    task: str | None
    prompt_id: str | None = None


Effect = Spawn | RunCheck | FollowUp | ApproveByRule | Notify
