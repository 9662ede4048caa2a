"""Adversarial scenarios: the paw CLI as separate processes (so it can be killed with SIGKILL),
a real tmux server on a private socket, real git repositories under tmp_path, paw's scripted
agent. Each test asserts what is on disk (files, commits, refs) and in the audit log."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.adversarial.ident_support import Env, make_env

if TYPE_CHECKING:
    from libtmux.server import Server

PAW_TIMEOUT = 120.0
KILLED = -9  # subprocess return code of a process killed by SIGKILL


@dataclass(frozen=True)
class Rig:
    """A repository under paw, its private tmux socket, and helpers."""

    repo: Path
    socket: str
    tmp: Path

    def paw(
        self, *args: str, crash: str | None = None, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        """Run ``paw ARGS`` as its own process in the repository (``crash``: the step where the
        test-only switch kills it)."""
        full = {**os.environ, "PAW_TMUX_SOCKET": self.socket, **(env or {})}
        full.pop("PAW_TEST_CRASH_AT", None)
        if crash is not None:
            full["PAW_TEST_CRASH_AT"] = crash
        return subprocess.run(
            [sys.executable, "-m", "paw", *args], cwd=self.repo, env=full, capture_output=True,
            text=True, timeout=PAW_TIMEOUT, check=False, stdin=subprocess.DEVNULL,
        )  # fmt: skip

    def ok(self, *args: str) -> str:
        """Run paw; fail the test unless it exits 0; return stdout."""
        done = self.paw(*args)
        assert done.returncode == 0, f"paw {' '.join(args)}: {done.stderr}"
        return done.stdout

    def git(self, *args: str, cwd: Path | None = None) -> str:
        """Run git (in the repository unless ``cwd``); return stdout."""
        return subprocess.run(
            ["git", *args], cwd=cwd or self.repo, capture_output=True, text=True, check=True
        ).stdout

    def worktree(self, name: str) -> Path:
        """Where paw puts agent ``name``'s worktree (the default root)."""
        return self.repo.parent / f"{self.repo.name}-paw" / name

    def branches(self) -> set[str]:
        """Local branch names."""
        return set(self.git("for-each-ref", "--format=%(refname:short)", "refs/heads").split())

    def archives(self) -> list[str]:
        """Archive refs, oldest first."""
        out = self.git("for-each-ref", "--sort=committerdate", "--format=%(refname)")
        return [r for r in out.split() if r.startswith("refs/paw/archive/")]

    def worktrees(self) -> list[str]:
        """Paths of the registered worktrees (the main one first)."""
        out = self.git("worktree", "list", "--porcelain")
        return [line.split(" ", 1)[1] for line in out.splitlines() if line.startswith("worktree ")]

    def audit(self) -> list[dict[str, object]]:
        """paw's audit records."""
        path = self.repo / ".paw" / "audit.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]

    def records(self) -> dict[str, dict[str, object]]:
        """The agent records in .paw/agents.json, by name."""
        path = self.repo / ".paw" / "agents.json"
        if not path.exists():
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
        return {a["name"]: a for a in data.get("agents", [])}

    def files_in(self, ref: str) -> set[str]:
        """Every file path in the tree of ``ref``."""
        return set(self.git("ls-tree", "-r", "--name-only", ref).split("\n")) - {""}

    def reaches(self, ref: str, commit: str) -> bool:
        """True when ``commit`` is reachable from ``ref``."""
        done = subprocess.run(
            ["git", "merge-base", "--is-ancestor", commit, ref], cwd=self.repo, check=False
        )
        return done.returncode == 0


def one_line_error(stderr: str) -> str:
    """Assert paw failed with one ``paw:`` line (and at most a hint), never a traceback."""
    assert "Traceback" not in stderr, stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert lines, stderr
    assert lines[0].startswith("paw: "), stderr
    assert len(lines) <= 2, stderr
    assert all(line.startswith(("paw: ", "hint: ")) for line in lines), stderr
    return lines[0]


@pytest.fixture
def rig(git_repo: Path, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Rig:
    """A repository whose paw talks to the plugin's private tmux server."""
    assert server.socket_name is not None
    monkeypatch.setenv("PAW_TMUX_SOCKET", server.socket_name)
    return Rig(git_repo, server.socket_name, tmp_path)


@pytest.fixture
def env(git_repo: Path, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Env:
    """The repository under paw on the test's private tmux server (identity, occurrence,
    task, waiting and stop tests)."""
    return make_env(git_repo, server, tmp_path, monkeypatch)
