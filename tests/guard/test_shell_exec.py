"""run_shell: /bin/sh -c, created cwd, env, exit codes, timeouts that kill the whole group."""

from __future__ import annotations

import time
from pathlib import Path

from paw.guard.shell_exec import TIMEOUT_EXIT_CODE, run_shell


def test_run_shell_captures_output_and_exit_code(tmp_path: Path) -> None:
    result = run_shell("echo out; echo err >&2; exit 3", cwd=tmp_path)
    assert (result.stdout, result.stderr, result.exit_code) == ("out\n", "err\n", 3)
    assert not result.ok
    assert result.duration_ms >= 0


def test_run_shell_creates_cwd(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b"
    result = run_shell("pwd", cwd=target)
    assert result.ok
    assert Path(result.stdout.strip()).resolve() == target.resolve()


def test_run_shell_env_overrides_and_inherits() -> None:
    result = run_shell('printf "%s:%s" "$PAW_X" "${HOME:+home}"', env={"PAW_X": "1"})
    assert result.stdout == "1:home"


def _alive(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status")
    try:
        state = next(line for line in status.read_text().splitlines() if line.startswith("State:"))
    except (FileNotFoundError, StopIteration):
        return False
    return "Z" not in state.split()[1]


def test_run_shell_timeout_returns_124_and_kills_children(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    start = time.monotonic()
    result = run_shell(f"sleep 30 & echo $! > {pidfile}; wait", timeout_s=0.5)
    assert time.monotonic() - start < 20  # killed at 0.5 s, never the child's 30 s
    assert result.exit_code == TIMEOUT_EXIT_CODE
    assert result.timed_out
    assert "timed out" in result.stderr
    child = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child)


def test_run_shell_uses_posix_sh_and_does_not_guard() -> None:
    result = run_shell("echo $0; echo 'sudo rm -rf /' > /dev/null")
    assert result.stdout.strip() == "/bin/sh"
    assert result.ok
