"""tmux as paw's :class:`~paw.core.ports.Terminal`.

Structure (sessions, server life) goes through libtmux; the hot path is paw's own: a sweep
captures every supervised pane with ONE tmux process (chained commands split by a random
per-sweep marker; past about 110 panes, one process per chunk that fits tmux's 16 KiB
command limit), and spawning a pane costs two. Every tmux failure surfaces as
:class:`paw.errors.TmuxError`.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from paw.adapters import proc
from paw.adapters.proc import last_line
from paw.adapters.tmux import sweep as tmux_sweep
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
from paw.adapters.tmux.link import ControlLink
from paw.adapters.tmux.sweep import separator
from paw.core.ports import PaneCapture, PaneInfo, Survey
from paw.errors import TmuxError

if TYPE_CHECKING:
    import libtmux

__all__ = ["TAG_KEYS", "TmuxTerminal"]  # TAG_KEYS lives in tmux_format; re-exported here

# Holds a new pane while paw tags it, before the real command starts. Two or more arguments
# make tmux exec the program directly instead of through the user's default-shell.
_PLACEHOLDER = ("cat", "-u")
_TIMEOUT = 15.0
#: ``env`` arguments that start an agent without the variables naming paw's tmux server.
AGENT_UNSET: tuple[str, ...] = ("-u", "TMUX", "-u", "TMUX_PANE")
#: Variables that tell a program it runs in CI, with no person at a terminal. An agent in a
#: paw pane has a terminal and a person behind paw, but inherits paw's environment: a wave
#: started from a CI job or a scheduler would pass them on, and gemini-cli then takes itself
#: for headless (``CI=true``) and exits at start-up in a folder it has not been told to trust.
#: They are cleared unless the agent's own ``env`` sets them.
HEADLESS_MARKERS: tuple[str, ...] = ("CI", "CONTINUOUS_INTEGRATION", "GITHUB_ACTIONS")


def agent_tmux_dir() -> str:
    """The ``TMUX_TMPDIR`` agents get: a private directory of their own (created here), so a
    plain ``tmux`` run by an agent finds neither paw's server nor the user's."""
    base = Path(os.environ.get("TMUX_TMPDIR") or "/tmp")  # noqa: S108 - tmux's own default
    path = base / f"paw-agents-{os.geteuid()}"
    path.mkdir(mode=0o700, exist_ok=True)
    return str(path)


class TmuxTerminal:
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
        try:
            if self._server.has_session(name, exact=True):
                return
            width, height = self.default_size or (None, None)
            self._server.new_session(
                session_name=name, start_directory=cwd, attach=False, x=width, y=height
            )
        except _libtmux_error() as err:
            if self._has_session_quietly(name):
                return  # created concurrently by another paw process
            raise TmuxError(f"tmux: cannot create session {name!r}: {err}") from err

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
        unknown = sorted(set(tags) - set(TAG_KEYS))
        if unknown:
            raise ValueError(f"unknown pane tags {unknown}; paw's tags are {list(TAG_KEYS)}")
        if any("\n" in value for value in tags.values()):
            raise ValueError("pane tag values must be single lines")
        name = tags.get("paw_agent") or Path(argv[0]).name
        created = self._tmux(
            "new-window", "-d", "-t", f"={session}:", "-n", escape_arg(name),
            "-P", "-F", "#{pane_id}", *_PLACEHOLDER,
        )  # fmt: skip
        pane_id = _pane_target(created.stdout.strip())
        sep = separator()
        try:
            done = self._tmux(
                *self._start_argv(pane_id, cwd, argv, env, tags, size), pane_format(sep)
            )
        except TmuxError:
            self._tmux("kill-pane", "-t", pane_id, check=False)
            raise
        listed = parse_pane_list(done.stdout, sep, TAG_KEYS)
        if not listed:
            raise TmuxError(f"tmux: pane {pane_id} vanished while starting {argv[0]!r}")
        return listed[0]

    def _start_argv(
        self,
        pane_id: str,
        cwd: str,
        argv: Sequence[str],
        env: Mapping[str, str],
        tags: Mapping[str, str],
        size: tuple[int, int] | None,
    ) -> list[str]:
        out: list[str] = []
        for key, value in tags.items():
            out += ["set-option", "-p", "-t", pane_id, f"@{key}", escape_arg(value), ";"]
        if self.remain_on_exit:
            out += ["set-option", "-p", "-t", pane_id, "remain-on-exit", "on", ";"]
        if size is not None:
            out += ["resize-window", "-t", pane_id, "-x", str(size[0]), "-y", str(size[1]), ";"]
        out += ["respawn-pane", "-k", "-t", pane_id, "-c", cwd]
        for key, value in {**env, "TMUX_TMPDIR": self.agent_tmpdir()}.items():
            out += ["-e", escape_arg(f"{key}={value}")]
        # ``env … --`` makes the command two or more arguments: tmux then execs it directly, so
        # no shell (fish, nushell…) reinterprets the agent's argv; env execs in place (same pid).
        # The agent does not hold paw's server: tmux sets TMUX and TMUX_PANE in every pane, and
        # with them any command the agent runs could send keys into another agent's pane; and
        # TMUX_TMPDIR moves its default socket away from the user's (and paw's) servers. Nor
        # does it take itself for a CI job (HEADLESS_MARKERS).
        unset = [*AGENT_UNSET, *(f for v in HEADLESS_MARKERS if v not in env for f in ("-u", v))]
        out += ["env", *unset, "--", *(escape_arg(arg) for arg in argv), ";"]
        out += ["display-message", "-p", "-t", pane_id]  # the caller appends the format
        return out

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
                    return self._without_own_client(self._survey_events(events, pane_ids, ansi))
                return self._without_own_client(self._survey_steady(pane_ids, ansi=ansi))
        survey, _states = self._survey_call(pane_ids, ansi=ansi, states=False)
        self.last_captured = sum(c.text is not None for c in survey.captures)
        return self._without_own_client(survey)

    def _without_own_client(self, survey: Survey) -> Survey:
        """``attached`` counts the clients of each pane's session other than paw's own
        control-mode client (the one this adapter runs)."""
        own = self._link.session if self.control else None
        mine = int(self._link.current is not None) + int(self.events_live())
        mine += self.clients_elsewhere
        if own is None or not mine:
            return survey
        memo = self._less_attached
        if len(memo) > 4 * len(survey.panes) + 64:
            memo.clear()
        panes = []
        for pane in survey.panes:
            if pane.session != own:
                panes.append(pane)
                continue
            known = memo.get(pane.pane_id)
            if known is None or known[0] is not pane or known[1] != mine:
                known = (pane, mine, _attached(pane, max(0, pane.attached - mine)))
                memo[pane.pane_id] = known
            panes.append(known[2])  # (the same pane as last sweep's when its line was)
        return Survey(panes=tuple(panes), captures=survey.captures)

    def _survey_call(
        self, pane_ids: Sequence[str], *, ansi: bool, states: bool
    ) -> tuple[Survey, dict[str, PaneState]]:
        self.panes_captured += len(pane_ids)
        found = self._link.survey(pane_ids, ansi=ansi, states=states) if self.control else None
        if found is None:
            found = tmux_sweep.survey(self._tmux, pane_ids, ansi=ansi, states=states)
        return found

    def _survey_steady(self, pane_ids: Sequence[str], *, ansi: bool) -> Survey:
        """One call lists every pane with its state and captures the panes that were busy
        last time (or were never captured); of the others, a quiet one reuses its capture
        and one that printed is captured by one more call. A guessed pane that came back
        gone stays gone (it is never served from the cache)."""
        wanted = [pane for pane in dict.fromkeys(pane_ids) if is_pane_id(pane)]
        guess = self._steady.guess(wanted, ansi=ansi, unknown=True)
        started = time.time()
        survey, states = self._survey_call(guess, ansi=ansi, states=True)
        guessed = {c.pane_id: c for c in survey.captures if c.text is not None}
        busy = self._steady.absorb(guessed, states, ansi=ansi, started=started)
        asked = set(guess)
        reused, todo = self._steady.reuse([p for p in wanted if p not in asked], states, ansi=ansi)
        found = {**guessed, **reused, **self._capture_steady(todo, states, ansi=ansi)}
        self._steady.recent = busy | set(todo)
        self.last_captured = len(guess) + len(todo)
        captures = tuple(found.get(p) or PaneCapture(pane_id=p, text=None) for p in pane_ids)
        return Survey(panes=survey.panes, captures=captures)

    def _survey_events(self, events: PaneEvents, pane_ids: Sequence[str], ansi: bool) -> Survey:
        """The steady survey while pane events arrive: one call lists every pane with its
        state and captures the panes that had an event since their last capture (or were
        never captured); every other pane that kept its process, size and liveness reuses its
        capture. A pane whose state changed anyway is captured by one more call."""
        wanted = [pane for pane in dict.fromkeys(pane_ids) if is_pane_id(pane)]
        marks = {pane: events.mark(pane) for pane in wanted}  # before anything is requested
        cache = self._steady.cache
        dirty = [
            p
            for p in wanted
            if marks[p] is None
            or self._event_marks.get((p, ansi)) != marks[p]
            or not cache.has(p, ansi=ansi)
        ]
        started = time.time()
        survey, states = self._survey_call(dirty, ansi=ansi, states=True)
        cache.prune(set(states))
        for key in [key for key in self._event_marks if key[0] not in states]:
            del self._event_marks[key]
        found = {c.pane_id: c for c in survey.captures if c.text is not None}
        reused: dict[str, PaneCapture] = {}
        todo: list[str] = []
        for pane in wanted:
            if pane in found or pane in dirty or pane not in states:
                continue
            kept = cache.unchanged(pane, states[pane], ansi=ansi)
            if kept is None:
                todo.append(pane)
            else:
                reused[pane] = kept
        if todo:
            marks.update({pane: events.mark(pane) for pane in todo})
            found.update(self._sweep_fresh(todo, ansi=ansi))
        self._steady.store(found, states, ansi=ansi, started=started)
        for pane in found:
            self._event_marks[(pane, ansi)] = marks.get(pane)
        events.resume(found)
        self.last_captured = len(dirty) + len(todo)
        everything = {**reused, **found}
        captures = tuple(everything.get(p) or PaneCapture(pane_id=p, text=None) for p in pane_ids)
        return Survey(panes=survey.panes, captures=captures)

    def _capture_steady(
        self, todo: list[str], states: dict[str, PaneState], *, ansi: bool
    ) -> dict[str, PaneCapture]:
        if not todo:
            return {}
        started = time.time()
        fresh = self._sweep_fresh(todo, ansi=ansi)
        self._steady.store(fresh, states, ansi=ansi, started=started)
        return fresh

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

    def _sweep_fresh(self, wanted: list[str], *, ansi: bool) -> dict[str, PaneCapture]:
        if not wanted:
            return {}
        self.panes_captured += len(wanted)
        if self.control:
            controlled = self._link.sweep(wanted, ansi=ansi)
            if controlled is not None:
                return {capture.pane_id: capture for capture in controlled}
        return tmux_sweep.sweep(self._tmux, wanted, ansi=ansi)[0]

    def _sweep_delta(self, wanted: list[str], ansi: bool) -> dict[str, PaneCapture]:
        """Panes captured last time are captured again in the same process that lists every
        pane's state (they are likely still busy); of the others, only those that printed
        since their last capture are captured, by one more process."""
        started = time.time()
        if self.control and self._link.client() is not None:
            guess: list[str] = []
            guessed: dict[str, PaneCapture] = {}
            states = self.pane_states()
        else:
            guess = self._steady.guess(wanted, ansi=ansi, unknown=False)
            guessed, states = tmux_sweep.sweep(self._tmux, guess, ansi=ansi)
        busy = self._steady.absorb(guessed, states, ansi=ansi, started=started)
        asked = set(guess)
        reused, todo = self._steady.reuse([p for p in wanted if p not in asked], states, ansi=ansi)
        found = {**guessed, **reused, **self._capture_steady(todo, states, ansi=ansi)}
        self._steady.recent = busy | set(todo)
        self.last_captured = len(busy) + len(todo)
        return found

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


def _attached(pane: PaneInfo, attached: int) -> PaneInfo:
    """``pane`` with another ``attached`` count (the constructor: dataclasses.replace costs
    several times more, and a sweep does this for every pane of paw's session)."""
    if pane.attached == attached:
        return pane
    return PaneInfo(
        pane_id=pane.pane_id, pane_pid=pane.pane_pid, session=pane.session, width=pane.width,
        height=pane.height, dead=pane.dead, current_command=pane.current_command,
        tags=pane.tags, server=pane.server, attached=attached,
    )  # fmt: skip


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
