"""The TUI's sweeper process hands a hook channel's early look to the TUI marked early (issue
32): over real tmux and git, the real sweeper process (``python -m paw.cli.sweeper``, started
as ``paw tui`` starts it), the TUI's feed following its pushes, and paw's real hook program run
as Qwen Code runs it (the stand-in agent of :mod:`tests.support.hook_stand_in`, which draws
nothing while its hook waits).

The look's picture reaches the feed's subscribers as the feed's own look does
(:class:`~paw.supervisor.feed.Picture` with ``early`` set): no sweep counted, no push
acknowledged for it; the sweep's own picture follows with the same occurrence. The TUI's side of
it (a message that acknowledges nothing and never drops a sweep's picture) is a unit test at the
end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from libtmux.server import Server

from paw.cli.compose import build_supervisor
from paw.cli.tui import start_sweeper
from paw.supervisor.feed import Feed, FeedEvent, Picture
from paw.supervisor.model import Snapshot
from paw.tui.messages import PanesPolled
from tests.support.budget import budget
from tests.support.hook_stand_in import (
    EVENT,
    Arrivals,
    configure_stand_in,
    launched_pid,
    listed,
    stop_hooks,
)

pytestmark = [pytest.mark.tmux, pytest.mark.git]


def test_the_sweepers_early_look_reaches_the_tui_marked_early_then_its_sweep(
    git_repo: Path, server: Server, tmp_path: Path
) -> None:
    socket = server.socket_name or ""
    go = configure_stand_in(git_repo, socket, tmp_path)
    supervisor = build_supervisor(str(git_repo), socket_name=socket, control=True)
    supervisor.spawn("alice", "qwen-code", None)
    pid = launched_pid(supervisor.ctx.state)
    child = start_sweeper(supervisor, str(git_repo), None)
    assert child is not None
    feed = Feed(supervisor, safety_interval=600.0, poll_interval=600.0)
    # each picture, with the feed's sweep count when it was posted
    arrivals: Arrivals[tuple[Picture, int]] = Arrivals()
    pictures, waited = arrivals.items, arrivals.waited

    def took(event: FeedEvent) -> None:
        if isinstance(event, Picture):
            arrivals.add((event, feed.sweeps))
            if not event.early:  # as the TUI's main screen does (PanesPolled.early)
                feed.handled()

    def idle() -> bool:  # the agent is seen, proven and asking nothing
        if not pictures:
            return False
        last = pictures[-1][0].snapshot
        [view] = [v for v in last.agents if v.name == "alice"]
        return view.status.value != "starting" and not last.prompts

    try:
        assert child.wait_ready(budget(60)), child.why_gone
        feed.subscribe(took)
        feed.use(supervisor, pushes=child)
        assert feed.following
        feed.request()  # the TUI's first sweep
        assert waited(idle, 60), pictures[-1:]
        assert waited(lambda: not feed.in_flight, 30)
        before, sweeps = len(pictures), feed.sweeps
        go.write_text(json.dumps(EVENT), encoding="utf-8")  # the real hook lands it and pokes
        # the sweep's own picture that lists it (the last thing asserted on) comes
        assert waited(lambda: any(not p.early and listed(p) for p, _ in pictures[before:]), 60)
        new = pictures[before:]
        [(first, swept)] = [(p, n) for p, n in new if listed(p)][:1]
        assert first.early, [(p.early, listed(p)) for p, _ in new]
        [oid] = listed(first)
        [prompt] = [p for p in first.snapshot.prompts if p.id == oid]
        assert prompt.source.name == "channel-only"
        at = pictures.index((first, swept))
        assert swept == pictures[at - 1][1]  # the look is no sweep
        assert feed.early_looks == 1
        # it carries the last sweep's audit (nothing read for it)
        [*_, (whole, _)] = [(p, n) for p, n in pictures[:at] if not p.early]
        assert first.audit is whole.audit
        [(after, _)] = [(p, n) for p, n in new if not p.early and listed(p)][:1]
        assert listed(after) == [oid]
        assert after.snapshot.taken_at > first.snapshot.taken_at
        assert feed.sweeps > sweeps
    finally:
        feed.stop()
        child.close()
        stop_hooks(pid)
        supervisor.close()


def test_an_early_message_replaces_only_an_early_one() -> None:
    """The TUI's queue: a newer sweep's picture drops any unhandled picture; an early look
    drops only an unhandled early look (never the sweep's picture a sweeper waits to hear was
    handled: the early message acknowledges nothing)."""
    snap = Snapshot(1.0, (), ())
    sweep, look = PanesPolled(snap), PanesPolled(snap, early=True)
    assert not sweep.early
    assert sweep.can_replace(PanesPolled(snap))
    assert sweep.can_replace(PanesPolled(snap, early=True))
    assert look.can_replace(PanesPolled(snap, early=True))
    assert not look.can_replace(PanesPolled(snap))


async def test_the_main_screen_draws_an_early_picture_and_acknowledges_no_push() -> None:
    """The TUI's main screen draws an early picture as any other (its prompts listed), and
    tells the app a picture was handled (a followed sweeper may push the next) only for a
    sweep's picture."""
    import dataclasses

    from tests.tui.conftest import settle
    from tests.tui.snapshot_app import make_snapshot_app

    app, _ = make_snapshot_app("agents")
    handled: list[None] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.picture_handled = lambda: handled.append(None)  # type: ignore[method-assign]
        shown = app.main.snapshot
        assert shown is not None
        look = dataclasses.replace(shown, taken_at=shown.taken_at + 1)
        app.main.post_message(PanesPolled(look, early=True))
        await settle(pilot)
        assert app.main.snapshot is look
        assert handled == []
        whole = dataclasses.replace(shown, taken_at=shown.taken_at + 2)
        app.main.post_message(PanesPolled(whole))
        await settle(pilot)
        assert app.main.snapshot is whole
        assert handled == [None]
