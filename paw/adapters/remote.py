"""tmux, git and process trees on another machine, through :mod:`paw.adapters.ssh`.

The same adapters as on this machine, with every program run on the host by one ssh call over
the host's multiplexed connection: :class:`RemoteTerminal` is :class:`TmuxTerminal` (its control
client and its pane events are ``tmux -C`` over ssh, see :mod:`paw.adapters.remote_events`),
:class:`RemoteGit` is :class:`GitCli`, and :class:`PsInspector`
reads the host's process table with one ``ps`` per sweep. What the local adapters read from
the file system (git's status mark, psutil) is read on the host or not at all.
"""

from __future__ import annotations

import calendar
import contextlib
import posixpath
import shlex
import subprocess
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace

from paw.adapters import proc
from paw.adapters.git import GitCli
from paw.adapters.proc import last_line
from paw.adapters.procs import zombie_status
from paw.adapters.remote_events import HostEvents
from paw.adapters.ssh import SshError, SshTransport, SshUnconfirmed
from paw.adapters.tmux import TmuxTerminal
from paw.adapters.tmux_events import Listener
from paw.adapters.tmux_link import ControlLink
from paw.core.disposable import is_disposable
from paw.core.ports import ProcInfo
from paw.errors import DeliveryUnknown, GitError, PawError, TmuxError

_TMUX_TIMEOUT = 20.0
_GIT_TIMEOUT = 60.0
_PS_TIMEOUT = 20.0
# tmux commands that put keys or text into a pane: run as deliveries (:meth:`SshTransport.deliver`)
_DELIVERING = frozenset({"send-keys", "send-prefix", "paste-buffer"})


class RemoteError(TmuxError):
    """A host that cannot be reached (ssh failed): never "no panes", never "exited"."""


class RemoteTerminal(TmuxTerminal):
    """A tmux server on a host (``tmux -L socket_name`` there), driven over ssh."""

    def __init__(self, transport: SshTransport, socket_name: str, *, control: bool = False) -> None:
        """Drive the host's tmux server ``socket_name``; nothing runs until a method needs it."""
        super().__init__(socket_name=socket_name, control=control)
        self.transport = transport
        # the control client is `ssh … tmux -L NAME -C attach-session …`; the words tmux adds
        # after this prefix are its own flags and paw's session name (no shell syntax)
        # -u: the host's login shell may have no UTF-8 locale, and tmux would then replace
        # paw's field separators and the agents' box drawing with "_"
        self._base = (*transport.base_argv(), "tmux", "-u", "-L", shlex.quote(socket_name))
        self._link = ControlLink(self._base)
        self._agent_dir: str | None = None

    def ensure_session(self, name: str, cwd: str) -> None:
        """Create the detached session ``name`` on the host unless it exists."""
        if self._link.session is None:
            self._link.watch(name)
        if self.has_session(name):
            return
        width, height = self.default_size or (120, 40)
        done = self._tmux(
            "new-session", "-d", "-s", name, "-c", cwd, "-x", str(width), "-y", str(height),
            check=False,
        )  # fmt: skip
        if not done.ok and not self.has_session(name):
            raise TmuxError(f"tmux: cannot create session {name!r}: {last_line(done.stderr)}")

    def watch(self, listener: Listener) -> bool:
        """Report the host's pane output and structure changes to ``listener`` through a tmux
        control-mode client over ssh (:class:`HostEvents`): the same events as on this
        machine; a dropped connection is a structure change, and so is each reconnect."""
        session = self._link.session
        if self.control and session is not None:
            with self._steady_lock:
                if self._events is None:
                    self._events = HostEvents(self.transport, self._base, session)
        return super().watch(listener)

    @property
    def events_pid(self) -> int | None:
        """The pid of the local ``ssh`` process that runs the event client (None if none)."""
        events = self._events
        return events.pid if isinstance(events, HostEvents) else None

    def has_session(self, name: str) -> bool:
        """True when the session ``name`` exists on the host."""
        done = self._tmux("has-session", "-t", f"={name}", check=False)
        return done.ok

    def server_alive(self) -> bool:
        """True when the host's tmux server answers."""
        return self._tmux("list-sessions", check=False).ok

    def kill_server(self) -> None:
        """Kill the host's tmux server (tests only)."""
        self.close()
        self._tmux("kill-server", check=False)

    def agent_tmpdir(self) -> str:
        """A private ``TMUX_TMPDIR`` for agents on the host (created there once)."""
        if self._agent_dir is None:
            script = (
                'd="${TMUX_TMPDIR:-/tmp}/paw-agents-$(id -u)"; mkdir -p -m 700 "$d" && echo "$d"'
            )
            done = self._run(["sh", "-c", script], check=True)
            self._agent_dir = done.stdout.strip()
        return self._agent_dir

    def attach_argv(self, pane_id: str) -> list[str]:
        """``ssh -t … tmux attach`` to the pane's window on the host."""
        super().attach_argv(pane_id)  # refuses anything but a pane id
        base = self.transport.base_argv()
        argv = ["tmux", "-u", "-L", self.socket_name or "", "attach-session", "-t", pane_id]
        command = shlex.join(argv)
        return [base[0], "-t", *base[1:], command]

    def _tmux(self, *args: str, check: bool = True) -> proc.Completed:
        argv = ["tmux", "-u", "-L", self.socket_name or "", *args]
        if args and args[0] in _DELIVERING:
            return self._deliver(argv, check=check)
        return self._run(argv, check=check)

    def _deliver(self, argv: Sequence[str], *, check: bool) -> proc.Completed:
        """Keys or text to a pane on the host. RemoteError ("nothing sent") only when none of
        the command can have left this machine; DeliveryUnknown once ssh took it and no
        answer came back (the link dropped, ssh failed mid-command, time ran out)."""
        label, host = f"tmux {argv[4]}", self.transport.target
        try:
            done = self.transport.deliver(argv, timeout=_TMUX_TIMEOUT)
        except SshUnconfirmed as err:
            raise DeliveryUnknown(
                f"the link to host {host.url()} dropped after {label} was handed to ssh "
                f"({err}): the keys may have reached the agent"
            ) from err
        except SshError as err:
            raise RemoteError(f"host {host.url()} is unreachable: {err}; nothing sent") from err
        if check and not done.ok:
            raise TmuxError(f"{label} on {host.host}: {last_line(done.stderr)}")
        return done

    def _run(self, argv: Sequence[str], *, check: bool) -> proc.Completed:
        label = f"{argv[0]} {argv[4] if argv[0] == 'tmux' and len(argv) > 4 else ''}".strip()
        done = call(self.transport, argv, TmuxError, label=label, timeout=_TMUX_TIMEOUT)
        if check and not done.ok:
            raise TmuxError(f"{label} on {self.transport.target.host}: {last_line(done.stderr)}")
        return done


def call(
    transport: SshTransport,
    argv: Sequence[str],
    error: type[PawError],
    *,
    label: str,
    timeout: float,
    input: str | None = None,  # noqa: A002 - mirrors subprocess.run's keyword
) -> proc.Completed:
    """Run ``argv`` on the host; ``error`` (one line) when ssh cannot start or time runs out,
    RemoteError when the host cannot be reached. Other failures are the caller's to judge."""
    try:
        done = transport.run(argv, input=input, timeout=timeout)
    except subprocess.TimeoutExpired as err:
        raise error(f"{label} on {transport.target.host}: no answer within {timeout:g}s") from err
    except FileNotFoundError as err:
        raise error(proc.not_installed("ssh")) from err
    except OSError as err:
        raise error(f"{label} on {transport.target.host}: {err}") from err
    unreachable(transport, done)
    return done


def unreachable(transport: SshTransport, done: proc.Completed) -> None:
    """RemoteError when ``done`` is ssh's own failure (exit 255: no connection, no login)."""
    if done.returncode == 255:
        raise RemoteError(f"host {transport.target.url()} is unreachable: {last_line(done.stderr)}")


class RemoteGit(GitCli):
    """git in a clone on the host."""

    def __init__(self, transport: SshTransport) -> None:
        """Run git on the host of ``transport``."""
        super().__init__()
        self.transport = transport

    def current_branch(self, repo: str) -> str:
        """The branch checked out in ``repo`` (the commit id when HEAD is detached)."""
        done = self._git(repo, "symbolic-ref", "--quiet", "--short", "HEAD", check=False)
        if done.ok and done.stdout.strip():
            return done.stdout.strip()
        return self._git(repo, "rev-parse", "--verify", "HEAD").stdout.strip()

    def remove_worktree(self, repo: str, path: str, *, force: bool = False) -> None:
        """``git worktree remove`` when git still lists ``path``, then prune."""
        if path in self.worktree_paths(repo):
            self._git(repo, "worktree", "remove", *(["--force"] if force else []), path)
        self._git(repo, "worktree", "prune")

    def status_mark(self, worktree: str, base: str) -> tuple[object, ...]:
        """Not read on a host (it would cost a round trip): counts refresh on output and age."""
        raise OSError("no status mark over ssh")

    def head_commit(self, worktree: str) -> str | None:
        """The worktree's HEAD commit; None when it is gone or unborn."""
        return self._head(worktree)

    def ignored_paths(self, worktree: str, disposable: Sequence[str]) -> list[str]:
        """Ignored paths that are not ``disposable`` (a directory is kept whole: its files are
        not walked over ssh, so it is never dropped as disposable-only)."""
        out = self._git(
            worktree, "ls-files", "-z", "--others", "--ignored", "--exclude-standard",
            "--directory",
        ).stdout  # fmt: skip
        return [p for p in out.split("\0") if p and not is_disposable(p, disposable)]

    def worktree_path_problem(self, repo: str, path: str) -> str | None:
        """Why a new worktree cannot go to ``path`` on the host; None when it can."""
        common = self._git(repo, "rev-parse", "--path-format=absolute", "--git-common-dir")
        git_dir = posixpath.normpath(common.stdout.strip())
        target = posixpath.normpath(path)
        if target == git_dir or target.startswith(git_dir + "/"):
            return f"{path} is inside the repository's git directory {git_dir}"
        script = 'if [ -e "$1" ]; then [ -d "$1" ] && [ -z "$(ls -A "$1")" ] || echo exists; fi'
        done = self._sh(script, target)
        if "exists" in done.stdout:
            return f"{path} already exists"
        return None

    @contextlib.contextmanager
    def _temp_index(self, worktree: str) -> Iterator[dict[str, str]]:
        """A private copy of the worktree's index on the host, deleted afterwards."""
        source = self._git(worktree, "rev-parse", "--path-format=absolute", "--git-path", "index")
        made = self._sh('d=$(mktemp -d) && { cp -p "$1" "$d/index" 2>/dev/null; echo "$d"; }',
                        source.stdout.strip())  # fmt: skip
        tmp = made.stdout.strip()
        if not tmp.startswith("/"):
            raise GitError(f"cannot copy the index of {worktree} on {self.transport.target.host}")
        env = {"GIT_INDEX_FILE": posixpath.join(tmp, "index")}
        try:
            if not self._sh('test -f "$1"', env["GIT_INDEX_FILE"]).ok:
                self._git(worktree, "read-tree", "--empty", env=env)
            yield env
        finally:
            self._sh('rm -rf -- "$1"', tmp)

    def _sh(self, script: str, *args: str) -> proc.Completed:
        argv = ["sh", "-c", script, "sh", *args]
        return _git_call(self.transport, argv, label="sh", input=None)

    def _git(
        self,
        cwd: str,
        *args: str,
        env: Mapping[str, str] | None = None,
        check: bool = True,
        input: str | None = None,  # noqa: A002 - mirrors subprocess.run's keyword
    ) -> proc.Completed:
        assigned = [f"{key}={value}" for key, value in (env or {}).items()]
        argv = ["env", *assigned, "git", "-C", cwd, *args]
        label = f"git {args[0]}" if args else "git"
        done = _git_call(self.transport, argv, label=label, input=input)
        if check and not done.ok:
            raise GitError(f"{label}: {last_line(done.stderr)}")
        return done


def _git_call(
    transport: SshTransport,
    argv: Sequence[str],
    *,
    label: str,
    input: str | None,  # noqa: A002 - mirrors subprocess.run's keyword
) -> proc.Completed:
    """:func:`call` for git: every failure is a GitError (the host's too)."""
    try:
        return call(transport, argv, GitError, label=label, timeout=_GIT_TIMEOUT, input=input)
    except RemoteError as err:
        raise GitError(err.message) from err


# ps's columns: pid, parent pid, start time (lstart: five words, in UTC), then the command line.
_PS_ARGV = ("env", "LC_ALL=C", "TZ=UTC", "ps", "-e", "-ww", "-o", "pid=,ppid=,lstart=,args=")


class PsInspector:
    """Process trees on the host from ``ps`` (one call reads the whole table).

    A process is identified by pid and start time as ps gives it (whole seconds, the same in
    every read); ``exe`` is unknown (empty), so identity rests on the name, the command line
    and the start time."""

    def __init__(self, transport: SshTransport) -> None:
        """Read the process table of the host of ``transport``."""
        self.transport = transport

    def table(self) -> dict[int, ProcInfo]:
        """Every process of the host (RemoteError when the host cannot be reached)."""
        done = call(self.transport, _PS_ARGV, TmuxError, label="ps", timeout=_PS_TIMEOUT)
        if not done.ok:
            raise TmuxError(f"ps on {self.transport.target.host}: {last_line(done.stderr)}")
        return parse_ps(done.stdout)

    def tree(self, pid: int) -> list[ProcInfo]:
        """``pid`` and its descendants on the host; empty when ``pid`` is gone."""
        return self.trees([pid])[pid]

    def trees(self, pids: Sequence[int]) -> dict[int, list[ProcInfo]]:
        """The tree of every pid in ``pids`` from one ``ps`` over ssh."""
        roots = list(dict.fromkeys(pids))
        if not roots:
            return {}
        table = self.table()
        children: dict[int, list[int]] = {}
        for info in table.values():
            children.setdefault(info.ppid, []).append(info.pid)
        return {root: _tree(root, table, children) for root in roots}

    def exit_status(self, pid: int) -> int | None:
        """A zombie's wait status from the host's ``/proc/<pid>/stat`` (None when it runs,
        is gone, or the host has no /proc or cannot be reached)."""
        try:
            argv = ("cat", f"/proc/{int(pid)}/stat")
            done = call(self.transport, argv, TmuxError, label="stat", timeout=_PS_TIMEOUT)
        except PawError:
            return None
        return zombie_status(done.stdout.encode()) if done.ok else None

    def end(self, procs: Sequence[ProcInfo], grace_s: float) -> list[ProcInfo]:
        """SIGTERM, then SIGKILL, the members of ``procs`` that outlive ``grace_s`` (each
        still the same process: pid and start time)."""
        stayed = self._same(procs, self._wait(procs, grace_s))
        if stayed:
            self._kill("TERM", stayed)
            alive = self._same(stayed, self._wait(stayed, grace_s))
            if alive:
                self._kill("KILL", alive)
        return stayed

    def _wait(self, procs: Sequence[ProcInfo], grace_s: float) -> dict[int, ProcInfo]:
        end = time.monotonic() + grace_s
        while True:
            table = self.table()
            if not self._same(procs, table) or time.monotonic() >= end:
                return table
            time.sleep(0.2)

    @staticmethod
    def _same(procs: Sequence[ProcInfo], table: Mapping[int, ProcInfo]) -> list[ProcInfo]:
        out = []
        for p in procs:
            now = table.get(p.pid)
            if now is not None and abs(now.create_time - p.create_time) < 1.0:
                out.append(p)
        return out

    def _kill(self, signal: str, procs: Sequence[ProcInfo]) -> None:
        argv = ["kill", f"-{signal}", *(str(p.pid) for p in procs)]
        call(self.transport, argv, TmuxError, label="kill", timeout=_PS_TIMEOUT)


def parse_ps(text: str) -> dict[int, ProcInfo]:
    """``ps -o pid=,ppid=,lstart=,args=`` output (C locale, UTC) as processes by pid."""
    table: dict[int, ProcInfo] = {}
    for line in text.splitlines():
        words = line.split(None, 7)
        if len(words) < 7 or not words[0].isdigit() or not words[1].isdigit():
            continue
        try:
            started = calendar.timegm(time.strptime(" ".join(words[2:7]), "%a %b %d %H:%M:%S %Y"))
        except ValueError:
            continue
        cmdline = tuple(words[7].split()) if len(words) > 7 else ()
        name = posixpath.basename(cmdline[0])[:15] if cmdline else ""
        pid, ppid = int(words[0]), int(words[1])
        table[pid] = ProcInfo(pid, name, "", cmdline, float(started), ppid)
    return table


def _tree(root: int, table: dict[int, ProcInfo], children: dict[int, list[int]]) -> list[ProcInfo]:
    top = table.get(root)
    if top is None:
        return []
    out, seen, stack = [replace(top, ppid=0)], {root}, [root]
    while stack:
        parent = stack.pop()
        for child in children.get(parent, ()):
            info = table.get(child)
            if child in seen or info is None or info.create_time < top.create_time:
                continue
            seen.add(child)
            out.append(info)
            stack.append(child)
    return out
