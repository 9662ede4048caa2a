"""The supervisor's dependencies in one place, and the small lookups every operation shares."""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from paw.core.agents import AgentProfile, profile_for, unknown_kind_hint
from paw.core.names import default_session_name, repo_hash
from paw.core.ports import RefInfo, Vcs
from paw.errors import PawError
from paw.supervisor.memory import SweepMemory

if TYPE_CHECKING:
    from paw.core.approval import ShellEvaluator
    from paw.core.config import PawConfig
    from paw.core.models import Detection
    from paw.core.ports import AuditLog, ChannelHub, ProcessInspector, Terminal
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
class Actor:
    """Who is deciding: recorded with every audit record."""

    user: str = "unknown"
    tty: str | None = None


@dataclass(frozen=True, slots=True)
class SweepSettings:
    """How one process's sweeps work, chosen by the composition (``paw.cli.compose``) when it
    builds the Supervisor; see docs/performance.md for the measurements behind each."""

    # Reuse an agent's observation for up to this many seconds while its record, pane (id,
    # pid, liveness, server) and screen are unchanged (0: every sweep resolves every agent).
    observe_ttl: float = 0.0
    count_worktrees: bool = True  # count worktrees (git) in sweeps; off: no git process at all
    one_shot: bool = False  # a command's few sweeps: the first reads no status mark
    count_in_background: bool = False  # count on worker threads: a sweep never waits for git
    count_setup: Callable[[], None] | None = None  # run first on each count worker
    show_prompts: bool = True  # return live prompts (off: judge only prompts never seen)


@dataclass(frozen=True, slots=True)
class Context:
    """The ports and settings of one Supervisor (frozen), and the memory its sweeps own
    (:class:`~paw.supervisor.memory.SweepMemory`; no state lives only there)."""

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
    machine: str | None = None  # this machine's name, as messages name it (None: unnamed)
    # where a path on this machine really leads (symlinks followed; None: cannot tell): edit and
    # write prompts are judged by it. None: paths are judged as written (remote hosts, tests)
    resolve_path: Callable[[str], str | None] | None = None
    own_procs: ProcessInspector | None = None  # this machine's processes (None: ``procs``)
    settings: SweepSettings = field(default_factory=SweepSettings)
    memory: SweepMemory = field(default_factory=SweepMemory)
    # Agents' structured prompt channels (None: the screen path alone, as before issue 32).
    channels: ChannelHub | None = None
    # (agent name, its worktree, its environment) -> the usage log its aider is to write
    # (aider's analytics log), made ready in paw's state directory, never the worktree; None
    # when the user names aider's log themselves (left alone); OSError when it cannot be made.
    # None here: no such log (e.g. agents on a host)
    usage_log: Callable[[str, str, Mapping[str, str]], str | None] | None = None

    @property
    def where(self) -> str:
        """The machine messages name beside ``repo_root``: a host's name for its agents' repository,
        else this machine's ("" when unknown)."""
        return self.host or self.machine or ""

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
