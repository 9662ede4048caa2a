"""Run a wave task's check (the definition of done) in its worktree."""

from __future__ import annotations

import os
import signal
import subprocess
import time

from paw.core.wave import CheckResult

TIMEOUT_EXIT = 124  # as timeout(1)


def run_check(command: str, worktree: str, timeout: float) -> CheckResult:
    """``sh -c COMMAND`` in ``worktree``: exit code, stdout and stderr merged, duration.

    The check runs in its own process group; over ``timeout`` the whole group is killed and
    the result is exit 124 with a note. A check that cannot start is exit 127.
    """
    start = time.monotonic()
    try:
        proc = subprocess.Popen(
            ["/bin/sh", "-c", command], cwd=worktree, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
    except OSError as err:
        return CheckResult(127, f"cannot run the check: {err}", time.monotonic() - start)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        text = out.decode(errors="replace") + f"\n(paw: the check ran over {timeout:g}s)"
        return CheckResult(TIMEOUT_EXIT, text, time.monotonic() - start)
    return CheckResult(proc.returncode, out.decode(errors="replace"), time.monotonic() - start)
