"""PawApp: the main screen, the poll timer and its worker, error reporting, attach.

Thin on purpose: screens and widgets own their handlers; this module wires the supervisor,
timers and workers (STYLE 3.3).
"""

from __future__ import annotations

import contextlib
import threading
import time
from concurrent.futures import CancelledError
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import App
from textual.binding import Binding, BindingType
from textual.worker import Worker, WorkerState

from paw.core.printable import printable_line
from paw.errors import PawError, TmuxError
from paw.supervisor.gcpause import LongLived
from paw.supervisor.pump import SWEEP_DUTY, EventPump
from paw.tui.connect import DEFAULT_KINDS, Connection, NotConnected
from paw.tui.frames import use_frame_period
from paw.tui.messages import AgentDetails, DetailsRead, PanesPolled, PollFailed
from paw.tui.screens.main import MainScreen
from paw.tui.screens.notice import TmuxLostDialog

if TYPE_CHECKING:
    from collections.abc import Callable

    from rich.console import RenderableType
    from textual.driver import Driver
    from textual.notifications import SeverityLevel

    from paw.core.wave_view import WaveReading
    from paw.supervisor.model import Snapshot, SupervisorApi

# The selected agent's side panels, on the wall clock (sweeps follow pane events and may come
# ten times a second): its diff is re-read at most every DIFF_EVERY_S (git is slower than tmux);
# its pane preview at most every PREVIEW_EVERY_S while the pane draws (at once when the agent
# or its status changes), and every DETAILS_EVERY_S when the pane is quiet.
DIFF_EVERY_S = 2.0
PREVIEW_EVERY_S = 0.25
DETAILS_EVERY_S = 10.0
AUDIT_LINES = 8
ERROR_REPEAT_SECONDS = 30.0  # the same error is toasted at most this often
SAFETY_SWEEP_S = 30.0  # with pane events arriving, a full sweep at least this often anyway


class PawApp(App[None]):
    """The paw TUI over any :class:`SupervisorApi`."""

    CSS_PATH = Path(__file__).with_name("paw.tcss")
    TITLE = "paw"
    ENABLE_COMMAND_PALETTE = False  # the footer needs the room; every action has a key
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+c", "quit", "Quit", show=False)]

    def __init__(
        self,
        supervisor: SupervisorApi | None = None,
        *,
        connect: Callable[[], Connection] | None = None,
        poll_interval: float = 1.0,
        attach: Callable[[str], None] | None = None,
        kinds: tuple[str, ...] = DEFAULT_KINDS,
        autopoll: bool = True,
        waves: Callable[[], WaveReading | None] | None = None,
        safety_interval: float = SAFETY_SWEEP_S,
    ) -> None:
        """Run over ``supervisor``, or paint first and then build one with ``connect``.

        ``waves`` reads the repository's latest wave (cheap when unchanged); each sweep
        calls it and the wave view (`w`) shows what it returns.

        With pane events (the connection's ``watch``), sweeps follow the events and otherwise
        run only every ``safety_interval`` seconds; while no events arrive (no control mode,
        the tmux server is down) they run every ``poll_interval`` seconds."""
        use_frame_period()  # before any screen draws
        super().__init__()
        if (supervisor is None) == (connect is None):
            raise ValueError("give a supervisor or a connector, not both or neither")
        self.supervisor: SupervisorApi = supervisor if supervisor is not None else NotConnected()
        # While it runs, Textual replaces sys.stdout with a print capture that has no
        # ``encoding``; libtmux reads sys.stdout.encoding when imported, and the connector
        # imports it then. Give the captures the attribute every text stream has.
        for name in ("_capture_stdout", "_capture_stderr"):
            capture = getattr(self, name, None)
            if capture is not None and not hasattr(capture, "encoding"):
                capture.encoding = "utf-8"
        self._connect = connect
        self.connect_error: BaseException | None = None  # why the connector failed, if it did
        self._close: Callable[[], None] | None = None
        self._ending = False  # exit() was called
        self.poll_lock = threading.Lock()  # one sweep at a time
        self.action_lock = threading.Lock()  # one human-started operation at a time
        self._poll_in_flight = False
        self._poll_again = False
        self._details_in_flight = False  # a preview/diff read runs (UI thread's flag)
        self._details_again: str | None = None
        self._next_sweep = 0.0  # time.monotonic() before which the timer does not sweep
        self.poll_interval = poll_interval
        self.safety_interval = safety_interval
        self._live: Callable[[], bool] | None = None
        self._pump: EventPump | None = None
        self._connection: Connection | None = None
        self._following = False  # the pictures are a sweeper's pushes (no pump here)
        self._took_lock = threading.Lock()  # a picture's aftermath: one picture at a time
        self._posted_at = float("-inf")  # the taken_at of the newest picture posted
        self._last_sweep = 0.0  # time.monotonic() when the last sweep started
        self._sweep_cpu = 0.0  # the CPU seconds the last sweep's picture says it took
        self.last_rest = 0.0  # seconds the timer waited after the last sweep (SWEEP_DUTY)
        self.kinds = kinds
        self._attach_agent = attach
        self._autopoll = autopoll
        self._sweeps = 0
        self._diff_agent: str | None = None
        self._details_agent: str | None = None  # the agent the preview shown was read for
        self._details_status: object = None  # ... its status then
        self._details_at = 0.0  # ... and when (time.monotonic())
        self._diff_at = 0.0
        self._last_error: tuple[str, float] | None = None
        self._tmux_lost = False
        self._long_lived = LongLived()  # short full collections (a real terminal only)
        self._waves = waves
        self._wave_seen: WaveReading | None = None  # the wave as last read

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver for this platform; on POSIX one that asks the terminal its size."""
        driver = super().get_driver_class()
        if driver.__module__ == "textual.drivers.linux_driver":
            from paw.tui.driver import TerminalSizeDriver

            return TerminalSizeDriver
        return driver

    @property
    def main(self) -> MainScreen:
        """The main screen (installed at start)."""
        screen = self.get_screen("main")
        assert isinstance(screen, MainScreen)  # noqa: S101 - installed in on_mount
        return screen

    def on_mount(self) -> None:
        """Show the main screen; connect after the first frame, or start sweeping now."""
        self.install_screen(MainScreen(), "main")
        self.push_screen("main")
        if self._connect is None:
            self._start_polling()

    def on_ready(self) -> None:
        """The first frame is on screen: connect now (the connector's imports hold the GIL)."""
        if self._connect is not None:
            self.connect()

    def _start_polling(self) -> None:
        if self._autopoll:
            self.set_interval(self.poll_interval, self._tick)
            self.request_poll()

    @work(thread=True, exclusive=True, name="connect", exit_on_error=False)
    def connect(self) -> None:
        """Build the supervisor off the UI thread (the first frame is already on screen)."""
        connect = self._connect
        if connect is None:
            return
        try:
            connection = connect()
        except Exception as err:  # noqa: BLE001 - any failure ends the TUI and is reported
            self.call_from_thread(self._connect_failed, err)
            return
        try:
            self.call_from_thread(self._connected, connection)
        except (RuntimeError, CancelledError):  # the app ended while paw was connecting
            self._release(connection)

    def _connected(self, connection: Connection) -> None:
        if self._ending or not self.is_running:  # the human quit while paw was connecting
            self._release(connection)
            return
        self.supervisor = connection.supervisor
        self._attach_agent = connection.attach
        self.kinds = connection.kinds
        self._close = connection.close
        self._waves = connection.waves or self._waves
        self._connection = connection
        pushes = connection.pushes
        if pushes is not None and pushes.follow(self._pushed, self._push_failed):
            self._following = True
        else:
            self._watch()
        self._start_polling()

    def _watch(self) -> None:
        """Pane events of this process's own event client drive the sweeps (no pushes)."""
        connection = self._connection
        if connection is None or connection.watch is None or self._pump is not None:
            return
        pump = EventPump(self._pane_event_due)
        if connection.watch(pump.note):
            self._pump = pump
            self._live = connection.live
            pump.start()

    @staticmethod
    def _release(connection: Connection) -> None:
        if connection.close is not None:
            connection.close()

    def exit(
        self, result: None = None, return_code: int = 0, message: RenderableType | None = None
    ) -> None:
        """End the app (a connection that arrives after this is released, not used)."""
        self._ending = True
        self._long_lived.uninstall()
        super().exit(result, return_code, message)

    def first_picture_shown(self) -> None:
        """The first sweep's picture is on screen: what the TUI holds now lives long (see
        :mod:`paw.supervisor.gcpause`). Not in headless runs (tests run many apps in one
        process)."""
        if not self.is_headless and not self._ending:
            self._long_lived.install()

    def _connect_failed(self, error: BaseException) -> None:
        self.connect_error = error
        self.exit(return_code=1)

    def disconnect(self) -> None:
        """Release what the connector opened (the tmux control-mode client); idempotent."""
        pump, self._pump = self._pump, None
        if pump is not None:
            pump.stop()
        close, self._close = self._close, None
        if close is not None:
            close()

    def _tick(self) -> None:
        # The timer skips while the last sweep's share of the time runs (SWEEP_DUTY).
        self._long_lived.tick()
        now = time.monotonic()
        if self._following and not self._pushes_running():
            self._following = False  # the sweeper ended: watch the panes here instead
            self._watch()
        if self.events_live() and now - self._last_sweep < self.safety_interval:
            # Pane events drive the sweeps; this is only the safety sweep. A wave's runner is
            # no pane: its state file and its life are looked at here (a stat and a kill -0
            # when nothing changed), and a change is swept at once.
            if self._wave_changed():
                self.request_poll()
            else:  # no sweep for a while: the ages still move, second by second
                self.main.refresh_ages()
            return
        if now >= self._next_sweep:
            self.request_poll()

    def events_live(self) -> bool:
        """True while pane events arrive (sweeps follow them, not the timer): this process's
        own, or the sweeper's whose pictures are followed."""
        if self._following:
            pushes = self._connection.pushes if self._connection is not None else None
            return pushes is not None and pushes.events_live()
        return self._live is not None and self._live()

    def _pushes_running(self) -> bool:
        pushes = self._connection.pushes if self._connection is not None else None
        return pushes is not None and pushes.following

    def picture_handled(self) -> None:
        """The main screen handled a picture: a sweeper followed may push the next."""
        pushes = self._connection.pushes if self._connection is not None else None
        if self._following and pushes is not None:
            pushes.handled()

    def _pushed(self, snapshot: Snapshot, touched: frozenset[str]) -> None:
        """The sweeper's reader thread: a picture of the sweeper's own sweep."""
        if self._ending:
            return
        self._last_sweep = time.monotonic()  # (the safety sweep is due this long after it)
        details = self._took(snapshot, set(touched), self.main.shown_agent)
        if details is not None:
            self._from_worker(self.request_details, details)

    def _push_failed(self, error: PawError) -> None:
        """The sweeper's reader thread: a sweep of the sweeper's own failed."""
        if self._ending:
            return
        if isinstance(error, TmuxError):
            self._tmux_failed(error)
        else:
            with contextlib.suppress(RuntimeError, CancelledError):
                self.call_from_thread(self.report_error, "poll", error)

    def _pane_event_due(self) -> None:
        """The event pump's thread: a pane drew or the structure changed; sweep now."""
        if self._ending:
            return
        with contextlib.suppress(RuntimeError, CancelledError):  # the app is ending
            self.call_from_thread(self.request_poll)

    def request_poll(self) -> None:
        """Start a sweep now, or right after the one in flight (sweeps never pile up)."""
        if self._poll_in_flight:
            self._poll_again = True
            return
        self._poll_in_flight = True
        self._poll_again = False
        self.poll()

    @work(thread=True, exclusive=True, name="poll", exit_on_error=False)
    def poll(self) -> None:
        """One sweep (off the UI thread): snapshot, selected agent's pane and diff, audit tail.

        Sweeps hold ``poll_lock`` only; approvals run beside them (the supervisor serialises
        what must be serial with its own cross-process locks), so a slow sweep never delays
        a decision.
        """
        rest = self._next_sweep - time.monotonic()
        if rest > 0:  # the last sweep's share of the time is not over yet
            time.sleep(min(rest, self.poll_interval))
        started, cpu = time.monotonic(), time.thread_time()
        self._last_sweep = started
        details: str | None = None
        self._sweep_cpu = 0.0
        try:
            with self.poll_lock:
                details = self._sweep(self.main.shown_agent)
        finally:
            ended = time.monotonic()
            cost = max(time.thread_time() - cpu, self._sweep_cpu)  # (here, or the sweeper's)
            self.last_rest = min(cost, ended - started) * SWEEP_DUTY
            self._next_sweep = ended + self.last_rest
            self._poll_in_flight = False
            if self._poll_again:
                self.call_from_thread(self.request_poll)
        if details is not None:  # read beside the next sweep, never in its way
            self._from_worker(self.request_details, details)

    def request_details(self, agent: str) -> None:
        """Read the selected agent's preview and diff now, or right after the read in flight
        (reads never pile up: the latest request wins)."""
        if self._details_in_flight:
            self._details_again = agent
            return
        self._details_in_flight = True
        self._details_again = None
        self.read_details(agent)

    @work(thread=True, group="details", name="details", exit_on_error=False)
    def read_details(self, agent: str) -> None:
        """The selected agent's pane preview and diff (a capture and a `git diff`), off the
        UI thread and outside the sweep: a new prompt's sweep does not wait for them."""
        try:
            details = self._details(agent)
            if details is not None:
                self.main.post_message(DetailsRead(details))
        finally:
            self._details_in_flight = False
            again, self._details_again = self._details_again, None
            if again is not None:
                self._from_worker(self.request_details, again)

    def _from_worker(self, callback: Callable[[str], None], agent: str) -> None:
        with contextlib.suppress(RuntimeError, CancelledError):  # the app is ending
            self.call_from_thread(callback, agent)

    def _sweep(self, agent: str | None) -> str | None:
        """One sweep; the picture is posted. Returns the selected agent whose preview and
        diff are to be read again (None: they may stay)."""
        pump = self._pump
        touched = pump.drain() if pump is not None and self.events_live() else None
        try:
            snapshot = self.supervisor.poll_once()
            self._sweep_cpu = snapshot.cpu_s
        except TmuxError as err:
            self._tmux_failed(err)
            return None
        pushes = self._connection.pushes if self._connection is not None else None
        if self._following and pushes is not None:  # what the sweeper's answers say drew
            drawn = pushes.drain_touched()
            touched = drawn if self.events_live() else None
        if pump is not None and snapshot.tmux_ok:
            pump.only(frozenset(view.event_key for view in snapshot.agents if view.event_key))
        return self._took(snapshot, touched, agent)

    def _tmux_failed(self, error: TmuxError) -> None:
        self.main.post_message(PollFailed(error.message, tmux_lost=True))
        with contextlib.suppress(RuntimeError, CancelledError):  # the app is ending
            self.call_from_thread(self.tmux_lost, error.message)

    def _took(self, snapshot: Snapshot, touched: set[str] | None, agent: str | None) -> str | None:
        """Post a sweep's picture (this process's or the sweeper's). Returns the selected
        agent whose preview and diff are to be read again (None: they may stay)."""
        with self._took_lock:
            if snapshot.taken_at < self._posted_at:
                # an answer to a request that a pushed picture, swept after it, overtook on
                # its way here: showing it would take the newer picture's prompts off screen
                return None
            self._posted_at = snapshot.taken_at
            audit = self.supervisor.audit_tail(AUDIT_LINES)
            wave = self._read_wave()
            self._sweeps += 1
            # The picture goes first: a new prompt is on screen without waiting for the
            # selected agent's preview and diff, which follow in their own message.
            self.main.post_message(
                PanesPolled(snapshot, None, audit, wave=wave, waves=self._waves is not None)
            )
            if not snapshot.tmux_ok:
                with contextlib.suppress(RuntimeError, CancelledError):
                    self.call_from_thread(self.tmux_lost, snapshot.error or "tmux is not running")
                return None
            self._tmux_lost = False
            if agent and not self._details_current(agent, snapshot, touched):
                self._note_details(agent, snapshot)
                return agent
            return None

    def _read_wave(self) -> WaveReading | None:
        """The latest wave (its reader parses the state file only when it changed)."""
        if self._waves is None:
            return None
        try:
            reading = self._waves()
        except Exception as err:  # noqa: BLE001 - a wave that cannot be read is a line, not a crash
            from paw.core.wave_view import WaveReading

            reading = WaveReading("?", None, False, f"paw could not read the wave state: {err}")
        self._wave_seen = reading
        return reading

    def _wave_changed(self) -> bool:
        """Whether the wave differs from the one the last sweep read (state or runner)."""
        if self._waves is None or self._poll_in_flight:
            return False
        before = self._wave_seen
        return self._read_wave() != before

    def _details_current(self, agent: str, snapshot: Snapshot, touched: set[str] | None) -> bool:
        """True when the selected agent's preview and diff shown may stay: it is the agent
        they were read for, in the same status, and either its pane drew nothing since (pane
        events tell; refreshed every DETAILS_EVERY_S anyway) or they were read less than
        PREVIEW_EVERY_S ago."""
        view = next((v for v in snapshot.agents if v.name == agent), None)
        if view is None or agent != self._details_agent or view.status != self._details_status:
            return False
        age = time.monotonic() - self._details_at
        if age < PREVIEW_EVERY_S:
            return True
        if touched is None or age >= DETAILS_EVERY_S:
            return False
        return view.event_key is not None and view.event_key not in touched

    def _note_details(self, agent: str, snapshot: Snapshot) -> None:
        """The preview and diff are (being) read for ``agent`` as ``snapshot`` shows it."""
        view = next((v for v in snapshot.agents if v.name == agent), None)
        self._details_agent = agent
        self._details_status = view.status if view is not None else None
        self._details_at = time.monotonic()

    def _details(self, agent: str) -> AgentDetails | None:
        now = time.monotonic()
        try:
            preview = self.supervisor.capture_ansi(agent)
            diff = None
            if agent != self._diff_agent or now - self._diff_at >= DIFF_EVERY_S:
                diff = self.supervisor.diff(agent)
                self._diff_agent = agent
                self._diff_at = now
        except PawError:
            return None  # the agent went away between the sweep and its details
        return AgentDetails(agent=agent, preview_ansi=preview, diff=diff)

    def tmux_lost(self, error: str) -> None:
        """Show the tmux-lost dialog once per outage."""
        if self._tmux_lost:
            return
        self._tmux_lost = True
        self.bell()
        self.push_screen(TmuxLostDialog(error))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Poll errors become coalesced toasts."""
        error = event.worker.error
        if event.state is WorkerState.ERROR and error is not None and event.worker.name == "poll":
            self.report_error("poll", error)

    def report_error(self, what: str, error: BaseException) -> None:
        """Toast ``error``, but the same message at most every ERROR_REPEAT_SECONDS."""
        message = f"{what}: {error}"
        now = time.monotonic()
        last = self._last_error
        if last and last[0] == message and now - last[1] < ERROR_REPEAT_SECONDS:
            return
        self._last_error = (message, now)
        self.notify(message, title="paw error", severity="error", timeout=10)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """A one-line notification: ``title: message``, never read as markup (it quotes pane
        text). One line each keeps the prompt queue, the card and the footer in view."""
        text = printable_line(" ".join((f"{title}: {message}" if title else message).split()))
        super().notify(text, severity=severity, timeout=timeout, markup=markup)

    def attach(self, agent: str) -> None:
        """Suspend the TUI, attach to ``agent``'s pane, and come back when the human detaches."""
        if self._attach_agent is None:
            self.notify("Attaching is not available here.", severity="warning")
            return
        try:
            with self.suspend():
                self._attach_agent(agent)
        except Exception as err:  # noqa: BLE001 - any failure is shown, the TUI must survive
            self.report_error("attach", err)
        self.refresh()
        self.request_poll()


def make_app(
    supervisor: SupervisorApi | None = None,
    *,
    connect: Callable[[], Connection] | None = None,
    poll_interval: float = 1.0,
    attach: Callable[[str], None] | None = None,
    kinds: tuple[str, ...] = DEFAULT_KINDS,
    autopoll: bool = True,
    waves: Callable[[], WaveReading | None] | None = None,
    safety_interval: float = SAFETY_SWEEP_S,
) -> PawApp:
    """Build the TUI for ``supervisor``, or for the one ``connect`` builds after the first
    frame (the one factory the CLI, tests and snapshots use)."""
    return PawApp(
        supervisor,
        connect=connect,
        poll_interval=poll_interval,
        attach=attach,
        kinds=kinds,
        autopoll=autopoll,
        waves=waves,
        safety_interval=safety_interval,
    )
