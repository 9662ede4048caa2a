"""tmux on a host, through :mod:`paw.adapters.remote.ssh`: :class:`RemoteTerminal` is
:class:`~paw.adapters.tmux.terminal.TmuxTerminal` with every tmux call one ssh call over
the host's multiplexed connection (its control client and pane events are ``tmux -C``
over ssh, see :mod:`paw.adapters.remote.events`); :func:`call` runs any program there.
"""

from __future__ import annotations

import shlex
import subprocess
from collections.abc import Sequence

from paw.adapters import proc
from paw.adapters.proc import last_line
from paw.adapters.remote.events import HostEvents
from paw.adapters.remote.ssh import SshError, SshTransport, SshUnconfirmed
from paw.adapters.tmux.events import Listener
from paw.adapters.tmux.link import ControlLink
from paw.adapters.tmux.terminal import TmuxTerminal
from paw.errors import DeliveryUnknown, PawError, TmuxError

_TMUX_TIMEOUT = 20.0
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
                    self._events = HostEvents(
                        self.transport, self._base, session, socket_name=self.socket_name or ""
                    )
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
