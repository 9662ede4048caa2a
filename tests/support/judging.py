"""The guard's judgement of what a detector read, as approval makes it (the default guard
settings, no MCP server allowed, the detection's notes counted): shared by the tests that check
a detector never lets a command it could not read whole pass for allowed."""

from __future__ import annotations

from paw.core.approval import INCOMPLETE_NOTE_PREFIX, evaluate_subject
from paw.core.config import GuardConfig
from paw.core.guard.shell import evaluate_command
from paw.core.models import Detection, Prompt, Verdict


def judge_prompt(prompt: Prompt, notes: tuple[str, ...] = (), *, worktree: str = "/w") -> Verdict:
    """The guard's verdict on ``prompt`` read with ``notes``, in ``worktree``."""
    return evaluate_subject(
        prompt,
        worktree=worktree,
        config=GuardConfig(),
        mcp_allowed=(),
        shell=evaluate_command,
        notes=notes,
    )


def judge(found: Detection, *, worktree: str = "/w") -> Verdict:
    """The guard's verdict on the prompt ``found`` lists (there must be one), with its notes."""
    assert found.prompt is not None, found
    return judge_prompt(found.prompt, found.notes, worktree=worktree)


def marked_incomplete(found: Detection) -> bool:
    """Whether the detector said the subject it read is not all of it."""
    return any(n.startswith(INCOMPLETE_NOTE_PREFIX) for n in found.notes)
