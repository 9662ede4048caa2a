"""The named steps of paw's multi-step operations, where the test-only crash switch
(``PAW_TEST_CRASH_AT``, see :mod:`paw.adapters.crash_switch`) can kill paw.

Each operation writes an intent record before its first step, so a crash at any step leaves
something the next paw command finishes or undoes. Add a step here and call
``ctx.fault(step)`` at that point; tests/adversarial/test_crash.py kills paw at every step
listed.
"""

from __future__ import annotations

SPAWN_STEPS = (
    "spawn:intent",  # the intent record is written; nothing else exists yet
    "spawn:worktree",  # worktree and branch exist; no pane
    "spawn:pane",  # the pane runs the agent; its id is not recorded yet
    "spawn:recorded",  # the record is complete; the task may not be typed yet
)
RM_STEPS = (
    "rm:intent",  # the removal intent is recorded; nothing removed
    "rm:snapshot",  # everything unsaved is in refs/paw/archive/...
    "rm:stopped",  # the agent's pane is gone
    "rm:worktree",  # the worktree is gone; the branch stays
    "rm:branch",  # worktree and branch are gone; the record stays
)
STEPS = SPAWN_STEPS + RM_STEPS
APPROVE_STEPS = (
    "approve:recorded",  # the decision is recorded and the occurrence marked; no key sent
    "approve:sent",  # the keys are sent; no outcome recorded
    "deny:recorded",
    "deny:sent",
)  # proven by tests/adversarial/test_occurrences.py
CHANNEL_STEPS = (
    "approve:channel-recorded",  # the decision is recorded, the occurrence marked; no answer
    "approve:channel-sent",  # the answer is written for the hook; no outcome recorded
    "deny:channel-recorded",
    "deny:channel-sent",
)  # proven by tests/e2e/test_channel_claude_live.py (approve) against the real Claude Code;
# the reconciliation after "channel-sent" (sent, confirmed by the channel) deterministically by
# tests/supervisor/test_channel_occurrence_real.py
SEND_STEPS = (
    "send:recorded",  # the send is recorded; nothing typed
    "send:typed",  # the text is in the agent's input; no Enter (the next send finds it there)
)  # proven by tests/supervisor/test_typing_proof.py
WAVE_STEPS = (
    "wave:decided",  # a decision (a prompt parked for a human, a task done…) and its owed messages
    # are saved; no message is recorded in the outbox yet (the resumed runner records it)
    "wave:recorded",  # the messages are recorded in the outbox; none audited, none handed on
    "wave:audited",  # the messages' `wave-notify` records are written; none handed to a channel
)  # proven by tests/supervisor/test_wave_announce_real.py (kill -9, real parts) and
# tests/supervisor/test_wave_runner.py (each window: a sweep, an early look, a check)
WAVE_HANDED_STEPS = (
    "wave:handed",  # the messages are handed to the delivery thread (audited before that)
)  # proven by tests/supervisor/test_wave_runner.py (the delivery may or may not have begun:
# a real kill there is a race, not a window a test can aim at)
WAVE_FOLLOWUP_STEPS = (
    "wave:followup-counted",  # a failed check's follow-up is counted and audited; nothing typed
)  # proven by tests/supervisor/test_wave_runner.py and tests/supervisor/test_wave_real.py (kill
# -9, real parts): the next runner types it once the agent's unchanged screen proves it never
# arrived, and never again once the screen shows it did
WAVE_END_STEPS = (
    "wave:ending",  # the end is decided and saved (state.ending); no `wave-end` record yet
    "wave:end-recorded",  # the `wave-end` record is written; the state still says running
)  # proven by tests/supervisor/test_wave_stop_real.py (kill -9, real parts) and
# tests/supervisor/test_wave_runner.py
