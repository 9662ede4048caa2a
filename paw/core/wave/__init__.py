"""Unattended waves: the wave file and every decision the wave runner makes (pure).

A wave is a batch of tasks, each an agent in its own worktree. The runner observes each task's
agent, and this package decides what happens next: start a task, run its check, send the check's
failure back as a follow-up, approve a prompt by a standing rule, park a prompt for a human,
escalate a stuck agent, finish the task. Nothing here touches tmux, git or the clock: the
runner passes ``now`` and what it saw, and carries out the effects (recording each first).

The rooms: :mod:`.schema` (the wave file, its cross-key checks, its digest), :mod:`.state`
(what the runner persists), :mod:`.seen` (what a sweep shows the decisions), :mod:`.effects`
(what the decisions ask for), :mod:`.rules` (standing rules: where a prompt goes),
:mod:`.steps` (the decisions) and :mod:`.recorded` (which of its own steps the audit holds,
read on resume). This module names their public API, so ``from paw.core.wave import …`` reads
as before the split.
"""

from __future__ import annotations

from paw.core.notify_settings import NotifySettings
from paw.core.output_tail import tail
from paw.core.wave.effects import ApproveByRule, Effect, FollowUp, Notify, RunCheck, Spawn
from paw.core.wave.recorded import audited
from paw.core.wave.rules import HUMAN_ONLY_KINDS, needs_human_dialog, route, rule_matches
from paw.core.wave.schema import (
    MAX_POLL_S,
    MIN_POLL_S,
    RULE_KINDS,
    WaveFile,
    WaveRule,
    WaveTask,
    agent_name,
    file_digest,
    wave_issues,
)
from paw.core.wave.seen import CheckResult, CheckRunner, SeenPrompt, TaskView
from paw.core.wave.state import (
    FINAL,
    CheckRun,
    DueNote,
    Phase,
    PromptState,
    TaskState,
    WaveEnd,
    WaveState,
    describe,
    initial_state,
)
from paw.core.wave.steps import (
    FOLLOWUP_MAX_CHARS,
    FOLLOWUP_TAIL_LINES,
    WAITING,
    WARN_AT,
    Step,
    after_check,
    followup_refused,
    followup_text,
    followup_unseen,
    notify_settings,
    park_early,
    ready_to_start,
    signature,
    step_checking,
    step_task,
    wave_finished,
    wave_over_budget,
    wave_spent,
)

__all__ = [
    "FINAL",
    "FOLLOWUP_MAX_CHARS",
    "FOLLOWUP_TAIL_LINES",
    "HUMAN_ONLY_KINDS",
    "MAX_POLL_S",
    "MIN_POLL_S",
    "RULE_KINDS",
    "WAITING",
    "WARN_AT",
    "ApproveByRule",
    "CheckResult",
    "CheckRun",
    "CheckRunner",
    "DueNote",
    "Effect",
    "FollowUp",
    "Notify",
    "NotifySettings",
    "Phase",
    "PromptState",
    "RunCheck",
    "SeenPrompt",
    "Spawn",
    "Step",
    "TaskState",
    "TaskView",
    "WaveEnd",
    "WaveFile",
    "WaveRule",
    "WaveState",
    "WaveTask",
    "after_check",
    "agent_name",
    "audited",
    "describe",
    "file_digest",
    "followup_refused",
    "followup_text",
    "followup_unseen",
    "initial_state",
    "needs_human_dialog",
    "notify_settings",
    "park_early",
    "ready_to_start",
    "route",
    "rule_matches",
    "signature",
    "step_checking",
    "step_task",
    "tail",
    "wave_finished",
    "wave_issues",
    "wave_over_budget",
    "wave_spent",
]
