"""Protocols the supervisor works over. Implementations live in paw.adapters (and test fakes).

Typing-only module (tmuxp builder/protocol.py style): no behaviour here.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from paw.core.channels.request import ChannelAnswer, ChannelRequest, ChannelState


@dataclass(frozen=True, slots=True)
class PaneInfo:
    """A tmux pane as listed by the terminal adapter."""

    pane_id: str  # "%12"
    pane_pid: int
    session: str
    width: int
    height: int
    dead: bool = False
    current_command: str = ""
    tags: Mapping[str, str] = field(default_factory=dict)  # paw's tmux user options, without "@"
    server: str = ""  # the tmux server's identity (its pid and start time): a restart changes it
    attached: int = 0  # clients attached to the pane's session (paw's own control client aside)


@dataclass(frozen=True, slots=True)
class PaneCapture:
    """One pane's visible screen from a sweep. ``text`` is None when the pane is gone."""

    pane_id: str
    text: str | None
    pane_pid: int | None = None


@dataclass(frozen=True, slots=True)
class Survey:
    """Every pane of the server and the captures of the requested panes, from one tmux call."""

    panes: tuple[PaneInfo, ...]
    captures: tuple[PaneCapture, ...]  # one per requested pane id, in order; None text: gone


@dataclass(frozen=True, slots=True)
class ProcInfo:
    """One process in a pane's process tree."""

    pid: int
    name: str
    exe: str
    cmdline: tuple[str, ...]
    create_time: float
    ppid: int = 0  # the parent's pid (0: unknown, or the root of the tree read)


@dataclass(frozen=True, slots=True)
class StatusCounts:
    """A worktree's state relative to its base."""

    uncommitted: int
    untracked: int
    unmerged: int
    ahead: int
    behind: int
    insertions: int = 0
    deletions: int = 0


@dataclass(frozen=True, slots=True)
class RefInfo:
    """One git ref: its name, commit, commit time (epoch seconds) and subject line."""

    ref: str
    sha: str
    time: float
    subject: str


class Terminal(Protocol):
    """tmux, seen from paw. Every method may raise paw.errors.TmuxError."""

    def ensure_session(self, name: str, cwd: str) -> None:
        """Create the session if it does not exist (detached)."""
        ...

    def new_pane(
        self,
        session: str,
        cwd: str,
        argv: Sequence[str],
        env: Mapping[str, str],
        tags: Mapping[str, str],
        size: tuple[int, int] | None = None,
    ) -> PaneInfo:
        """Start ``argv`` in a new window/pane of ``session`` and tag it with user options."""
        ...

    def list_panes(self, session: str | None = None) -> list[PaneInfo]:
        """Panes of ``session`` (or of the whole server), with paw's tags."""
        ...

    def sweep(self, pane_ids: Sequence[str], *, ansi: bool = False) -> list[PaneCapture]:
        """Capture the visible screen of every pane in ONE tmux invocation (or control client)."""
        ...

    def survey(self, pane_ids: Sequence[str], *, ansi: bool = False, fresh: bool = True) -> Survey:
        """List every pane of the server (with paw's tags) AND capture ``pane_ids``, in ONE
        tmux invocation. Unlike :meth:`list_panes`, a server that is gone raises TmuxError
        (a lost server is not "no panes"). Its listing leaves ``current_command`` empty
        (costly for tmux; paw resolves programs from process trees).

        With ``fresh=False`` the listing is still current, but a pane provably unchanged
        since its last capture (no output, same process, size and liveness) may reuse that
        capture. Anything that decides to send keys must use a fresh capture."""
        ...

    def send_keys(self, pane_id: str, keys: Sequence[str]) -> None:
        """Send tmux key names (e.g. "Enter", "y", "Escape") in one send-keys call."""
        ...

    def send_text(self, pane_id: str, text: str) -> None:
        """Type ``text`` literally (send-keys -l), never interpreted as key names."""
        ...

    def close(self) -> None:
        """Release long-lived connections (a control-mode client); the server is left alone."""
        ...

    def kill_pane(self, pane_id: str) -> None:
        """Kill the pane (and its processes)."""
        ...

    def attach_argv(self, pane_id: str) -> list[str]:
        """The argv that attaches the user's terminal to the pane's window."""
        ...


class ProcessInspector(Protocol):
    """Process trees (psutil): read them, and end what outlives a killed pane."""

    def end(self, procs: Sequence[ProcInfo], grace_s: float) -> list[ProcInfo]:
        """End the members of ``procs`` that outlive ``grace_s`` seconds (wall clock) — each
        proven by pid and start time, so a reused pid is never signalled: SIGTERM, up to
        ``grace_s`` more, then SIGKILL. Returns the processes that had to be signalled."""
        ...

    def tree(self, pid: int) -> list[ProcInfo]:
        """``pid`` and all its descendants; empty when ``pid`` is gone."""
        ...

    def trees(self, pids: Sequence[int]) -> dict[int, list[ProcInfo]]:
        """:meth:`tree` of every pid in ``pids`` from ONE read of the process table."""
        ...

    def exit_status(self, pid: int) -> int | None:
        """The wait status (as ``waitpid`` gives it) of ``pid`` when it has ended but is not
        reaped yet (a zombie); None when it runs, is gone, or cannot be read. A zombie's pid
        is not reused, so the status is that process's."""
        ...


class Vcs(Protocol):
    """git, seen from paw. Every method may raise paw.errors.GitError."""

    def repo_root(self, cwd: str) -> str:
        """The main worktree's top-level directory for ``cwd``."""
        ...

    def add_worktree(self, repo: str, path: str, branch: str, base: str) -> None:
        """``git worktree add -b branch path base``."""
        ...

    def remove_worktree(self, repo: str, path: str, *, force: bool = False) -> None:
        """``git worktree remove`` (and prune)."""
        ...

    def branch_exists(self, repo: str, branch: str) -> bool:
        """True when ``refs/heads/<branch>`` exists."""
        ...

    def delete_branch(self, repo: str, branch: str, *, force: bool = False) -> None:
        """``git branch -d`` (``-D`` when forced)."""
        ...

    def status_counts(self, worktree: str, base: str) -> StatusCounts:
        """Uncommitted, untracked, unmerged, ahead/behind ``base``."""
        ...

    def status_mark(self, worktree: str, base: str) -> tuple[object, ...]:
        """A cheap fingerprint of what git stamps when the worktree's counts can change (index,
        HEAD, branch and base refs, the directory's own mtime), read without running git and
        without side effects. Unchanged mark: counts unchanged unless a tracked file was edited
        without git."""
        ...

    def snapshot(self, worktree: str, ref: str, message: str) -> str:
        """Commit everything in the worktree (untracked included) to ``ref`` without touching the
        index, HEAD or files; return the commit id."""
        ...

    def diff(self, worktree: str, base: str) -> str:
        """Working tree diff against the merge base with ``base`` (untracked files included)."""
        ...


class AuditLog(Protocol):
    """Append-only audit records (``.paw/audit.jsonl``)."""

    def append(self, record: Mapping[str, object], *, sync: bool = True) -> None:
        """Write one JSON line and (``sync``) fsync before returning. Without ``sync`` the
        line is written at once (other processes read it, a crash of paw keeps it) and made
        durable by the next synced record: for observations, never for decisions."""
        ...

    def read(self) -> list[dict[str, object]]:
        """All records, oldest first."""
        ...


class ChannelPort(Protocol):
    """One agent's structured prompt channel (a hook it runs, a server beside its TUI).

    A channel is a *claim* from inside the agent's process tree, never proof on its own: the
    supervisor fuses it with the screen (:mod:`paw.core.channels.fuse`). Implementations live in
    ``paw.adapters.channels``; one instance serves the agent it was wired for at spawn.
    """

    def pending(self) -> list[ChannelRequest]:
        """The requests the agent holds open now, oldest first. Cheap: no subprocess per call
        (a directory listing, an in-memory event stream); what the channel cannot vouch for
        (a record of another agent or spawn, a replay, a writer that is gone) is left out."""
        ...

    def answer(self, request_id: str, answer: ChannelAnswer) -> None:
        """Deliver ``answer`` bound to ``request_id``, once: a second answer to the same id, by
        any process, raises ``PawError`` and delivers nothing. Raises ``PawError`` when the
        request is not pending or the channel cannot answer it."""
        ...

    def state(self, request_id: str) -> ChannelState:
        """Where ``request_id`` stands as the channel reports it (an unknown id: RESOLVED)."""
        ...


@dataclass(frozen=True, slots=True)
class Wired:
    """A launch with its channel wired: the argv, and what to add to the agent's environment
    (a per-spawn credential the channel needs; empty for most)."""

    argv: tuple[str, ...]
    env: Mapping[str, str] = field(default_factory=dict)


class ChannelHub(Protocol):
    """Wires agents' channels at spawn and opens the port of a spawned agent's channel."""

    def wire(self, agent: str, kind: str, spawn: str, argv: Sequence[str]) -> Wired:
        """The launch argv (and environment additions) with the channel wired for this spawn
        only (a settings file paw writes in its own state dir, a port and a password paw
        picked; never the user's settings or the worktree's), or ``argv`` as it is and no
        environment when ``kind`` (or that command) has no channel paw can wire."""
        ...

    def port(self, agent: str, kind: str, spawn: str, agent_pid: int | None) -> ChannelPort | None:
        """The channel of the spawn ``spawn`` of ``agent`` (its launched process
        ``agent_pid``), or None when it was not wired (the screen path alone applies)."""
        ...

    def release(self, agent: str) -> None:
        """``agent`` is gone: close its open channel and forget what its wiring recorded."""
        ...


@runtime_checkable
class ChannelWatch(Protocol):
    """A :class:`ChannelHub` that can say when its channels changed (optional): a wake-up when
    a channel's record lands or ends, and a cheap mark of each spawn's channel."""

    def listen(self, on_change: Callable[[], None] | None) -> bool:
        """Call ``on_change`` (on a thread of the hub's) soon after a channel's record landed or
        ended (None: stop). A call says "look now" and nothing more: anyone may cause one.
        False: no wake-up here (the sweeps' own schedule reads the channels)."""
        ...

    def mark(self, agent: str, kind: str, spawn: str) -> Hashable | None:
        """Something equal to the last mark while the spawn's channel surely did not change
        (a fresh object when it cannot tell, so it never compares equal); None when the channel
        has no mark (its reads are never skipped for it)."""
        ...
