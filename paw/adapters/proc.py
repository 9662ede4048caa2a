"""The single subprocess gateway: every external program paw runs starts here — :func:`run`
(wait for it, output captured), :func:`start` (output to a file, waited for later),
:func:`spawn` (a long-lived helper over pipes), :func:`run_foreground` (a program that takes
the terminal). The few exceptions are named in docs/architecture.md ("One gateway")."""

from __future__ import annotations

import contextlib
import os
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING

from paw.adapters import autogroup, parent_death

if TYPE_CHECKING:
    from paw.errors import PawError


@dataclass(frozen=True, slots=True)
class Completed:
    """A finished process: its argv, exit status and decoded output."""

    argv: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        """True when the process exited with status 0."""
        return self.returncode == 0


def run(
    argv: Sequence[str],
    *,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
    input: str | None = None,  # noqa: A002 - mirrors subprocess.run's keyword
    timeout: float | None = None,
    check: bool = True,
) -> Completed:
    """Run ``argv`` (no shell) and return its output decoded as UTF-8 (invalid bytes replaced).

    Args:
        argv: program and arguments.
        cwd: working directory.
        env: variables added to (or overriding) the inherited environment.
        input: text written to the process's stdin (stdin is /dev/null otherwise).
        timeout: seconds before the process is killed.
        check: raise when the exit status is not 0.

    Raises:
        subprocess.CalledProcessError: ``check`` and a non-zero exit (output attached).
        subprocess.TimeoutExpired: the timeout passed.
        OSError: the program could not be started (missing binary, bad cwd).
    """
    full_env = None if env is None else {**os.environ, **env}
    done = subprocess.run(
        list(argv),
        cwd=cwd,
        env=full_env,
        input=input.encode() if input is not None else None,
        stdin=subprocess.DEVNULL if input is None else None,
        capture_output=True,
        timeout=timeout,
        check=False,
    )
    result = Completed(
        argv=tuple(argv),
        returncode=done.returncode,
        stdout=done.stdout.decode("utf-8", "replace"),
        stderr=done.stderr.decode("utf-8", "replace"),
    )
    if check and done.returncode != 0:
        raise subprocess.CalledProcessError(
            done.returncode, list(argv), output=result.stdout, stderr=result.stderr
        )
    return result


class Started:
    """A process :func:`start` started, its output going to an unnamed temporary file."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str] | None) -> None:
        self.argv = tuple(argv)
        self._out = tempfile.TemporaryFile()  # noqa: SIM115 - closed by wait()
        try:
            self._process: subprocess.Popen[bytes] | None = subprocess.Popen(
                list(argv),
                env=None if env is None else {**os.environ, **env},
                stdin=subprocess.DEVNULL,
                stdout=self._out,
                stderr=subprocess.DEVNULL,
            )
        except BaseException:
            self._out.close()
            raise

    def wait(self, timeout: float) -> Completed:
        """Wait for the process (killed past ``timeout`` seconds: TimeoutExpired) and return
        its exit status and output (stderr is not kept). Once only."""
        process, self._process = self._process, None
        if process is None:
            msg = "wait() of a process already waited for"
            raise RuntimeError(msg)
        try:
            try:
                code = process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                raise
            self._out.seek(0)
            out = self._out.read().decode("utf-8", "replace")
        finally:
            self._out.close()
        return Completed(argv=self.argv, returncode=code, stdout=out, stderr="")


def start(argv: Sequence[str], *, env: Mapping[str, str] | None = None) -> Started:
    """Start ``argv`` (no shell) and return at once; :meth:`Started.wait` gives its output.

    The output goes to a temporary file, not a pipe: nothing needs to read it while the
    program runs (no thread, no wake-up of paw per write), and a large output never blocks
    the program. stdin is /dev/null, stderr is dropped; ``env`` as for :func:`run`.

    Raises:
        OSError: the program could not be started.
    """
    return Started(argv, env)


def spawn(
    argv: Sequence[str],
    *,
    cwd: str | None = None,
    stderr: int | IO[bytes] = subprocess.DEVNULL,
    new_session: bool = False,
    die_with_paw: bool = False,
) -> subprocess.Popen[bytes]:
    """Start a long-lived helper (e.g. a tmux control client) with binary stdin/stdout pipes.

    stderr goes to /dev/null unless given (:data:`PIPE`, or a file the child writes to);
    ``new_session``: the helper gets a session of its own (a terminal's signals stay paw's);
    (given paw's nice where paw is niced: :mod:`paw.adapters.autogroup`);
    ``die_with_paw``: on Linux the kernel kills the helper when paw dies, even by SIGKILL
    (see :mod:`paw.adapters.parent_death`; elsewhere the caller's cleanup is all).
    The caller owns the process and must close and reap it.

    Raises:
        OSError: the program could not be started.
    """

    def start() -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            command,
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            start_new_session=new_session,
            close_fds=True,
        )

    if not (die_with_paw and parent_death.available()):
        command = list(argv)
        process = start()
    else:
        command = parent_death.bound(argv, cwd=cwd)  # no Python between fork and exec
        process = parent_death.call(start)
    if new_session:  # a niced paw's nice for it (setpriv execs the helper: the same pid)
        autogroup.share_nice(process.pid)
    return process


PIPE = subprocess.PIPE


def start_beside(
    argv: Sequence[str], *, cwd: str | None = None, quiet: bool = False
) -> subprocess.Popen[bytes]:
    """Start a paw command beside this one (``paw wave land`` beside ``paw wave run``): no
    input, its lines on this terminal (``quiet``: its stdout dropped, its stderr kept), and on
    Linux bound to die with this process, even by SIGKILL (:mod:`paw.adapters.parent_death`).
    The caller reaps it.

    Raises:
        OSError: the program could not be started.
    """
    out = subprocess.DEVNULL if quiet else None

    def begin() -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            command, cwd=cwd, stdin=subprocess.DEVNULL, stdout=out, close_fds=True
        )

    if not parent_death.available():
        command = list(argv)
        return begin()
    command = parent_death.bound(argv, cwd=cwd)
    process: subprocess.Popen[bytes] = parent_death.call(begin)
    return process


def run_foreground(argv: Sequence[str]) -> int:
    """Run ``argv`` on paw's own terminal (``tmux attach``) until it exits; its exit status.

    Nothing is captured: the program owns the terminal until it returns.

    Raises:
        OSError: the program could not be started.
    """
    return subprocess.run(list(argv), check=False).returncode


def finish(process: subprocess.Popen[bytes], *, grace_s: float = 2.0) -> None:
    """End a process :func:`spawn` started: close its stdin (end of input: a tmux control
    client detaches, a shell exits), wait ``grace_s``, else kill it; reap it, close its pipes."""
    if process.stdin is not None:
        with contextlib.suppress(OSError):  # one that already exited cannot flush its buffer
            process.stdin.close()
    try:
        process.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    for stream in (process.stdout, process.stderr):
        if stream is not None:
            stream.close()


def last_line(text: str | None) -> str:
    """The last non-blank line of a program's ``stderr`` ("failed" when there is none)."""
    lines = (text or "").strip().splitlines()
    return lines[-1] if lines else "failed"


def not_installed(program: str) -> str:
    """The one message paw gives for a missing program."""
    return f"{program} is not installed (no `{program}` on PATH)"


def run_or_raise(
    argv: Sequence[str],
    error: type[PawError],
    *,
    label: str,
    env: Mapping[str, str] | None = None,
    input: str | None = None,  # noqa: A002 - mirrors subprocess.run's keyword
    timeout: float | None = None,
    check: bool = True,
) -> Completed:
    """:func:`run`, with every failure turned into ``error`` and a one-line message.

    ``label`` names what ran (``git worktree add``, ``tmux send-keys``); the program name for
    "not installed" is ``argv[0]``.
    """
    program = argv[0]
    try:
        return run(argv, env=env, input=input, timeout=timeout, check=check)
    except subprocess.CalledProcessError as err:
        raise error(f"{label}: {last_line(err.stderr)}") from err
    except subprocess.TimeoutExpired as err:
        raise error(f"{label}: no answer within {timeout or 0:g}s") from err
    except FileNotFoundError as err:
        raise error(not_installed(program)) from err
    except OSError as err:
        raise error(f"{label}: {err}") from err


def describe_failure(err: BaseException) -> str:
    """A one-line description of a failed :func:`run` (for paw.errors messages)."""
    if isinstance(err, subprocess.CalledProcessError):
        detail = (err.stderr or err.output or "").strip().splitlines()
        tail = detail[-1] if detail else f"exit status {err.returncode}"
        return f"{_name(err.cmd)}: {tail}"
    if isinstance(err, subprocess.TimeoutExpired):
        return f"{_name(err.cmd)}: timed out after {err.timeout:g}s"
    return str(err).splitlines()[0] if str(err) else type(err).__name__


def _name(cmd: object) -> str:
    if isinstance(cmd, list | tuple) and cmd:
        return " ".join(str(part) for part in cmd[:2])
    return str(cmd)
