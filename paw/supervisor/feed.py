"""The feed: when to sweep, and the pictures it makes, for every front end (no Textual here).

A front end (the TUI today, a web page later) subscribes and receives :data:`FeedEvent` values
on the feed's threads: each sweep's :class:`Picture`, the selected agent's
:class:`AgentDetails` read after it, a :class:`SweepFailed`. The feed schedules the sweeps in
one of two modes:

- its own: pane events (``watch``) feed an :class:`~paw.supervisor.pump.EventPump` whose
  firing asks for a sweep; without events, :meth:`Feed.tick` sweeps every ``poll_interval``;
- a sweeper process's (``pushes``): the sweeper sweeps on its own pane events and pushes its
  pictures, which the feed posts as if it had swept; it falls back to its own mode when the
  sweeper ends.

Either way a sweep runs at once or right after the one in flight (sweeps never pile up), the
next one rests for the last one's CPU cost (``SWEEP_DUTY``), and with events arriving the
timer sweeps only every ``safety_interval`` (and when the wave changed). The selected agent's
preview and diff are read after the picture, paced on the clock
(:class:`~paw.supervisor.details.DetailsPacing`).

A sweep a hook channel's poke started first makes a channel-only look (the supervisor's
``publish_early``, which :meth:`Feed.use` sets where it sweeps itself; a Fleet's look is this
machine's beside the hosts' last picture): its picture is posted at once as a :class:`Picture`
with ``early`` set (no details, no sweep counted, the last picture's audit and wave), and the
screen sweep's own picture follows as always. A followed sweeper's look (its ``("early", ...)``
frame) is posted the same way. An early picture older than the newest picture posted is dropped.

Everything here is thread-safe: :meth:`Feed.request`, :meth:`Feed.tick`,
:meth:`Feed.subscribe` and :meth:`Subscription.close` may be called from any thread. A
listener runs on the feed's threads and must not block; an asyncio consumer hands each event
to its loop (``loop.call_soon_threadsafe(queue.put_nowait, event)``), Textual posts a message.
The clock, the CPU clock, ``sleep`` and how a job runs are parameters: tests drive the feed on
a fake clock, synchronously (tests/supervisor/test_feed.py).
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

from paw.errors import PawError, TmuxError
from paw.supervisor.details import DetailsPacing
from paw.supervisor.pictures import EarlyLooks, FeedEvent, Picture, Pushes, SweepFailed
from paw.supervisor.pump import EventPump, agent_panes, duty_rest

if TYPE_CHECKING:
    from collections.abc import Callable

    from paw.core.wave_view import WaveReading
    from paw.supervisor.model import Snapshot, SupervisorApi

# The feed's API: what front ends import (the events are :mod:`paw.supervisor.pictures`').
__all__ = [
    "SAFETY_SWEEP_S",
    "EarlyLooks",
    "Feed",
    "FeedEvent",
    "Picture",
    "Pushes",
    "Subscription",
    "SweepFailed",
]

AUDIT_LINES = 8  # audit records each picture carries
SAFETY_SWEEP_S = 30.0  # with pane events arriving, a full sweep at least this often anyway


def _in_thread(job: Callable[[], None], name: str) -> None:
    threading.Thread(target=job, name=f"paw-feed-{name}", daemon=True).start()


class Subscription:
    """One listener's place in the feed; :meth:`close` ends it (idempotent, any thread)."""

    def __init__(self, feed: Feed, listener: Callable[[FeedEvent], object]) -> None:
        self._feed = feed
        self.listener = listener

    def close(self) -> None:
        """No more events for this listener (one being delivered may still arrive)."""
        self._feed.unsubscribe(self)


class Feed:
    """The one schedule of sweeps; see the module's docstring."""

    def __init__(
        self,
        supervisor: SupervisorApi,
        *,
        poll_interval: float = 1.0,
        safety_interval: float = SAFETY_SWEEP_S,
        waves: Callable[[], WaveReading | None] | None = None,
        selected: Callable[[], str | None] = lambda: None,
        clock: Callable[[], float] = time.monotonic,
        cpu_clock: Callable[[], float] = time.thread_time,
        sleep: Callable[[float], None] = time.sleep,
        run: Callable[[Callable[[], None], str], None] = _in_thread,
    ) -> None:
        """Sweep ``supervisor``; ``selected`` names the agent whose details are read (the
        front end's selection); ``run(job, name)`` runs a sweep or a details read (default:
        a thread of its own)."""
        self.supervisor = supervisor
        self.poll_interval = poll_interval
        self.safety_interval = safety_interval
        self.waves = waves
        self.selected = selected
        self._clock = clock
        self._cpu_clock = cpu_clock
        self._sleep = sleep
        self._run = run
        self.poll_lock = threading.Lock()  # one sweep at a time
        self._lock = threading.Lock()  # the flags below
        self._subscriptions: tuple[Subscription, ...] = ()
        self._stopped = False
        self._in_flight = False
        self._again = False
        self._details_in_flight = False
        self._details_again: str | None = None
        self._next_sweep = 0.0  # clock() before which the timer does not sweep
        self._last_sweep = 0.0  # clock() when the last sweep started (or a push came)
        self._sweep_cpu = 0.0  # the CPU seconds the last sweep's picture says it took
        self.last_rest = 0.0  # seconds the next sweep waits after the last one (SWEEP_DUTY)
        self.sweeps = 0  # pictures posted
        self._live: Callable[[], bool] | None = None
        self._pump: EventPump | None = None
        self._pushes: Pushes | None = None
        self._watch_with: Callable[[Callable[[str | None], None]], bool] | None = None
        self._watch_live: Callable[[], bool] | None = None
        self._following = False  # the pictures are a sweeper's pushes (no pump here)
        self._took_lock = threading.Lock()  # a picture's aftermath: one picture at a time
        self._posted_at = float("-inf")  # the taken_at of the newest picture posted
        self._last_picture: Picture | None = None  # the newest picture posted (not early)
        self.early_looks = 0  # early pictures posted
        self._looks_of: EarlyLooks | None = None  # the supervisor whose early looks post here
        self._paced = DetailsPacing(clock)  # when the selected agent's details are read
        self._wave_seen: WaveReading | None = None  # the wave as last read
        self._ticker: threading.Thread | None = None
        self._ticking = threading.Event()

    def subscribe(self, listener: Callable[[FeedEvent], object]) -> Subscription:
        """Call ``listener`` with every event from now on, on the feed's threads."""
        subscription = Subscription(self, listener)
        with self._lock:
            self._subscriptions = (*self._subscriptions, subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        """Stop calling ``subscription``'s listener (idempotent)."""
        with self._lock:
            self._subscriptions = tuple(s for s in self._subscriptions if s is not subscription)

    def _emit(self, event: FeedEvent) -> None:
        if self._stopped:
            return
        for subscription in self._subscriptions:
            try:
                subscription.listener(event)
            except Exception:  # noqa: BLE001, S112 - one front end's failure is its own
                continue

    def use(
        self,
        supervisor: SupervisorApi,
        *,
        waves: Callable[[], WaveReading | None] | None = None,
        watch: Callable[[Callable[[str | None], None]], bool] | None = None,
        live: Callable[[], bool] | None = None,
        pushes: Pushes | None = None,
        usage: Callable[[str], str | None] | None = None,
    ) -> None:
        """Sweep ``supervisor`` from now on: follow ``pushes`` if they start, else drive the
        sweeps by the pane events ``watch(listener)`` reports (``live()``: they arrive);
        ``usage`` reads an agent's usage line for its card (see DetailsPacing)."""
        self.supervisor = supervisor
        self.waves = waves or self.waves
        self._paced.usage = usage or self._paced.usage
        if isinstance(supervisor, EarlyLooks) and supervisor.publish_early is None:
            # (a sweeper process's supervisor publishes its own: this one sweeps only when
            # the sweeper gives no picture, and then its look is posted here)
            supervisor.publish_early = self._early
            self._looks_of = supervisor
        self._watch_with, self._watch_live = watch, live
        self._pushes = pushes
        if pushes is not None and pushes.follow(self._pushed, self._push_failed, self._early):
            self._following = True
        else:
            self._watch()

    def _watch(self) -> None:
        """Pane events of this process's own event client drive the sweeps (no pushes)."""
        watch, live = self._watch_with, self._watch_live
        if watch is None or self._pump is not None or self._stopped:
            return
        pump = EventPump(self._pane_event_due)
        if watch(pump.note):
            self._pump = pump
            self._live = live
            pump.start()

    def _pane_event_due(self) -> None:
        """The event pump's thread: a pane drew or the structure changed; sweep now."""
        self.request()

    def events_live(self) -> bool:
        """True while pane events arrive (sweeps follow them, not the timer): this process's
        own, or the sweeper's whose pictures are followed."""
        if self._following:
            return self._pushes is not None and self._pushes.events_live()
        return self._live is not None and self._live()

    @property
    def following(self) -> bool:
        """The pictures are a sweeper's pushes."""
        return self._following

    def handled(self) -> None:
        """The front end handled a picture: a sweeper followed may push the next."""
        if self._following and self._pushes is not None:
            self._pushes.handled()

    def _pushed(self, snapshot: Snapshot, touched: frozenset[str]) -> None:
        """The sweeper's reader thread: a picture of the sweeper's own sweep."""
        if self._stopped:
            return
        self._last_sweep = self._clock()  # (the safety sweep is due this long after it)
        details = self._took(snapshot, set(touched), self.selected())
        if details is not None:
            self.request_details(details)

    def _push_failed(self, error: PawError) -> None:
        """The sweeper's reader thread: a sweep of the sweeper's own failed."""
        self._emit(SweepFailed(error))

    @property
    def in_flight(self) -> bool:
        """A sweep runs (or is about to)."""
        return self._in_flight

    def tick(self) -> bool:
        """The timer (every ``poll_interval``): sweep when one is due. Returns True when
        nothing is due for a while because pane events drive the sweeps (a front end may move
        its ages meanwhile)."""
        now = self._clock()
        if self._following and not (self._pushes is not None and self._pushes.following):
            self._following = False  # the sweeper ended: watch the panes here instead
            self._watch()
        if self.events_live() and now - self._last_sweep < self.safety_interval:
            # Pane events drive the sweeps; this is only the safety sweep. A wave's runner is
            # no pane: its state file and its life are looked at here (a stat and a kill -0
            # when nothing changed), and a change is swept at once.
            if self._wave_changed():
                self.request()
                return False
            return True
        if now >= self._next_sweep:
            self.request()
        return False

    def start_ticker(self) -> None:
        """Tick every ``poll_interval`` on a thread of its own, for a front end without a
        timer of its own (the TUI ticks from its own); :meth:`stop` ends it."""
        if self._ticker is not None:
            return

        def run() -> None:
            while not self._ticking.wait(self.poll_interval):
                self.tick()

        self._ticker = threading.Thread(target=run, name="paw-feed-ticker", daemon=True)
        self._ticker.start()
        self.request()

    def stop(self) -> None:
        """No more sweeps or events; the event pump and the ticker end (idempotent)."""
        self._stopped = True
        self._ticking.set()
        looks, self._looks_of = self._looks_of, None
        if looks is not None and looks.publish_early == self._early:
            looks.publish_early = None
        pump, self._pump = self._pump, None
        if pump is not None:
            pump.stop()

    def request(self) -> None:
        """Start a sweep now, or right after the one in flight (sweeps never pile up)."""
        with self._lock:
            if self._stopped:
                return
            if self._in_flight:
                self._again = True
                return
            self._in_flight = True
            self._again = False
        self._run(self._poll, "poll")

    def _poll(self) -> None:
        """One sweep: snapshot, audit tail, wave; then the selected agent's details.

        Sweeps hold ``poll_lock`` only; approvals run beside them (the supervisor serialises
        what must be serial with its own cross-process locks), so a slow sweep never delays
        a decision."""
        rest = self._next_sweep - self._clock()
        if rest > 0:  # the last sweep's share of the time is not over yet
            self._sleep(min(rest, self.poll_interval))
        started, cpu = self._clock(), self._cpu_clock()
        self._last_sweep = started
        details: str | None = None
        failure: BaseException | None = None
        self._sweep_cpu = 0.0
        try:
            with self.poll_lock:
                details = self._sweep(self.selected())
        except Exception as err:  # noqa: BLE001 - a front end shows it; the next sweep comes
            failure = err
        finally:
            ended = self._clock()
            cost = max(self._cpu_clock() - cpu, self._sweep_cpu)  # (here, or the sweeper's)
            self.last_rest = duty_rest(cost, ended - started)
            self._next_sweep = ended + self.last_rest
            with self._lock:
                self._in_flight = False
                again = self._again
            if again:
                self.request()
        if failure is not None:
            self._emit(SweepFailed(failure))
        if details is not None:  # read beside the next sweep, never in its way
            self.request_details(details)

    def _sweep(self, agent: str | None) -> str | None:
        """One sweep; the picture is posted. Returns the selected agent whose preview and
        diff are to be read again (None: they may stay)."""
        pump = self._pump
        touched = pump.drain() if pump is not None and self.events_live() else None
        try:
            snapshot = self.supervisor.poll_once()
            self._sweep_cpu = snapshot.cpu_s
        except TmuxError as err:
            self._emit(SweepFailed(err))
            return None
        pushes = self._pushes
        if self._following and pushes is not None:  # what the sweeper's answers say drew
            drawn = pushes.drain_touched()
            touched = drawn if self.events_live() else None
        if pump is not None and snapshot.tmux_ok:
            pump.only(agent_panes(snapshot))
        return self._took(snapshot, touched, agent)

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
            self.sweeps += 1
            # The picture goes first: a new prompt is on screen without waiting for the
            # selected agent's preview and diff, which follow in their own event.
            picture = Picture(snapshot, audit, wave, self.waves is not None)
            self._last_picture = picture
            self._emit(picture)
            if not snapshot.tmux_ok:
                return None
            if agent and not self._paced.current(agent, snapshot, touched):
                self._paced.reading(agent, snapshot)
                return agent
            return None

    def _early(self, snapshot: Snapshot) -> None:
        """The supervisor's channel-only look, made inside a poked sweep before its screens
        are captured (on whichever thread sweeps, or a followed sweeper's, on its reader
        thread): posted at once, marked ``early``. It is no sweep's picture: the details, the
        sweep count and the safety sweep's clock wait for the screen sweep, whose picture
        follows."""
        if self._stopped:
            return
        with self._took_lock:
            if snapshot.taken_at < self._posted_at:
                return  # a newer whole picture is out: an older look never takes its place
            last = self._last_picture
            audit = last.audit if last is not None else self.supervisor.audit_tail(AUDIT_LINES)
            wave = last.wave if last is not None else self._read_wave()
            self.early_looks += 1
            self._emit(Picture(snapshot, audit, wave, self.waves is not None, early=True))

    def _read_wave(self) -> WaveReading | None:
        """The latest wave (its reader parses the state file only when it changed)."""
        if self.waves is None:
            return None
        try:
            reading = self.waves()
        except Exception as err:  # noqa: BLE001 - a wave that cannot be read is a line, not a crash
            from paw.core.wave_view import WaveReading

            reading = WaveReading("?", None, False, f"paw could not read the wave state: {err}")
        self._wave_seen = reading
        return reading

    def _wave_changed(self) -> bool:
        """Whether the wave differs from the one the last sweep read (state or runner)."""
        if self.waves is None or self._in_flight:
            return False
        before = self._wave_seen
        return self._read_wave() != before

    def request_details(self, agent: str) -> None:
        """Read ``agent``'s preview and diff now, or right after the read in flight (reads
        never pile up: the latest request wins)."""
        with self._lock:
            if self._stopped:
                return
            if self._details_in_flight:
                self._details_again = agent
                return
            self._details_in_flight = True
            self._details_again = None
        self._run(lambda: self._read_details(agent), "details")

    def _read_details(self, agent: str) -> None:
        """The agent's pane preview and diff (a capture and a `git diff`), outside the sweep:
        a new prompt's sweep does not wait for them."""
        try:
            details = self._paced.read(self.supervisor, agent)
            if details is not None:
                self._emit(details)
        except Exception:  # noqa: BLE001, S110 - the next sweep reads them again
            pass
        finally:
            with self._lock:
                self._details_in_flight = False
                again, self._details_again = self._details_again, None
            if again is not None:
                self.request_details(again)
