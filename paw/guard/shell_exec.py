"""Run a shell command via ``/bin/sh -c`` (git-guardrails' ``runShell``).

This module does **not** call the guard: the caller decides where the guardrail applies, so the
boundary stays visible in calling code (git-guardrails' design). A timeout never raises: the
whole process group is killed and the result carries exit code 124, as coreutils ``timeout`` does.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

TIMEOUT_EXIT_CODE = 124
"""Exit code of a command killed by its timeout (the convention of coreutils ``timeout``)."""

_KILL_GRACE_S = 2.0


@dataclass(frozen=True, slots=True)
class ShellResult:
    """A finished shell command. ``timed_out`` is true when the timeout killed it (code 124)."""

    stdout: str
    stderr: str
    exit_code: int
    duration_ms: float
    timed_out: bool = False

    @property
    def ok(self) -> bool:
        """True when the command exited with status 0."""
        return self.exit_code == 0


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()


def run_shell(
    command: str,
    cwd: str | os.PathLike[str] | None = None,
    timeout_s: float | None = None,
    env: Mapping[str, str] | None = None,
) -> ShellResult:
    """Run ``command`` with ``/bin/sh -c`` and capture its output (UTF-8, bad bytes replaced).

    Args:
        command: the shell command line.
        cwd: working directory; created (with parents) when missing.
        timeout_s: seconds before the command and all its children are killed (exit code 124).
        env: variables added to (or overriding) the inherited environment.
    """
    if cwd is not None:
        Path(cwd).mkdir(parents=True, exist_ok=True)
    full_env = None if env is None else {**os.environ, **env}
    start = time.monotonic()
    proc = subprocess.Popen(
        ["/bin/sh", "-c", command],
        cwd=cwd,
        env=full_env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # own process group: a timeout kills grandchildren too
    )
    timed_out = False
    try:
        out, err = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc)
        try:
            out, err = proc.communicate(timeout=_KILL_GRACE_S)
        except subprocess.TimeoutExpired:  # a child escaped the group and holds the pipes
            out, err = b"", b""
            proc.wait()
    duration_ms = (time.monotonic() - start) * 1000.0
    stderr = err.decode("utf-8", "replace")
    if timed_out:
        stderr += f"\npaw: command timed out after {timeout_s} s and was killed\n"
    return ShellResult(
        stdout=out.decode("utf-8", "replace"),
        stderr=stderr,
        exit_code=TIMEOUT_EXIT_CODE if timed_out else proc.returncode,
        duration_ms=duration_ms,
        timed_out=timed_out,
    )
