"""Test-only crash points: ``PAW_TEST_CRASH_AT=<step>[,<step>...]`` makes paw kill itself
(SIGKILL, as ``kill -9`` would) when it reaches a named step of a multi-step operation.

The steps are named ``<operation>:<step>`` (``spawn:worktree``, ``rm:snapshot``); the list is
in :data:`paw.supervisor.crash_steps.STEPS`. Adversarial tests use it to prove that after a crash at
any step the next paw command finishes or undoes the operation and nothing is lost. Unset (the
normal case), every crash point is a no-op.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Mapping

CRASH_ENV = "PAW_TEST_CRASH_AT"


def _nothing(step: str) -> None:
    del step


def crash_points(environ: Mapping[str, str]) -> Callable[[str], None]:
    """The crash-point function for ``environ``: kills this process at the listed steps."""
    wanted = {s.strip() for s in environ.get(CRASH_ENV, "").split(",") if s.strip()}
    if not wanted:
        return _nothing

    def crash(step: str) -> None:
        if step in wanted:
            os.kill(os.getpid(), signal.SIGKILL)

    return crash
