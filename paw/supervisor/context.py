"""The supervisor's dependencies in one place, and the small lookups every operation shares."""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from paw.core.agents import AgentProfile, profile_for, unknown_kind_hint
from paw.core.names import default_session_name, repo_hash
from paw.core.ports import RefInfo, Vcs
from paw.errors import PawError

if TYPE_CHECKING:
    from paw.core.approval import ShellEvaluator
    from paw.core.config import PawConfig
    from paw.core.models import Detection
    from paw.core.ports import AuditLog, ProcessInspector, StatusCounts, Terminal
    from paw.supervisor.records import StateStore

Detector = Callable[[str, str], "Detection"]
GitDetails = Callable[[str, str], "str | None"]  # (shell command, worktree) -> details text

TAG_AGENT = "paw_agent"
TAG_KIND = "paw_kind"
TAG_REPO = "paw_repo"
# A random token per spawn: the pane is this agent's, not a namesake's.
TAG_TOKEN = "paw_id"  # noqa: S105 - a tag name, not a secret


class BranchVcs(Vcs, Protocol):
    """:class:`~paw.core.ports.Vcs` plus what spawn, rm and the archive need."""

    def current_branch(self, repo: str) -> str:
        """The branch checked out in ``repo`` (the commit id when HEAD is detached)."""
        ...

    def snapshot(
        self,
        worktree: str,
        ref: str,
        message: str,
        *,
        ignored: Sequence[str] = (),
        parents: Sequence[str] = (),
    ) -> str:
        """Commit tracked, untracked and the ``ignored`` paths to ``ref`` (parents: HEAD, then
        ``parents``) without touching the index, HEAD or files; return the commit id."""
        ...

    def head_commit(self, worktree: str) -> str | None:
        """The worktree's HEAD commit; None when the worktree is gone or unborn."""
        ...

    def resolve_commit(self, repo: str, rev: str) -> str | None:
        """The commit ``rev`` names; None when it names none."""
        ...

    def valid_branch_name(self, repo: str, branch: str) -> bool:
        """True when git accepts ``branch`` as a new branch name."""
        ...

    def unkept_commits(self, repo: str, tips: Sequence[str], branch: str, base: str) -> int:
        """Commits of ``tips`` reachable from neither ``base`` nor any ref but ``branch``."""
        ...

    def ignored_paths(self, worktree: str, disposable: Sequence[str]) -> list[str]:
        """Paths ``.gitignore`` hides in ``worktree`` that are not ``disposable`` (globs on
        path components); a directory listed (ending in /) holds at least one kept file."""
        ...

    def worktree_paths(self, repo: str) -> list[str]:
        """Every worktree git knows."""
        ...

    def worktree_path_problem(self, repo: str, path: str) -> str | None:
        """Why a new worktree cannot be created at ``path``; None when it can."""
        ...

    def list_refs(self, repo: str, prefix: str) -> list[RefInfo]:
        """Refs under ``prefix``, oldest first."""
        ...

    def commit_message(self, repo: str, rev: str) -> str:
        """The full message of ``rev``."""
        ...

    def commit_parents(self, repo: str, rev: str) -> list[str]:
        """The parents of ``rev``."""
        ...

    def set_ref(self, repo: str, ref: str, sha: str) -> None:
        """Point ``ref`` at ``sha``."""
        ...

    def delete_ref(self, repo: str, ref: str, old: str) -> None:
        """Delete ``ref`` if it still points at ``old``."""
        ...

    def add_worktree_at(self, repo: str, path: str, branch: str | None, commit: str) -> None:
        """A worktree at ``path`` on ``branch`` (else detached at ``commit``)."""
        ...

    def restore_files(self, worktree: str, source: str) -> None:
        """Make the worktree's files those of ``source`` (index and HEAD untouched)."""
        ...


@dataclass(frozen=True, slots=True)
class StatMark:
    """A worktree count's circumstances: when it was tried, the worktree's status mark and its
    pane's screen (a hash) taken just before, and whether it succeeded."""

    time: float
    mark: tuple[object, ...] | None
    screen: int | None
    ok: bool


@dataclass(frozen=True, slots=True)
class Actor:
    """Who is deciding: recorded with every audit record."""

    user: str = "unknown"
    tty: str | None = None


@dataclass(slots=True)
class Context:
    """Ports, settings and the caches of one Supervisor (no state lives only here)."""

    config: PawConfig
    repo_root: str
    terminal: Terminal
    vcs: BranchVcs
    procs: ProcessInspector
    audit: AuditLog
    state: StateStore
    clock: Callable[[], float]
    detector: Detector
    shell: ShellEvaluator
    python: str = "python3"
    actor: Actor = field(default_factory=Actor)
    sleep: Callable[[float], None] = lambda _s: None
    git_details: GitDetails | None = None
    which: Callable[[str], str | None] | None = None  # finds a program on PATH (None: no check)
    # (argv, interpreters) -> the version the agent's program prints (None: no check, e.g. on
    # a host: the program runs there)
    agent_version: Callable[[Sequence[str], Sequence[str]], str | None] | None = None
    fault: Callable[[str], None] = lambda _step: None  # test-only crash points (see faults)
    # (screen, detector id) -> what the agent's input line holds ("" empty, None unreadable);
    # None: paw's own readers (``paw.core.detect.read_input``)
    input_reader: Callable[[str, str], str | None] | None = None
    host: str | None = None  # the host the agents run on (None: this machine)
    own_procs: ProcessInspector | None = None  # this machine's processes (None: ``procs``)
    stat_cache: dict[str, tuple[float, StatusCounts]] = field(default_factory=dict)
    stat_marks: dict[str, StatMark] = field(default_factory=dict)  # per agent: its last count
    # per agent: (when its worktree's status mark was last read, that mark, the screen's sign)
    mark_reads: dict[str, tuple[float, tuple[object, ...] | None, int | None]] = field(
        default_factory=dict
    )
    status_since: dict[str, tuple[str, float]] = field(default_factory=dict)
    # Long-running sweepers (the TUI) reuse an agent's observation for up to this many seconds
    # while its record, pane (id, pid, liveness, server) and screen are unchanged: only the
    # agents whose screen changed are resolved and detected again. 0: every sweep does all.
    # Approval never uses it (it re-proves everything itself).
    observe_ttl: float = 0.0
    # Count worktrees (git status per agent) in sweeps. Off for callers that show no counts
    # (`paw prompts`): their sweep then starts no git process at all.
    count_worktrees: bool = True
    # A one-shot command's context (`paw ls`): its first sweep reads no status mark, the
    # circumstances later sweeps compare against; a later sweep then recounts what is due.
    one_shot: bool = False
    # Long-running sweepers (the TUI, a wave runner) count worktrees on worker threads: a
    # sweep never waits for git (a count took 20-80 ms of a new prompt's way to the screen);
    # a count shows from the sweep after it ends, which ``on_counted`` (when set) asks for.
    count_in_background: bool = False
    # Run first on each of those count workers (paw lowers their priority: nobody waits for
    # them, and a sweep beside them should not wait for the cores their git processes hold).
    count_setup: Callable[[], None] | None = None
    on_counted: Callable[[], None] | None = None
    counting: set[str] = field(default_factory=set)  # agents whose count runs right now
    counter: ThreadPoolExecutor | None = None  # the workers of background counts
    # Sweeps return the live prompts, each with the guard's verdict. Off for a command that
    # shows none (`paw ls`): only prompts never seen before are judged (for the audit), and
    # the snapshot lists no prompt.
    show_prompts: bool = True
    observed: dict[str, tuple[float, object, object]] = field(default_factory=dict)
    resume_failed: set[str] = field(default_factory=set)  # agents whose resumption failed once
    # per agent: the last view built and what it was built from (the same observation object,
    # operation, time in status and worktree counts give the same view: see sweep._view)
    views: dict[str, tuple[object, ...]] = field(default_factory=dict)
    # per occurrence id: the last live prompt offered (an equal one offered again is that
    # very object, which the sweeper sends by number: see paw.adapters.sweep_child)
    offered: dict[str, object] = field(default_factory=dict)

    @property
    def local_procs(self) -> ProcessInspector:
        """Process trees of this machine, where paw itself runs (``procs`` may read a host)."""
        return self.own_procs or self.procs

    @property
    def session(self) -> str:
        """paw's tmux session for this repository."""
        return self.config.tmux.session or default_session_name(self.repo_root)

    @property
    def repo_id(self) -> str:
        """The tag value that marks this repository's panes."""
        return repo_hash(self.repo_root)

    def profile(self, kind: str) -> AgentProfile:
        """The effective profile of ``kind``; PawError for an unknown kind."""
        found = profile_for(self.config, kind)
        if found is None:
            hint = unknown_kind_hint(self.config, kind)
            raise PawError(f"unknown agent kind {kind!r}", hint=hint)
        return found

    def worktree_path(self, name: str) -> str:
        """Where agent ``name``'s worktree goes."""
        repo = posixpath.basename(self.repo_root.rstrip("/"))
        root = self.config.worktrees.root.replace("{repo}", repo)
        return posixpath.normpath(posixpath.join(self.repo_root, root, name))

    def branch_for(self, name: str) -> str:
        """Agent ``name``'s branch."""
        return f"{self.config.worktrees.branch_prefix}{name}"

    def read_input(self, screen: str, detector_id: str) -> str | None:
        """What the input line of an agent with detector ``detector_id`` holds in ``screen``
        ("" when empty; None when it cannot be read: fail closed)."""
        reader = self.input_reader
        if reader is None:
            from paw.core.detect import read_input  # the agent modules: only when typing

            reader = read_input
        return reader(screen, detector_id)

    def record(self, event: str, **fields: object) -> None:
        """Append one audit record (fsync'd by the audit log before this returns)."""
        self.audit.append(self._audit_record(event, fields))

    def note(self, event: str, **fields: object) -> None:
        """Append one audit record of what paw saw (a prompt shown, a prompt gone), written at
        once but not fsync'd on its own: a sweep that sees a new prompt does not wait for
        the disk before showing it. The next decision's fsync makes it durable; decisions
        and everything paw does are always :meth:`record`."""
        self.audit.append(self._audit_record(event, fields), sync=False)

    def _audit_record(self, event: str, fields: dict[str, object]) -> dict[str, object]:
        base: dict[str, object] = {
            "time": self.clock(),
            "event": event,
            "user": self.actor.user,
            "tty": self.actor.tty,
        }
        if self.host is not None:
            base["host"] = self.host
        return {**base, **fields}
