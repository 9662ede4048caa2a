"""Fault injection for tests: ``PAW_TEST_CRASH_AT=<step>`` ends paw abruptly at that step.

A test sets the variable for one paw command and then checks that the next command finishes or
undoes what was interrupted (no key sent twice, no work lost, an audit that agrees with what
happened). Unset, this costs one environment lookup and does nothing.
"""

from __future__ import annotations

import os

CRASH_ENV = "PAW_TEST_CRASH_AT"
CRASH_STATUS = 137  # what a shell reports for a process killed by SIGKILL


APPROVE_STEPS = (
    "approve:recorded",  # the decision is recorded and the occurrence marked; no key sent
    "approve:sent",  # the keys are sent; no outcome recorded
    "deny:recorded",
    "deny:sent",
)


def crash_at(step: str) -> None:
    """End this process at once (no cleanup, no flush) when ``PAW_TEST_CRASH_AT`` names
    ``step`` (``<operation>:<step>``, several separated by commas): what kill -9 at that point
    would leave behind."""
    wanted = {s.strip() for s in os.environ.get(CRASH_ENV, "").split(",")}
    if step in wanted:
        os._exit(CRASH_STATUS)
