"""The feed's schedule on a fake clock, run synchronously: sweeps never pile up, the rest after
a sweep is its CPU cost, the safety sweep, the wave, the pushes' fall-back, the details' pacing,
and the subscribe API a front end on another thread or an asyncio loop uses. The same feed runs
the TUI over real tmux (tests/tui)."""

from __future__ import annotations

import asyncio
import dataclasses
import queue
import threading
from collections.abc import Callable

import pytest

from paw.core.wave_view import WaveReading
from paw.errors import PawError, TmuxError
from paw.supervisor.details import (
    DETAILS_EVERY_S,
    DIFF_EVERY_S,
    PREVIEW_EVERY_S,
    USAGE_EVERY_S,
    AgentDetails,
)
from paw.supervisor.feed import Feed, FeedEvent, Picture, SweepFailed
from paw.supervisor.model import AgentStatus, AgentView, Snapshot, WorktreeStat
from paw.supervisor.pump import SWEEP_DUTY
from tests.support.budget import budget


class Clock:
    """The wall clock and the CPU clock, moved by hand (sleep moves the wall clock)."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.cpu = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


class Sweeps:
    """A supervisor whose sweep costs ``cpu`` CPU seconds and ``wall`` seconds."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.cpu = 0.0
        self.wall = 0.0
        self.polls = 0
        self.raises: BaseException | None = None
        self.status = AgentStatus.WAITING
        self.captures: list[str] = []
        self.diffs: list[str] = []

    def poll_once(self) -> Snapshot:
        self.polls += 1
        self.clock.now += self.wall
        self.clock.cpu += self.cpu
        if self.raises is not None:
            raise self.raises
        view = AgentView(
            name="a",
            kind="claude",
            pane_id="%1",
            alive=True,
            status=self.status,
            status_since=0.0,
            branch="paw/a",
            worktree="/w",
            stat=WorktreeStat(),
        )
        return Snapshot(taken_at=self.clock.now, agents=(view,), prompts=())

    def audit_tail(self, n: int) -> list[dict[str, object]]:
        return [{"n": n}]

    def capture_ansi(self, agent: str) -> str:
        self.captures.append(agent)
        return f"pane of {agent}"

    def diff(self, agent: str) -> str:
        self.diffs.append(agent)
        return f"diff of {agent}"


class Jobs:
    """Runs a job when told (``step``), or at once (``sync``)."""

    def __init__(self) -> None:
        self.waiting: list[tuple[str, Callable[[], None]]] = []
        self.sync = False

    def __call__(self, job: Callable[[], None], name: str) -> None:
        if self.sync:
            job()
        else:
            self.waiting.append((name, job))

    def step(self) -> str:
        name, job = self.waiting.pop(0)
        job()
        return name


def world(
    *, selected: str | None = None, safety: float = 30.0
) -> tuple[Feed, Clock, Sweeps, Jobs, list[FeedEvent]]:
    clock = Clock()
    sweeps = Sweeps(clock)
    jobs = Jobs()
    feed = Feed(
        sweeps,  # type: ignore[arg-type]
        poll_interval=1.0,
        safety_interval=safety,
        selected=lambda: selected,
        clock=clock,
        cpu_clock=lambda: clock.cpu,
        sleep=clock.sleep,
        run=jobs,
    )
    events: list[FeedEvent] = []
    feed.subscribe(events.append)
    return feed, clock, sweeps, jobs, events


def pictures(events: list[FeedEvent]) -> list[Picture]:
    return [e for e in events if isinstance(e, Picture)]


def flying(feed: Feed) -> bool:
    return feed.in_flight


def test_requests_while_a_sweep_runs_make_one_sweep_after_it() -> None:
    feed, _, sweeps, jobs, events = world()
    feed.request()
    feed.request()
    feed.request()
    assert [name for name, _ in jobs.waiting] == ["poll"]
    assert flying(feed)
    jobs.step()  # the sweep; the requests made meanwhile become one more
    assert [name for name, _ in jobs.waiting] == ["poll"]
    jobs.step()
    assert not jobs.waiting
    assert not flying(feed)
    assert sweeps.polls == 2
    assert len(pictures(events)) == 2
    assert pictures(events)[0].audit == [{"n": 8}]


def test_the_rest_after_a_sweep_is_its_cpu_not_its_wall_time() -> None:
    feed, clock, sweeps, jobs, _ = world()
    jobs.sync = True
    sweeps.wall, sweeps.cpu = 0.5, 0.0  # waited for tmux: no rest
    feed.request()
    assert feed.last_rest == 0.0
    sweeps.wall, sweeps.cpu = 0.5, 0.2  # burnt a core
    feed.request()
    assert feed.last_rest == pytest.approx(0.2 * SWEEP_DUTY)
    swept = sweeps.polls
    assert not feed.tick()  # the rest is not over: the timer does not sweep
    assert sweeps.polls == swept
    clock.now += 0.2 * SWEEP_DUTY
    feed.tick()
    assert sweeps.polls == swept + 1


def test_a_requested_sweep_waits_out_the_rest_first() -> None:
    feed, clock, sweeps, jobs, _ = world()
    jobs.sync = True
    sweeps.cpu = sweeps.wall = 0.4
    feed.request()
    ended = clock.now
    sweeps.cpu = sweeps.wall = 0.0
    feed.request()  # a pane drew at once: the sweep starts after the rest
    assert clock.now == pytest.approx(ended + 0.4 * SWEEP_DUTY)


def test_a_sweepers_picture_paces_by_its_own_cpu() -> None:
    feed, _, sweeps, jobs, _ = world()
    jobs.sync = True
    real = sweeps.poll_once

    def elsewhere() -> Snapshot:
        return dataclasses.replace(real(), cpu_s=0.3)

    sweeps.poll_once = elsewhere  # type: ignore[method-assign]
    sweeps.wall = 1.0
    feed.request()
    assert feed.last_rest == pytest.approx(0.3 * SWEEP_DUTY)


def test_with_pane_events_the_timer_sweeps_only_for_safety_or_a_new_wave() -> None:
    feed, clock, sweeps, jobs, _ = world(safety=30.0)
    jobs.sync = True
    wave = [WaveReading("w1", None, True)]
    feed.waves = lambda: wave[0]
    feed.request()
    feed._live = lambda: True  # pane events arrive
    swept = sweeps.polls
    clock.now += 5
    assert feed.tick()  # nothing due: the front end moves its ages
    assert sweeps.polls == swept
    wave[0] = WaveReading("w1", None, False)
    assert not feed.tick()
    assert sweeps.polls == swept + 1  # the wave changed: swept at once
    clock.now += 30
    assert not feed.tick()
    assert sweeps.polls == swept + 2  # the safety sweep
    feed._live = lambda: False  # events stopped: every tick sweeps
    clock.now += 1
    feed.tick()
    assert sweeps.polls == swept + 3


def test_a_picture_older_than_one_posted_is_dropped() -> None:
    feed, _, sweeps, _, events = world()
    newer = sweeps.poll_once()
    older = dataclasses.replace(newer, taken_at=newer.taken_at - 1)
    feed._took(newer, None, None)
    feed._took(older, None, None)
    feed._took(newer, None, None)  # the same time: posted
    assert [p.snapshot.taken_at for p in pictures(events)] == [newer.taken_at] * 2


def test_a_sweep_that_raises_is_an_event_and_the_next_sweep_comes() -> None:
    feed, _, sweeps, jobs, events = world()
    jobs.sync = True
    sweeps.raises = TmuxError("tmux is gone")
    feed.request()
    sweeps.raises = ValueError("a bug")
    feed.request()
    failed = [e.error for e in events if isinstance(e, SweepFailed)]
    assert [type(e) for e in failed] == [TmuxError, ValueError]
    assert not flying(feed)
    sweeps.raises = None
    feed.request()
    assert len(pictures(events)) == 1


def test_details_are_read_after_the_picture_and_paced() -> None:
    feed, clock, sweeps, jobs, events = world(selected="a")
    jobs.sync = True
    feed._live = lambda: True
    feed.request()
    assert [type(e) for e in events] == [Picture, AgentDetails]
    assert sweeps.captures == ["a"]
    assert sweeps.diffs == ["a"]
    feed._pushed(sweeps.poll_once(), frozenset({"%1"}))  # it drew, but was read just now
    assert sweeps.captures == ["a"]
    clock.now += PREVIEW_EVERY_S
    feed._pushed(sweeps.poll_once(), frozenset())  # its pane drew nothing: stays
    assert sweeps.captures == ["a"]
    feed._pushed(sweeps.poll_once(), frozenset({"%1"}))  # it drew: read again, not the diff
    assert sweeps.captures == ["a", "a"]
    assert sweeps.diffs == ["a"]
    assert isinstance(events[-1], AgentDetails)
    assert events[-1].diff is None
    clock.now += DIFF_EVERY_S
    sweeps.status = AgentStatus.PROMPT  # its status changed: read again, and the diff is due
    feed._pushed(sweeps.poll_once(), frozenset())
    assert sweeps.captures == ["a"] * 3
    assert sweeps.diffs == ["a", "a"]
    clock.now += DETAILS_EVERY_S
    feed._pushed(sweeps.poll_once(), frozenset())  # quiet, but not for ever
    assert sweeps.captures == ["a"] * 4


def test_the_cards_usage_line_is_read_with_the_details_paced_and_never_fails_them() -> None:
    feed, clock, sweeps, jobs, events = world(selected="a")
    jobs.sync = True
    asked: list[str] = []

    def usage(agent: str) -> str | None:
        asked.append(agent)
        if len(asked) == 3:
            raise OSError("session file vanished")
        return f"tokens {len(asked)}k in, 1 out"

    feed.use(sweeps, usage=usage)  # type: ignore[arg-type]
    feed.request_details("a")
    details = [e for e in events if isinstance(e, AgentDetails)]
    assert details[-1].usage == "tokens 1k in, 1 out"
    clock.now += DIFF_EVERY_S
    feed.request_details("a")  # read again, but the usage is not due: kept (None)
    assert asked == ["a"]
    assert [e for e in events if isinstance(e, AgentDetails)][-1].usage is None
    feed.request_details("b")  # another agent: at once
    assert asked == ["a", "b"]
    clock.now += USAGE_EVERY_S
    feed.request_details("b")  # a failing read is a line, the preview still comes
    last = [e for e in events if isinstance(e, AgentDetails)][-1]
    assert (last.agent, last.preview_ansi) == ("b", "pane of b")
    assert last.usage == "tokens unknown: session file vanished"


def test_details_reads_never_pile_up_the_latest_wins() -> None:
    feed, _, sweeps, jobs, _ = world()
    feed.request_details("a")
    feed.request_details("b")
    feed.request_details("c")
    assert [name for name, _ in jobs.waiting] == ["details"]
    jobs.step()
    jobs.step()
    assert not jobs.waiting
    assert sweeps.captures == ["a", "c"]


class FakePushes:
    def __init__(self) -> None:
        self.following = False
        self.live = True
        self.acks = 0
        self.on_picture: Callable[[Snapshot, frozenset[str]], None] | None = None
        self.on_failure: Callable[[PawError], None] | None = None
        self.on_early: Callable[[Snapshot], None] | None = None

    def follow(
        self,
        on_picture: Callable[[Snapshot, frozenset[str]], None],
        on_failure: Callable[[PawError], None],
        on_early: Callable[[Snapshot], None] | None = None,
    ) -> bool:
        self.on_picture, self.on_failure = on_picture, on_failure
        self.on_early = on_early
        self.following = True
        return True

    def events_live(self) -> bool:
        return self.following and self.live

    def handled(self) -> None:
        self.acks += 1

    def drain_touched(self) -> set[str]:
        return set()


def test_a_sweepers_pushes_are_posted_and_its_end_falls_back_to_own_events() -> None:
    feed, clock, sweeps, jobs, events = world()
    jobs.sync = True
    pushes = FakePushes()
    watched: list[Callable[[str | None], None]] = []

    def watch(listener: Callable[[str | None], None]) -> bool:
        watched.append(listener)
        return True

    feed.use(sweeps, watch=watch, live=lambda: True, pushes=pushes)  # type: ignore[arg-type]
    assert feed.events_live()
    assert not watched
    assert pushes.on_picture is not None
    assert pushes.on_failure is not None
    pushes.on_picture(sweeps.poll_once(), frozenset())
    assert len(pictures(events)) == 1
    feed.handled()
    assert pushes.acks == 1
    pushes.on_failure(TmuxError("gone"))
    assert isinstance(events[-1], SweepFailed)
    clock.now += 1
    assert feed.tick()  # the sweeper's events drive the sweeps
    assert pushes.following
    pushes.following = False  # the sweeper ended
    feed.tick()
    try:
        assert not feed.following
        assert len(watched) == 1  # this process watches the panes now
    finally:
        feed.stop()


def test_after_stop_no_sweep_and_no_event() -> None:
    feed, _, sweeps, jobs, events = world()
    jobs.sync = True
    feed.stop()
    feed.request()
    feed.request_details("a")
    feed._took(sweeps.poll_once(), None, None)
    assert sweeps.polls == 1
    assert not events


def test_an_unsubscribed_listener_hears_nothing_and_a_failing_one_stops_no_other() -> None:
    feed, _, _, jobs, events = world()
    jobs.sync = True
    heard: list[FeedEvent] = []

    def broken(event: FeedEvent) -> None:
        raise RuntimeError("a front end that broke")

    feed.subscribe(broken)
    subscription = feed.subscribe(heard.append)
    feed.request()
    subscription.close()
    subscription.close()  # idempotent
    feed.request()
    assert len(heard) == 1
    assert len(pictures(events)) == 2


def test_a_listener_on_another_thread_and_on_an_asyncio_loop() -> None:
    """What a web front end does: the feed's own threads sweep; one consumer reads a queue on
    a thread of its own, another awaits an asyncio queue fed with call_soon_threadsafe."""
    clock = Clock()
    sweeps = Sweeps(clock)
    feed = Feed(sweeps, selected=lambda: None)  # type: ignore[arg-type]
    inbox: queue.Queue[FeedEvent] = queue.Queue()
    got: list[FeedEvent] = []

    def consume() -> None:
        got.append(inbox.get(timeout=budget(30)))

    reader = threading.Thread(target=consume)
    reader.start()
    threaded = feed.subscribe(inbox.put)

    async def web() -> FeedEvent:
        loop = asyncio.get_running_loop()
        events: asyncio.Queue[FeedEvent] = asyncio.Queue()
        subscription = feed.subscribe(lambda e: loop.call_soon_threadsafe(events.put_nowait, e))
        try:
            feed.start_ticker()
            return await asyncio.wait_for(events.get(), budget(30))
        finally:
            subscription.close()

    try:
        event = asyncio.run(web())
        reader.join(budget(30))
    finally:
        threaded.close()
        feed.stop()
    assert isinstance(event, Picture)
    assert got
    assert isinstance(got[0], Picture)
