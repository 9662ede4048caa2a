"""What the runner sees and hands to the decisions: a task's agent after one sweep, its live
prompts with the guard's verdict, a check's result."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from paw.core.models import Action


@dataclass(frozen=True, slots=True)
class CheckResult:
    """What running a check produced."""

    exit_code: int
    output: str
    duration_s: float


CheckRunner = Callable[[str, str, float], CheckResult]  # (command, worktree, timeout) -> result


# -- what the runner sees ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeenPrompt:
    """A live prompt of a task's agent with the guard's verdict."""

    id: str
    kind: str
    subject: str | None
    question: str
    verdict: Action
    reasons: tuple[str, ...]
    approvable: bool  # a tool permission paw can answer (keys, or the agent's channel)
    first_seen: float


@dataclass(frozen=True, slots=True)
class TaskView:
    """A running task's agent as one sweep saw it."""

    status: str  # busy, prompt, idle, unknown, exited
    screen: str  # a hash of the visible screen ("" when not captured)
    commits: int
    insertions: int
    deletions: int
    dirty: int  # uncommitted + untracked
    prompts: tuple[SeenPrompt, ...] = ()
    worktree: str = ""
    uncommitted: int = 0
    untracked: int = 0
    # the agent's usage from its own records (tokens; dollars where stated); None: unknown or
    # not read (a task without a token or dollar budget)
    tokens: int | None = None
    usd: float | None = None
    # the wave is over its token or dollar budget (what it used, said): every running task is
    # parked; None while within it
    wave_over: str | None = None
