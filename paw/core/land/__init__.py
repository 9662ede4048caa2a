"""Landing a wave (pure): the local merge queue's order, its journal and every decision of it.

``paw wave land`` takes the wave's done tasks in ``depends_on`` order, then finishing order, and
for each one brings its branch onto the current base (rebase, or a merge commit) in a scratch
worktree, runs the task's check and the wave's ``land_check`` there, and fast-forwards the base
only when they pass. A conflict or a failing check goes back to the task's agent as a follow-up
(up to the task's ``retries``); after that the task is parked for a human. Tasks that do not
depend on it keep landing.

Nothing here touches git, tmux or the clock: :mod:`paw.supervisor.land` observes, asks this
package, records the journal (``.paw/waves/<wave>.land.json``) and only then acts, so that a
lander killed at any step and started again lands no task twice and moves no base by a
half-finished step.

The rooms: :mod:`.journal` (what is recorded), :mod:`.queue` (the order and the next step),
:mod:`.attempt` (one attempt, and what a crash left of it), :mod:`.followup` (a task sent back),
:mod:`.report` (messages and the report's section) and :mod:`.push` (pushing the landed base).
This module names their public API, so ``from paw.core.land import …`` reads as before.
"""

from __future__ import annotations

from paw.core.land.attempt import (
    PARKED_TAIL_LINES,
    Outcome,
    Recovery,
    after_attempt,
    begin,
    recover,
    redo,
    scratch_name,
)
from paw.core.land.followup import (
    FOLLOWUP_MAX_CHARS,
    FOLLOWUP_TAIL_LINES,
    followup_counted,
    followup_refused,
    followup_text,
    followup_typed,
)
from paw.core.land.journal import (
    LAND_SUFFIX,
    SCRATCH_DIR,
    Attempt,
    LandState,
    LandStatus,
    Step,
    TaskLanding,
)
from paw.core.land.push import push_command, push_refusal
from paw.core.land.queue import (
    GONE,
    AgentSeen,
    Decision,
    Finished,
    Land,
    SendBack,
    Wait,
    decide,
    enqueue,
    park,
    queue_order,
)
from paw.core.land.report import land_message, landing_data, landing_markdown, landing_rows

__all__ = [
    "FOLLOWUP_MAX_CHARS",
    "FOLLOWUP_TAIL_LINES",
    "GONE",
    "LAND_SUFFIX",
    "PARKED_TAIL_LINES",
    "SCRATCH_DIR",
    "AgentSeen",
    "Attempt",
    "Decision",
    "Finished",
    "Land",
    "LandState",
    "LandStatus",
    "Outcome",
    "Recovery",
    "SendBack",
    "Step",
    "TaskLanding",
    "Wait",
    "after_attempt",
    "begin",
    "decide",
    "enqueue",
    "followup_counted",
    "followup_refused",
    "followup_text",
    "followup_typed",
    "land_message",
    "landing_data",
    "landing_markdown",
    "landing_rows",
    "park",
    "push_command",
    "push_refusal",
    "queue_order",
    "recover",
    "redo",
    "scratch_name",
]
