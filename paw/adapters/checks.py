"""Run a wave task's check (the definition of done) in its worktree."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time

from paw.adapters import autogroup
from paw.core.wave import CheckResult

TIMEOUT_EXIT = 124  # as timeout(1)
_running: set[subprocess.Popen[bytes]] = set()  # the checks this process runs now
_lock = threading.Lock()


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
    autogroup.share_nice(proc.pid)  # a niced paw's nice for the check's session
    with _lock:
        _running.add(proc)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc.pid)
        out, _ = proc.communicate()
        text = out.decode(errors="replace") + f"\n(paw: the check ran over {timeout:g}s)"
        return CheckResult(TIMEOUT_EXIT, text, time.monotonic() - start)
    finally:
        with _lock:
            _running.discard(proc)
    return CheckResult(proc.returncode, out.decode(errors="replace"), time.monotonic() - start)


def end_checks() -> None:
    """Kill every check this process still runs, with its whole process group: a wave runner
    that ends (``paw wave stop``, or its wave ended) never leaves a check running on its own
    (its result would never be read; the next runner runs the check again)."""
    with _lock:
        running = list(_running)
    for proc in running:
        if proc.returncode is None:  # (not reaped yet: its group id is still its own)
            _kill_group(proc.pid)


def _kill_group(group: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, signal.SIGKILL)
