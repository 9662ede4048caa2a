"""tmux as paw's :class:`~paw.core.ports.Terminal`.

Structure (sessions, server life) goes through libtmux; the hot path is paw's own: a sweep
captures every supervised pane with ONE tmux process (chained commands split by a random
per-sweep marker; past about 110 panes, one process per chunk that fits tmux's 16 KiB
command limit), and spawning a pane costs two. Every tmux failure surfaces as
:class:`paw.errors.TmuxError`. Its rooms: the captures (fresh, steady, event-driven:
:mod:`paw.adapters.tmux.captures`), what a new pane starts with
(:mod:`paw.adapters.tmux.launch`) and the attached count less paw's own clients
(:mod:`paw.adapters.tmux.clients`).
"""

from __future__ import annotations

import os
import shutil
import threading
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from paw.adapters import autogroup, proc
from paw.adapters.proc import last_line
from paw.adapters.tmux.captures import Captures
from paw.adapters.tmux.clients import without_own_clients
from paw.adapters.tmux.delta import STATE_FIELDS, PaneState, SteadyMemory, parse_pane_states
from paw.adapters.tmux.events import Listener, Mark, PaneEvents
from paw.adapters.tmux.format import (
    TAG_KEYS,
    escape_arg,
    is_pane_id,
    pane_format,
    parse_pane_list,
    server_gone,
)
from paw.adapters.tmux.launch import PLACEHOLDER, agent_tmux_dir, check_tags, start_commands
from paw.adapters.tmux.link import ControlLink
from paw.adapters.tmux.sweep import separator
from paw.core.ports import PaneCapture, PaneInfo, Survey
from paw.errors import TmuxError

if TYPE_CHECKING:
    import libtmux

__all__ = ["TAG_KEYS", "TmuxTerminal"]  # TAG_KEYS lives in tmux_format; re-exported here

_TIMEOUT = 15.0  # one tmux call (structure, keys, a fresh sweep)


_SERVER_RACE = "server exited unexpectedly"
_NEW_SERVER_TRIES = 3  # a new server can meet another client's command first (see ensure_session)


class TmuxTerminal(Captures):
    """A tmux server (private socket name, socket path, or the default server)."""

    def __init__(
        self,
        socket_name: str | None = None,
        socket_path: str | None = None,
        *,
        default_size: tuple[int, int] | None = (120, 40),
        remain_on_exit: bool = True,
        control: bool = False,
    ) -> None:
        """Create the adapter; no tmux process runs until a method needs one.

        Args:
            socket_name: ``tmux -L`` name.
            socket_path: ``tmux -S`` path (wins over ``socket_name``).
            default_size: (width, height) of sessions paw creates.
            remain_on_exit: keep a pane (and its last screen) when its program exits.
            control: sweep through a persistent control-mode client attached to the session
                of :meth:`watch_session` (else the first one :meth:`ensure_session` is given;
                no process per sweep); falls back to one tmux process per sweep whenever
                the client is unavailable (see :mod:`paw.adapters.tmux.link`).
        """
        self.socket_name = socket_name
        self.socket_path = socket_path
        self.default_size = default_size
        self.remain_on_exit = remain_on_exit
        if socket_path is not None:
            self._base: tuple[str, ...] = ("tmux", "-S", socket_path)
        elif socket_name is not None:
            self._base = ("tmux", "-L", socket_name)
        else:
            self._base = ("tmux",)
        self._libtmux: libtmux.Server | None = None  # made on first use (see _server)
        self.control = control
        self._link = ControlLink(self._base)
        self._steady = SteadyMemory()  # captures reused by fresh=False sweeps and surveys
        self.last_captured = 0  # panes actually captured by the last sweep (the rest reused)
        self._steady_lock = threading.Lock()  # one steady survey at a time (it owns the cache)
        self._events: PaneEvents | None = None  # started by watch()
        self._event_marks: dict[tuple[str, bool], Mark | None] = {}  # mark before each capture
        self.panes_captured = 0  # capture-pane requests made, over the adapter's life
        # paw's control-mode clients on its session held by another paw process (a TUI whose
        # sweeps run here): not counted as someone attached
        self.clients_elsewhere = 0
        self._less_attached: dict[str, tuple[PaneInfo, int, PaneInfo]] = {}

    # -- structure (libtmux) -------------------------------------------------------------------

    @property
    def _server(self) -> libtmux.Server:
        """libtmux's server object, imported and made on first use: sweeps and surveys never
        need libtmux, so one-shot commands (`paw ls`) start without importing it."""
        if self._libtmux is None:
            import libtmux  # deferred: a tenth of `paw ls`'s start-up

            self._libtmux = libtmux.Server(
                socket_name=self.socket_name, socket_path=self.socket_path
            )
        return self._libtmux

    def watch_session(self, name: str) -> None:
        """Attach the control-mode client (``control=True``) to the session ``name``; until
        then it attaches to the first session :meth:`ensure_session` is given."""
        self._link.watch(name)

    def watch(self, listener: Listener) -> bool:
        """Report pane output and structure changes of the watched session to ``listener``
        (see :mod:`paw.adapters.tmux.events`; called on a reader thread with a pane id, or
        None for a structure change, a (re)connect or a lost server). From then on a steady
        survey recaptures only panes that had an event since their last capture, while the
        event client is attached (else it falls back to the output-time rule).

        Returns False (nothing started) without ``control`` or a watched session."""
        session = self._link.session
        if not self.control or session is None:
            return False
        with self._steady_lock:
            if self._events is None:
                self._events = PaneEvents(self._base, session)
            events = self._events
        events.subscribe(listener)
        events.start()
        return True

    def events_live(self) -> bool:
        """True while the event client of :meth:`watch` is attached."""
        return self._events is not None and self._events.live()

    def ensure_session(self, name: str, cwd: str) -> None:
        """Create the detached session ``name`` (start directory ``cwd``) unless it exists."""
        require_tmux()
        if self._link.session is None:
            self._link.watch(name)
        for attempt in range(_NEW_SERVER_TRIES):
            try:
                if self._server.has_session(name, exact=True):
                    return
                niced = autogroup.own_nice() > 0
                started = niced and not self._server.is_alive()  # (this paw starts the server)
                width, height = self.default_size or (None, None)
                self._server.new_session(
                    session_name=name, start_directory=cwd, attach=False, x=width, y=height
                )
                if niced:
                    self._share_nice(name, server=started)
            except _libtmux_error() as err:
                if self._has_session_quietly(name):
                    return  # created concurrently by another paw process
                if _SERVER_RACE not in str(err) or attempt + 1 == _NEW_SERVER_TRIES:
                    raise TmuxError(f"tmux: cannot create session {name!r}: {err}") from err
                # a server tmux started for us exited at once: another client (a sweeper polling
                # the socket) ran its command first on the empty new server, which then had no
                # session and no client and ended; start one again
            else:
                return

    def _share_nice(self, session: str, *, server: bool) -> None:
        """A niced paw's nice for the session's first pane and, when this paw started it, the
        tmux server (each runs in a session of its own: :mod:`paw.adapters.autogroup`)."""
        done = self._tmux(
            "display-message", "-p", "-t", f"={session}:", "#{pid} #{pane_pid}", check=False
        )
        pids = done.stdout.split() if done.ok else []
        if len(pids) != 2 or not all(p.isdigit() for p in pids):
            return
        if server:
            autogroup.share_nice(int(pids[0]))
        autogroup.share_nice(int(pids[1]))

    def has_session(self, name: str) -> bool:
        """True when the session ``name`` exists (exact match)."""
        try:
            return bool(self._server.has_session(name, exact=True))
        except _libtmux_error() as err:
            raise TmuxError(f"tmux: cannot query session {name!r}: {err}") from err

    def server_alive(self) -> bool:
        """True when a tmux server answers on this socket."""
        return bool(self._server.is_alive())

    def kill_server(self) -> None:
        """Kill the server. For tests and benchmarks on private sockets only."""
        if self.socket_name is None and self.socket_path is None:
            raise TmuxError("refusing to kill the default tmux server")
        self.close()
        try:
            if self._server.is_alive():
                self._server.kill()
        except _libtmux_error() as err:
            raise TmuxError(f"tmux: cannot kill server: {err}") from err

    def _has_session_quietly(self, name: str) -> bool:
        try:
            return bool(self._server.has_session(name, exact=True))
        except _libtmux_error():
            return False

    # -- panes -------------------------------------------------------------------------------

    def new_pane(
        self,
        session: str,
        cwd: str,
        argv: Sequence[str],
        env: Mapping[str, str],
        tags: Mapping[str, str],
        size: tuple[int, int] | None = None,
    ) -> PaneInfo:
        """Start ``argv`` in a new window of ``session`` (named after the agent), tagged.

        Two tmux processes: the first creates the window around a placeholder; the second tags
        it, sets its size and options, then respawns it with the real command, so the tags are
        in place before the agent runs, whatever it does.
        """
        check_tags(tags)
        name = tags.get("paw_agent") or Path(argv[0]).name
        created = self._tmux(
            "new-window", "-d", "-t", f"={session}:", "-n", escape_arg(name),
            "-P", "-F", "#{pane_id}", *PLACEHOLDER,
        )  # fmt: skip
        pane_id = _pane_target(created.stdout.strip())
        sep = separator()
        try:
            commands = start_commands(
                pane_id, cwd, argv, env, tags, size,
                remain_on_exit=self.remain_on_exit, tmpdir=self.agent_tmpdir(),
            )  # fmt: skip
            done = self._tmux(*commands, pane_format(sep))
        except TmuxError:
            self._tmux("kill-pane", "-t", pane_id, check=False)
            raise
        listed = parse_pane_list(done.stdout, sep, TAG_KEYS)
        if not listed:
            raise TmuxError(f"tmux: pane {pane_id} vanished while starting {argv[0]!r}")
        autogroup.share_nice(listed[0].pane_pid)  # (the pane is a session of its own)
        return listed[0]

    def agent_tmpdir(self) -> str:
        """The ``TMUX_TMPDIR`` agents of this server get (see :func:`agent_tmux_dir`)."""
        return agent_tmux_dir()

    def list_panes(self, session: str | None = None) -> list[PaneInfo]:
        """Panes of ``session`` (all sessions when None) with paw's tags; [] without a server."""
        sep = separator()
        scope = ["-a"] if session is None else ["-s", "-t", f"={session}"]
        done = self._tmux("list-panes", *scope, "-F", pane_format(sep), check=False)
        if not done.ok:
            if server_gone(done.stderr) or "can't find session" in done.stderr:
                return []
            raise TmuxError(f"tmux list-panes: {last_line(done.stderr)}")
        return parse_pane_list(done.stdout, sep, TAG_KEYS)

    def survey(self, pane_ids: Sequence[str], *, ansi: bool = False, fresh: bool = True) -> Survey:
        """List every pane of the server (with paw's tags) and capture ``pane_ids``: one tmux
        process, plus one per further chunk of about 110 panes (see
        :func:`paw.adapters.tmux.sweep.survey`), or with ``control`` one round trip of the
        control-mode client. A gone pane has ``text=None``.

        With ``fresh=False`` (the steady survey of routine polls) the listing is still taken
        every time, but a pane that printed nothing since its last capture and kept its
        process, size and liveness reuses that capture (see :mod:`paw.adapters.tmux.delta`);
        only panes that changed are captured. Re-verification before sending keys must use
        a fresh capture.

        Raises:
            TmuxError: no server answers on the socket, or tmux failed otherwise.
        """
        if not fresh:
            with self._steady_lock:
                events = self._events
                if events is not None and events.live():
                    return self._without_own_clients(self._survey_events(events, pane_ids, ansi))
                return self._without_own_clients(self._survey_steady(pane_ids, ansi=ansi))
        survey, _states = self._survey_call(pane_ids, ansi=ansi, states=False)
        self.last_captured = sum(c.text is not None for c in survey.captures)
        return self._without_own_clients(survey)

    def _without_own_clients(self, survey: Survey) -> Survey:
        """``attached`` counts the clients of each pane's session other than paw's own
        control-mode client (the one this adapter runs)."""
        own = self._link.session if self.control else None
        mine = int(self._link.current is not None) + int(self.events_live())
        mine += self.clients_elsewhere
        return without_own_clients(survey, own, mine, self._less_attached)

    def sweep(
        self, pane_ids: Sequence[str], *, ansi: bool = False, fresh: bool = True
    ) -> list[PaneCapture]:
        """Capture the visible screen of every pane: one tmux process per chunk of about 110
        panes (tmux refuses longer commands), or one control-client round trip. Gone panes
        come back with ``text=None``; a capture that failed otherwise raises (those panes
        are unknown, not gone).

        With ``fresh=False`` a pane whose window printed nothing since its last capture (and
        kept its process, size and liveness; see :mod:`paw.adapters.tmux.delta`) reuses that
        capture, and only the others are captured: one more process. Re-verification before
        sending keys must use the default ``fresh=True``.
        """
        wanted = [pane for pane in dict.fromkeys(pane_ids) if is_pane_id(pane)]
        self.last_captured = len(wanted)
        found = self._sweep_fresh(wanted, ansi=ansi) if fresh else self._sweep_delta(wanted, ansi)
        return [found.get(pane, PaneCapture(pane_id=pane, text=None)) for pane in pane_ids]

    def pane_states(self) -> dict[str, PaneState]:
        """Every pane's process, size, liveness and last output time (one tmux call).

        Raises:
            TmuxError: the listing failed (no server, or any other tmux failure).
        """
        token = uuid.uuid4().hex
        lines = self._link.states(token) if self.control else None
        if lines is not None:
            return parse_pane_states("\n".join(lines), token)
        fmt = f"{token} {STATE_FIELDS}"
        done = self._tmux("list-panes", "-a", "-F", fmt, check=False)
        if not done.ok:  # no listing is not "no panes": callers would take every pane for gone
            reason = "server is gone" if server_gone(done.stderr) else "list-panes failed"
            raise TmuxError(f"tmux: {reason} ({last_line(done.stderr)})")
        return parse_pane_states(done.stdout, token)

    def close(self) -> None:
        """Stop the control-mode clients, if they run (the tmux server is left alone)."""
        if self._events is not None:
            self._events.stop()
        self._link.drop()

    def capture(self, pane_id: str, *, ansi: bool = False) -> str | None:
        """One pane's visible screen (None when the pane is gone)."""
        return self.sweep([pane_id], ansi=ansi)[0].text

    def send_keys(self, pane_id: str, keys: Sequence[str]) -> None:
        """Send tmux key names (``Enter``, ``Escape``, ``y``) in one ``send-keys`` call."""
        if keys:
            target = _pane_target(pane_id)
            self._tmux("send-keys", "-t", target, *(escape_arg(key) for key in keys))

    def send_text(self, pane_id: str, text: str) -> None:
        """Type ``text`` literally (``send-keys -l``): key names and ``;`` are just text."""
        if text:
            self._tmux("send-keys", "-l", "-t", _pane_target(pane_id), "--", escape_arg(text))

    def kill_pane(self, pane_id: str) -> None:
        """Kill the pane and its processes; a pane that is already gone is not an error."""
        done = self._tmux("kill-pane", "-t", _pane_target(pane_id), check=False)
        if not done.ok and "can't find pane" not in done.stderr:
            raise TmuxError(f"tmux kill-pane {pane_id}: {last_line(done.stderr)}")

    def attach_argv(self, pane_id: str) -> list[str]:
        """The argv that shows the pane's window in the user's terminal.

        ``switch-client`` when the caller already runs inside this server, else ``attach``
        (with ``TMUX`` unset when inside another server, so tmux does not refuse to nest).
        """
        _pane_target(pane_id)
        inside = os.environ.get("TMUX", "")
        if inside and inside.split(",", 1)[0] == self.socket_file():
            return [*self._base, "switch-client", "-t", pane_id]
        prefix = ["env", "-u", "TMUX"] if inside else []
        return [*prefix, *self._base, "attach-session", "-t", pane_id]

    def socket_file(self) -> str:
        """The socket path this adapter talks to (as tmux computes it)."""
        if self.socket_path is not None:
            return self.socket_path
        inside = os.environ.get("TMUX", "")
        if self.socket_name is None and inside:  # plain `tmux` inside tmux: that server
            return inside.split(",", 1)[0]
        tmpdir = os.environ.get("TMUX_TMPDIR") or "/tmp"  # noqa: S108 - tmux's own default
        return str(Path(tmpdir) / f"tmux-{os.geteuid()}" / (self.socket_name or "default"))

    # -- the gateway -------------------------------------------------------------------------

    def _tmux(self, *args: str, check: bool = True) -> proc.Completed:
        return proc.run_or_raise(
            [*self._base, *args], TmuxError, label=f"tmux {args[0]}", timeout=_TIMEOUT, check=check
        )


def require_tmux() -> None:
    """TmuxError naming the problem when no tmux is on PATH (libtmux's error is empty)."""
    if shutil.which("tmux") is None:
        raise TmuxError(
            proc.not_installed("tmux"),
            hint="install tmux (e.g. `apt-get install tmux` or `brew install tmux`)",
        )


def _pane_target(pane_id: str) -> str:
    """``pane_id`` when it is a pane id (``%12``). Anything else could make tmux pick another
    pane (an empty target means "the current pane"), so it is refused before any key is sent."""
    if not is_pane_id(pane_id):
        raise TmuxError(f"not a tmux pane id: {pane_id!r}")
    return pane_id


def _libtmux_error() -> type[Exception]:
    """libtmux's base exception (imported when a libtmux call has failed)."""
    from libtmux import exc

    return exc.LibTmuxException
