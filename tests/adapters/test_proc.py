"""The subprocess gateway and the psutil inspector."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from libtmux.test.retry import retry_until

from paw.adapters import proc
from paw.adapters.pstree import PsutilInspector
from tests.support.budget import budget


def test_proc_run_captures_output_with_env_overlay_and_input(tmp_path: Path) -> None:
    code = "import os, sys; print(os.environ['PAW_X'], os.getcwd(), sys.stdin.read())"
    done = proc.run([sys.executable, "-c", code], cwd=str(tmp_path), env={"PAW_X": "1"}, input="in")
    assert done.ok
    assert done.stdout.split() == ["1", str(tmp_path), "in"]


def test_proc_run_check_raises_with_stderr() -> None:
    code = "import sys; sys.stderr.write('boom\\n'); sys.exit(3)"
    with pytest.raises(subprocess.CalledProcessError) as info:
        proc.run([sys.executable, "-c", code])
    assert info.value.returncode == 3
    assert proc.describe_failure(info.value).endswith(": boom")
    assert proc.run([sys.executable, "-c", code], check=False).returncode == 3


def test_proc_run_missing_program_raises_oserror() -> None:
    with pytest.raises(OSError, match="paw-no-such-program"):
        proc.run(["paw-no-such-program"])


def test_procs_tree_lists_children_and_tolerates_gone_pids() -> None:
    code = "import subprocess, sys, time; subprocess.Popen(['sleep', '30']); time.sleep(30)"
    parent = subprocess.Popen([sys.executable, "-c", code])
    try:
        inspector = PsutilInspector()
        retry_until(lambda: any(p.name == "sleep" for p in inspector.tree(parent.pid)), budget(30))
        tree = inspector.tree(parent.pid)
        assert tree[0].pid == parent.pid
        assert tree[0].cmdline[:2] == (sys.executable, "-c")
        assert tree[1].cmdline == ("sleep", "30")
        assert tree[0].create_time > 0
    finally:
        for child in PsutilInspector().tree(parent.pid)[1:]:
            subprocess.run(["kill", str(child.pid)], check=False)
        parent.kill()
        parent.wait()
    assert PsutilInspector().tree(parent.pid) == []


def test_run_or_raise_translates_every_failure_to_one_line() -> None:
    import pytest

    from paw.adapters.proc import run_or_raise
    from paw.errors import GitError

    with pytest.raises(GitError, match=r"^demo step: second line$"):
        run_or_raise(["sh", "-c", "echo first >&2; echo second line >&2; exit 3"], GitError,
                     label="demo step")  # fmt: skip
    with pytest.raises(GitError, match=r"no answer within 0.2s"):
        run_or_raise(["sleep", "5"], GitError, label="slow", timeout=0.2)
    with pytest.raises(GitError, match=r"not installed \(no `paw-no-such-program` on PATH\)"):
        run_or_raise(["paw-no-such-program"], GitError, label="x")
    assert run_or_raise(["sh", "-c", "exit 4"], GitError, label="x", check=False).returncode == 4


def test_proc_start_returns_at_once_and_wait_gives_the_output(tmp_path: Path) -> None:
    """The output goes to a file: a large one never blocks the program (no pipe to drain)."""
    code = "import os, sys; sys.stdout.write(os.environ['PAW_X'] * 300_000); sys.exit(2)"
    started = proc.start([sys.executable, "-c", code], env={"PAW_X": "ab"})
    done = started.wait(timeout=30)
    assert (done.returncode, len(done.stdout), done.stdout[:4]) == (2, 600_000, "abab")
    with pytest.raises(RuntimeError):
        started.wait(timeout=1)


def test_proc_start_kills_a_program_past_its_timeout() -> None:
    started = proc.start([sys.executable, "-c", "import time; time.sleep(30)"])
    began = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired):
        started.wait(timeout=0.2)
    assert time.monotonic() - began < budget(10)  # killed and reaped, not waited out


def test_proc_start_missing_program_raises_oserror() -> None:
    with pytest.raises(OSError, match="paw-no-such-program"):
        proc.start(["paw-no-such-program"])
