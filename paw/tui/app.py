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

from paw.core.printable import printable_line
from paw.errors import TmuxError
from paw.supervisor.details import AgentDetails
from paw.supervisor.feed import SAFETY_SWEEP_S, Feed, FeedEvent, Picture
from paw.supervisor.gcpause import LongLived
from paw.tui.connect import DEFAULT_KINDS, Connection, NotConnected
from paw.tui.frames import use_frame_period
from paw.tui.messages import DetailsRead, PanesPolled, PollFailed
from paw.tui.screens.main import MainScreen
from paw.tui.screens.notice import TmuxLostDialog

if TYPE_CHECKING:
    from collections.abc import Callable

    from rich.console import RenderableType
    from textual.driver import Driver
    from textual.notifications import SeverityLevel

    from paw.core.wave_view import WaveReading
    from paw.supervisor.model import SupervisorApi

ERROR_REPEAT_SECONDS = 30.0  # the same error is toasted at most this often


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
        # While it runs, Textual replaces sys.stdout with a print capture that has no
        # ``encoding``; libtmux reads sys.stdout.encoding when imported, and the connector
        # imports it then. Give the captures the attribute every text stream has.
        for name in ("_capture_stdout", "_capture_stderr"):
            capture = getattr(self, name, None)
            if capture is not None and not hasattr(capture, "encoding"):
                capture.encoding = "utf-8"
        # when to sweep and what each sweep shows: the one feed every front end uses
        self.feed = Feed(
            supervisor if supervisor is not None else NotConnected(),
            poll_interval=poll_interval,
            safety_interval=safety_interval,
            waves=waves,
            selected=self._shown_agent,
            run=self._run_job,
        )
        self.feed.subscribe(self._fed)
        self._connect = connect
        self.connect_error: BaseException | None = None  # why the connector failed, if it did
        self._close: Callable[[], None] | None = None
        self._ending = False  # exit() was called
        self.action_lock = threading.Lock()  # one human-started operation at a time
        self.kinds = kinds
        self._attach_agent = attach
        self._autopoll = autopoll
        self._last_error: tuple[str, float] | None = None
        self._tmux_lost = False
        self._long_lived = LongLived()  # short full collections (a real terminal only)

    @property
    def supervisor(self) -> SupervisorApi:
        """The supervisor the feed sweeps (a stand-in until the connector returned)."""
        return self.feed.supervisor

    @property
    def poll_lock(self) -> threading.Lock:
        """Held by each sweep."""
        return self.feed.poll_lock

    @property
    def poll_interval(self) -> float:
        """Seconds between the timer's ticks (a sweep each while no pane events arrive)."""
        return self.feed.poll_interval

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

    def _shown_agent(self) -> str | None:
        return self.main.shown_agent

    def _run_job(self, job: Callable[[], None], name: str) -> None:
        """How the feed runs a sweep or a details read: as a Textual thread worker, started
        on the UI thread (the app's shutdown and the tests' ``settle`` wait for workers)."""

        def start() -> None:
            self.run_worker(job, name=name, group=name, thread=True, exit_on_error=False)

        if self._ending or not self.is_running:
            return  # (nothing more is shown: the feed stops)
        try:
            self.call_from_thread(start)
        except RuntimeError:  # on the UI thread itself (or the app ended meanwhile)
            with contextlib.suppress(RuntimeError):
                start()
        except CancelledError:  # the app is ending
            pass

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
        self._attach_agent = connection.attach
        self.kinds = connection.kinds
        self._close = connection.close
        self.feed.use(
            connection.supervisor,
            waves=connection.waves,
            watch=connection.watch,
            live=connection.live,
            pushes=connection.pushes,
            usage=connection.usage,
        )
        self._start_polling()

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

    def on_unmount(self) -> None:
        """The app closes: the feed stops (a sweep in flight posts nothing more)."""
        self._ending = True
        self.feed.stop()

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
        """Stop the feed and release what the connector opened (the tmux control-mode
        client); idempotent."""
        self.feed.stop()
        close, self._close = self._close, None
        if close is not None:
            close()

    def _tick(self) -> None:
        self._long_lived.tick()
        if self.feed.tick():  # no sweep for a while: the ages still move, second by second
            self.main.refresh_ages()

    def events_live(self) -> bool:
        """True while pane events arrive (sweeps follow them, not the timer)."""
        return self.feed.events_live()

    def picture_handled(self) -> None:
        """The main screen handled a picture: a sweeper followed may push the next."""
        self.feed.handled()

    def request_poll(self) -> None:
        """Start a sweep now, or right after the one in flight (sweeps never pile up)."""
        self.feed.request()

    def request_details(self, agent: str) -> None:
        """Read ``agent``'s preview and diff now, or right after the read in flight."""
        self.feed.request_details(agent)

    def _fed(self, event: FeedEvent) -> None:
        """The feed's threads: a picture, the selected agent's details, a failed sweep."""
        if self._ending:
            return
        if isinstance(event, Picture):
            snapshot = event.snapshot
            self.main.post_message(
                PanesPolled(
                    snapshot, None, event.audit, wave=event.wave, waves=event.waves,
                    early=event.early,
                )
            )  # fmt: skip
            if snapshot.tmux_ok:
                self._tmux_lost = False
            else:
                self._from_thread(self.tmux_lost, snapshot.error or "tmux is not running")
        elif isinstance(event, AgentDetails):
            self.main.post_message(DetailsRead(event))
        elif isinstance(event.error, TmuxError):
            self.main.post_message(PollFailed(event.error.message, tmux_lost=True))
            self._from_thread(self.tmux_lost, event.error.message)
        else:
            self._from_thread(self.report_error, "poll", event.error)

    def _from_thread(self, callback: Callable[..., object], *args: object) -> None:
        if self._ending or not self.is_running:
            return
        with contextlib.suppress(RuntimeError, CancelledError):  # the app is ending
            self.call_from_thread(callback, *args)

    def tmux_lost(self, error: str) -> None:
        """Show the tmux-lost dialog once per outage."""
        if self._tmux_lost:
            return
        self._tmux_lost = True
        self.bell()
        self.push_screen(TmuxLostDialog(error))

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
