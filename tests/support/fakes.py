"""In-memory ports for supervisor tests: they satisfy the paw.core.ports Protocols (mypy checks).

``FakeTerminal`` keeps a screen per pane; tests script what a key does with ``on_keys``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import TypeVar

from paw.core.disposable import is_disposable
from paw.core.ports import (
    AuditLog,
    PaneCapture,
    PaneInfo,
    ProcessInspector,
    ProcInfo,
    RefInfo,
    StatusCounts,
    Survey,
    Terminal,
)
from paw.errors import GitError, TmuxError
from paw.supervisor.context import BranchVcs
from paw.supervisor.records import StateStore

_T = TypeVar("_T")

KeyHook = Callable[["FakeTerminal", str, tuple[str, ...]], None]


@dataclass
class FakePane:
    """One pane: its info and current screen."""

    info: PaneInfo
    screen: str
    argv: tuple[str, ...] = ()


@dataclass
class FakeTerminal:
    """tmux in memory. ``sent`` records every send_keys/send_text call."""

    panes: dict[str, FakePane] = field(default_factory=dict)
    sessions: set[str] = field(default_factory=set)
    sent: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    typed: list[tuple[str, str]] = field(default_factory=list)
    on_keys: KeyHook | None = None
    next_id: int = 1
    next_pid: int = 1000
    sweeps: int = 0  # calls that reached "tmux": sweep and survey each count one
    server_gone: bool = False  # survey raises as TmuxTerminal does without a server
    survey_fresh: list[bool] = field(default_factory=list)  # ``fresh`` of every survey call
    closed: int = 0  # close() calls
    start_screen: str = ""  # what a pane made by new_pane shows at first

    def add_pane(self, screen: str, tags: Mapping[str, str] | None = None) -> PaneInfo:
        """Create a pane directly (as if started outside paw)."""
        info = PaneInfo(f"%{self.next_id}", self.next_pid, "other", 120, 40, tags=dict(tags or {}))
        self.next_id += 1
        self.next_pid += 1
        self.panes[info.pane_id] = FakePane(info, screen)
        return info

    def set_screen(self, pane_id: str, screen: str) -> None:
        """Replace what the pane shows."""
        self.panes[pane_id].screen = screen

    def ensure_session(self, name: str, cwd: str) -> None:
        """Remember the session."""
        del cwd
        self.sessions.add(name)

    def new_pane(
        self,
        session: str,
        cwd: str,
        argv: Sequence[str],
        env: Mapping[str, str],
        tags: Mapping[str, str],
        size: tuple[int, int] | None = None,
    ) -> PaneInfo:
        """Create a tagged pane showing :attr:`start_screen`."""
        del cwd, env, size
        if session not in self.sessions:
            raise TmuxError(f"no session {session}")
        info = self.add_pane(self.start_screen, tags)
        self.panes[info.pane_id].argv = tuple(argv)
        return info

    def list_panes(self, session: str | None = None) -> list[PaneInfo]:
        """Every pane (sessions are not modelled)."""
        del session
        return [p.info for p in self.panes.values()]

    def sweep(self, pane_ids: Sequence[str], *, ansi: bool = False) -> list[PaneCapture]:
        """Current screens; gone panes have ``text=None``."""
        del ansi
        self.sweeps += 1
        out = []
        for pid in pane_ids:
            pane = self.panes.get(pid)
            out.append(PaneCapture(pid, pane.screen if pane else None))
        return out

    def survey(self, pane_ids: Sequence[str], *, ansi: bool = False, fresh: bool = True) -> Survey:
        """Every pane and the requested screens in one call; raises when the server is gone.
        Screens are always current; ``fresh`` is recorded in :attr:`survey_fresh`."""
        self.survey_fresh.append(fresh)
        if self.server_gone:
            raise TmuxError("tmux: server is gone (no server running on /tmp/tmux-0/fake)")
        captures = self.sweep(pane_ids, ansi=ansi)
        return Survey(tuple(self.list_panes(None)), tuple(captures))

    def send_keys(self, pane_id: str, keys: Sequence[str]) -> None:
        """Record the keys and run the test's hook."""
        if pane_id not in self.panes:
            raise TmuxError(f"no pane {pane_id}")
        self.sent.append((pane_id, tuple(keys)))
        if self.on_keys is not None:
            self.on_keys(self, pane_id, tuple(keys))

    def send_text(self, pane_id: str, text: str) -> None:
        """Record typed text; echo it at the demo agent's idle input (``demo>`` last), as its
        terminal would."""
        self.typed.append((pane_id, text))
        pane = self.panes.get(pane_id)
        if pane is None:
            return
        lines = pane.screen.rstrip("\n").split("\n")
        if lines and lines[-1].startswith("demo>"):
            pane.screen = "\n".join([*lines[:-1], lines[-1] + text]) + "\n"

    def close(self) -> None:
        """Count closes (nothing long-lived to release)."""
        self.closed += 1

    def kill_pane(self, pane_id: str) -> None:
        """Remove the pane."""
        self.panes.pop(pane_id, None)

    def attach_argv(self, pane_id: str) -> list[str]:
        """A fake attach command."""
        return ["tmux", "attach", "-t", pane_id]


@dataclass
class FakeProcesses:
    """Process trees by root pid."""

    trees_by_root: dict[int, list[ProcInfo]] = field(default_factory=dict)
    scans: int = 0  # reads of the (fake) process table
    ended: list[tuple[list[ProcInfo], float]] = field(default_factory=list)  # end() calls

    def tree(self, pid: int) -> list[ProcInfo]:
        """The tree rooted at ``pid`` (empty when unknown)."""
        self.scans += 1
        return list(self.trees_by_root.get(pid, []))

    def trees(self, pids: Sequence[int]) -> dict[int, list[ProcInfo]]:
        """Every requested tree, as one read."""
        self.scans += 1
        return {pid: list(self.trees_by_root.get(pid, [])) for pid in pids}

    def exit_status(self, pid: int) -> int | None:
        """A fake pane's program leaves no zombie: its status is unknown."""
        return None

    def end(self, procs: Sequence[ProcInfo], grace_s: float) -> list[ProcInfo]:
        """Nothing outlives a fake pane: records the call, signals nothing."""
        self.ended.append((list(procs), grace_s))
        return []


@dataclass
class FakeVcs:
    """git in memory: worktrees as a set, counts per worktree."""

    branch: str = "main"
    worktrees: dict[str, str] = field(default_factory=dict)  # path -> branch
    branches: set[str] = field(default_factory=set)
    counts: dict[str, StatusCounts] = field(default_factory=dict)
    snapshots: dict[str, str] = field(default_factory=dict)  # ref -> worktree
    ignored: dict[str, tuple[str, ...]] = field(default_factory=dict)  # worktree -> paths

    def current_branch(self, repo: str) -> str:
        """The configured branch."""
        del repo
        return self.branch

    def repo_root(self, cwd: str) -> str:
        """``cwd`` itself."""
        return cwd

    def add_worktree(self, repo: str, path: str, branch: str, base: str) -> None:
        """Record a worktree; refuse an existing branch."""
        del repo, base
        if branch in self.branches:
            raise GitError(f"branch {branch} exists")
        self.branches.add(branch)
        self.worktrees[path] = branch

    def branch_exists(self, repo: str, branch: str) -> bool:
        """Whether the branch was created."""
        del repo
        return branch in self.branches

    def remove_worktree(self, repo: str, path: str, *, force: bool = False) -> None:
        """Forget the worktree."""
        del repo, force
        self.worktrees.pop(path, None)

    def delete_branch(self, repo: str, branch: str, *, force: bool = False) -> None:
        """Forget the branch."""
        del repo, force
        self.branches.discard(branch)

    def status_counts(self, worktree: str, base: str) -> StatusCounts:
        """Configured counts (clean by default)."""
        del base
        return self.counts.get(worktree, StatusCounts(0, 0, 0, 0, 0))

    def status_mark(self, worktree: str, base: str) -> tuple[object, ...]:
        """The configured counts stand for what git would stamp: new counts, a new mark."""
        return (worktree, base, self.counts.get(worktree))

    def snapshot(
        self,
        worktree: str,
        ref: str,
        message: str,
        *,
        ignored: Sequence[str] = (),
        parents: Sequence[str] = (),
    ) -> str:
        """Remember the snapshot ref."""
        del message, ignored, parents
        self.snapshots[ref] = worktree
        return "0" * 40

    def head_commit(self, worktree: str) -> str | None:
        """A fixed commit for a known worktree."""
        return "1" * 40 if worktree in self.worktrees else None

    def resolve_commit(self, repo: str, rev: str) -> str | None:
        """A fixed commit for anything but a rev starting with '-' or a missing branch."""
        del repo
        if rev.startswith("-"):
            return None
        if rev.startswith("refs/heads/"):
            return "1" * 40 if rev.removeprefix("refs/heads/") in self.branches else None
        return "2" * 40

    def valid_branch_name(self, repo: str, branch: str) -> bool:
        """No spaces, no leading '-'."""
        del repo
        return not branch.startswith("-") and " " not in branch

    def unkept_commits(self, repo: str, tips: Sequence[str], branch: str, base: str) -> int:
        """The configured ``ahead`` count of the branch's worktree."""
        del repo, tips, base
        for path, name in self.worktrees.items():
            if name == branch:
                return self.counts.get(path, StatusCounts(0, 0, 0, 0, 0)).ahead
        return 0

    def ignored_paths(self, worktree: str, disposable: Sequence[str]) -> list[str]:
        """Configured ignored paths, the disposable ones left out."""
        found = self.ignored.get(worktree, ())
        return [p for p in found if not is_disposable(p, disposable)]

    def worktree_paths(self, repo: str) -> list[str]:
        """Known worktrees."""
        return [repo, *self.worktrees]

    def worktree_path_problem(self, repo: str, path: str) -> str | None:
        """Refuse an existing worktree."""
        del repo
        return f"{path} already exists" if path in self.worktrees else None

    def list_refs(self, repo: str, prefix: str) -> list[RefInfo]:
        """Snapshot refs."""
        del repo
        return [RefInfo(r, "0" * 40, 0.0, "paw") for r in self.snapshots if r.startswith(prefix)]

    def commit_message(self, repo: str, rev: str) -> str:
        """Empty."""
        del repo, rev
        return ""

    def commit_parents(self, repo: str, rev: str) -> list[str]:
        """None."""
        del repo, rev
        return []

    def set_ref(self, repo: str, ref: str, sha: str) -> None:
        """Remember it as a snapshot of the repo."""
        del sha
        self.snapshots[ref] = repo

    def delete_ref(self, repo: str, ref: str, old: str) -> None:
        """Forget it."""
        del repo, old
        self.snapshots.pop(ref, None)

    def add_worktree_at(self, repo: str, path: str, branch: str | None, commit: str) -> None:
        """Record a worktree."""
        del repo, commit
        self.worktrees[path] = branch or ""

    def restore_files(self, worktree: str, source: str) -> None:
        """Nothing to restore in memory."""
        del worktree, source

    def diff(self, worktree: str, base: str) -> str:
        """No diff."""
        del worktree, base
        return ""


@dataclass
class MemoryAudit:
    """Audit records in a list."""

    records: list[dict[str, object]] = field(default_factory=list)
    unsynced: list[str] = field(default_factory=list)  # events appended without fsync

    def append(self, record: Mapping[str, object], *, sync: bool = True) -> None:
        """Keep a copy."""
        self.records.append(dict(record))
        if not sync:
            self.unsynced.append(str(record.get("event")))

    def read(self) -> list[dict[str, object]]:
        """All records."""
        return list(self.records)


@dataclass
class MemoryState:
    """.paw documents in a dict."""

    docs: dict[str, dict[str, object]] = field(default_factory=dict)
    locks: list[str] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)

    def read(self, name: str) -> dict[str, object] | None:
        """The document, if any."""
        return self.docs.get(name)

    def read_parsed(
        self, name: str, kind: str, parse: Callable[[dict[str, object] | None], _T]
    ) -> _T:
        """Parsed every time (nothing remembered)."""
        del kind
        return parse(self.docs.get(name))

    def write(
        self,
        name: str,
        data: Mapping[str, object],
        *,
        durable: bool = True,
        parsed: tuple[str, object] | None = None,
    ) -> None:
        """Replace the document."""
        del durable, parsed
        self.docs[name] = dict(data)

    def save_text(
        self, folder: str, name: str, text: str, *, group: str = "", keep: int = 0
    ) -> str:
        """Kept in ``files`` under a path of its own (a taken name gets ``-2``, ...); of a
        ``group``, the newest ``keep`` stay (in the order written)."""
        stem, dot, suffix = name.rpartition(".")
        if not stem:
            stem, dot, suffix = name, "", ""
        path, number = f"/state/{folder}/{name}", 1
        while path in self.files:
            number += 1
            path = f"/state/{folder}/{stem}-{number}{dot}{suffix}"
        self.files[path] = text
        if group and keep > 0:
            start = f"/state/{folder}/{group}"
            others = [p for p in self.files if p.startswith(start) and p != path]
            for old in others[: max(0, len(others) - (keep - 1))]:
                del self.files[old]
        return path

    def lock(self, name: str) -> AbstractContextManager[None]:
        """Count lock uses (one process: nothing to wait for)."""
        self.locks.append(name)
        return nullcontext()

    def try_lock(self, name: str) -> AbstractContextManager[bool]:
        """Always free."""
        self.locks.append(name)
        return nullcontext(True)

    def check_writable(self) -> None:
        """Memory is always writable."""


def _check_protocols() -> None:
    """Static proof (mypy) that the fakes satisfy the ports."""
    terminal: Terminal = FakeTerminal()
    procs: ProcessInspector = FakeProcesses()
    vcs: BranchVcs = FakeVcs()
    audit: AuditLog = MemoryAudit()
    state: StateStore = MemoryState()
    del terminal, procs, vcs, audit, state
