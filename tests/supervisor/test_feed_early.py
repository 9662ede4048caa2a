"""The feed posts a poked sweep's channel-only look at once, as an early picture (issue 32): on
a fake clock, synchronously, with a supervisor that makes the look inside its sweep the way
:meth:`paw.supervisor.service.Supervisor.poll_once` does. The same path over real tmux, git and
paw's real hook program: tests/web/test_serve_early_real.py."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from paw.supervisor.feed import Feed, FeedEvent
from paw.supervisor.model import Snapshot
from tests.supervisor.test_feed import Clock, FakePushes, Jobs, Sweeps, pictures


class Looks(Sweeps):
    """A supervisor whose next sweep, when ``poked``, first gives ``publish_early`` a look."""

    def __init__(self, clock: Clock) -> None:
        super().__init__(clock)
        self.publish_early: Callable[[Snapshot], None] | None = None
        self.poked = False
        self.audits = 0

    def poll_once(self) -> Snapshot:
        poked, self.poked = self.poked, False
        early = self.publish_early
        if poked and early is not None:
            early(dataclasses.replace(self._picture(), prompts=()))
        self.clock.now += 0.5  # the screen sweep starts after the look
        return super().poll_once()

    def _picture(self) -> Snapshot:
        return Snapshot(taken_at=self.clock.now, agents=(), prompts=())

    def audit_tail(self, n: int) -> list[dict[str, object]]:
        self.audits += 1
        return super().audit_tail(n)


def early_world(
    selected: str | None = "a",
) -> tuple[Feed, Clock, Looks, Jobs, list[FeedEvent]]:
    clock = Clock()
    looks = Looks(clock)
    jobs = Jobs()
    feed = Feed(
        looks,  # type: ignore[arg-type]
        selected=lambda: selected,
        clock=clock,
        cpu_clock=lambda: clock.cpu,
        sleep=clock.sleep,
        run=jobs,
    )
    events: list[FeedEvent] = []
    feed.subscribe(events.append)
    feed.use(looks)  # type: ignore[arg-type]
    return feed, clock, looks, jobs, events


def test_a_poked_sweeps_look_is_posted_early_then_the_sweeps_own_picture() -> None:
    feed, _, looks, jobs, events = early_world()
    assert looks.publish_early == feed._early
    feed.request()
    assert jobs.step() == "poll"
    assert jobs.step() == "details"
    assert [p.early for p in pictures(events)] == [False]
    audits, last_sweep, swept = looks.audits, feed._last_sweep, feed.sweeps
    looks.poked = True
    feed.request()
    assert jobs.step() == "poll"
    posted = pictures(events)[1:]
    # the look first, marked early, with the last picture's audit and wave (nothing read for
    # it); then the screen sweep's own picture, which a subscriber needing the cross-check gets
    assert [p.early for p in posted] == [True, False]
    assert posted[0].snapshot.taken_at < posted[1].snapshot.taken_at
    assert posted[0].audit == pictures(events)[0].audit
    assert looks.audits == audits + 1  # the sweep's picture only
    assert feed.early_looks == 1
    assert feed.sweeps == swept + 1  # the look is no sweep
    assert feed._last_sweep > last_sweep


def test_an_early_look_older_than_a_posted_picture_is_dropped() -> None:
    feed, _, looks, jobs, events = early_world(selected=None)
    feed.request()
    jobs.step()
    [newest] = pictures(events)
    older = dataclasses.replace(newest.snapshot, taken_at=newest.snapshot.taken_at - 1)
    assert looks.publish_early is not None
    looks.publish_early(older)  # (a look made before the sweep that was posted)
    assert pictures(events) == [newest]
    assert feed.early_looks == 0
    same = dataclasses.replace(newest.snapshot, taken_at=newest.snapshot.taken_at + 1)
    looks.publish_early(same)
    assert [p.early for p in pictures(events)] == [False, True]
    # an early picture never stands in for the newest whole picture of later looks
    assert feed._last_picture is newest


def test_the_feed_sets_only_an_unset_look_and_unsets_its_own_when_it_stops() -> None:
    feed, _, looks, _, _ = early_world()
    feed.stop()
    assert looks.publish_early is None
    clock = Clock()
    theirs = Looks(clock)
    mine: list[Snapshot] = []
    theirs.publish_early = mine.append  # (a sweeper process publishes its own)
    other = Feed(theirs, clock=clock, run=Jobs())  # type: ignore[arg-type]
    other.use(theirs)  # type: ignore[arg-type]
    assert theirs.publish_early == mine.append
    other.stop()
    assert theirs.publish_early == mine.append
    # a supervisor with no look of its own
    plain = Sweeps(clock)
    third = Feed(plain, clock=clock, run=Jobs())  # type: ignore[arg-type]
    third.use(plain)  # type: ignore[arg-type]
    assert not hasattr(plain, "publish_early")
    third.stop()


def test_a_look_after_the_feed_stopped_is_not_posted() -> None:
    feed, _, looks, _, events = early_world()
    early = looks.publish_early
    assert early is not None
    feed.stop()
    early(Snapshot(taken_at=5000.0, agents=(), prompts=()))
    assert not pictures(events)


def test_a_sweepers_early_look_is_posted_as_the_feeds_own_look() -> None:
    """A followed sweeper's look (``("early", ...)`` on its pipe: paw.cli.sweep_child) is
    posted early as the feed's own look is: no sweep counted, no details, no acknowledgement
    owed, the last picture's audit; one older than the newest picture posted is dropped.
    Over the real sweeper process: tests/tui/test_sweeper_early_real.py."""
    feed, clock, looks, jobs, events = early_world()
    jobs.sync = True
    pushes = FakePushes()
    feed.use(looks, pushes=pushes)  # type: ignore[arg-type]
    assert pushes.on_picture is not None
    assert pushes.on_early is not None
    pushes.on_picture(looks.poll_once(), frozenset({"%1"}))
    [whole] = pictures(events)
    swept, last_sweep = feed.sweeps, feed._last_sweep
    read, audits = (len(looks.captures), len(looks.diffs)), looks.audits
    clock.now += 1
    look = Snapshot(taken_at=clock.now, agents=(), prompts=())
    pushes.on_early(look)
    [_, early] = pictures(events)
    assert early.early
    assert early.snapshot is look
    assert early.audit is whole.audit
    assert feed.sweeps == swept
    assert feed.early_looks == 1
    assert (len(looks.captures), len(looks.diffs)) == read  # no details read for it
    assert looks.audits == audits  # nor its audit
    assert feed._last_sweep == last_sweep
    assert feed._last_picture is whole
    # the sweep's own picture follows; a look older than it, arriving late, is dropped
    clock.now += 1
    pushes.on_picture(looks.poll_once(), frozenset())
    pushes.on_early(look)
    assert [p.early for p in pictures(events)] == [False, True, False]
    assert feed.early_looks == 1
    feed.stop()
