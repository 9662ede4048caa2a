"""`paw serve`'s feed lists a hook channel's request from the poke's early look, before the
screen sweep (issue 32): over real tmux (control mode's pane events) and git, the feed
:func:`paw.cli.serve.start_feed` starts (its safety sweep set to 600 s), the page's
:class:`~paw.web.source.Source` over it, and paw's real hook program run as Qwen Code runs it
(the stand-in agent of :mod:`tests.support.hook_stand_in`, which draws nothing while its
hook waits).

The screen sweep the poke starts is held at its first tmux call until the test lets it go: the
request must reach the page (its picture, and an open page's stream woken) while it is held, in
a picture marked early; the screen sweep's own picture follows with the same occurrence."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path

import pytest
from libtmux.server import Server

from paw.cli.compose import build_fleet
from paw.cli.serve import start_feed
from paw.supervisor.service import Supervisor
from paw.web.source import Source
from tests.support.budget import budget
from tests.support.hook_stand_in import (
    EVENT,
    HeldSurvey,
    Pictures,
    channel_files,
    configure_stand_in,
    launched_pid,
    listed,
    stop_hooks,
)

pytestmark = [pytest.mark.tmux, pytest.mark.git]


def test_paw_serves_feed_lists_a_channel_request_from_the_pokes_early_look(
    git_repo: Path, server: Server, tmp_path: Path
) -> None:
    socket = server.socket_name or ""
    go = configure_stand_in(git_repo, socket, tmp_path)
    sup = build_fleet(str(git_repo), socket, control=True)  # as `paw serve` builds it
    assert isinstance(sup, Supervisor)  # (no host added)
    sup.spawn("alice", "qwen-code", None)
    pid = launched_pid(sup.ctx.state)

    # The screen sweep, held at its first tmux call while ``hold`` is set.
    gate = HeldSurvey(sup.ctx.terminal)
    held, hold, entered = gate.held, gate.hold, gate.entered
    arrivals = Pictures()
    pictures, waited, took = arrivals.items, arrivals.waited, arrivals.took

    def idle() -> bool:  # seen, proven, asking nothing, its channel's mark settled
        seen = sup.ctx.memory.observed.get("alice")
        if not pictures or seen is None or seen[1].proc is None:
            return False
        [view] = [v for v in pictures[-1].snapshot.agents if v.name == "alice"]
        marks = sup.ctx.memory.channel_marks
        return (
            view.status.value != "starting"
            and not pictures[-1].snapshot.prompts
            and isinstance(marks.get("alice"), tuple)
        )

    loop = asyncio.new_event_loop()
    looping = threading.Thread(target=loop.run_forever, daemon=True)
    looping.start()
    feed = start_feed(sup)
    feed.safety_interval = 600.0  # only a pane event or a poke sweeps
    source = Source(sup, time.time, feed)
    source.start()
    feed.subscribe(took)
    try:
        # sweep until the agent is idle and proven (the test asks, as a page's first read)
        end = time.monotonic() + budget(60)
        while not idle() and time.monotonic() < end:
            feed.request()
            waited(idle, 1)
        assert idle(), pictures[-1:]
        assert waited(lambda: not feed.in_flight, 30)
        # an open page's stream waits for the next picture
        changed = asyncio.run_coroutine_threadsafe(_changes(source), loop).result(budget(30))
        before = len(pictures)
        hold.set()
        go.write_text(json.dumps(EVENT), encoding="utf-8")  # the real hook lands it and pokes
        first, oid = arrivals.first_listing(
            before,
            lambda: (
                f"feed: sweeps={feed.sweeps} early_looks={feed.early_looks} "
                f"in_flight={feed.in_flight}; a sweep reached the held survey: "
                f"{entered.is_set()}; channel files: {channel_files(git_repo)}"
            ),
        )  # the look's, channel-only
        # the page reads it, and an open page's stream was woken by it
        assert [p.id for p in source.read_board().snapshot.prompts] == [oid]
        woken = asyncio.run_coroutine_threadsafe(_woken(changed), loop)
        assert woken.result(budget(30))
        assert feed.early_looks >= 1
        assert entered.wait(budget(60))  # the screen sweep is held all this time
        # the screen sweep's own picture follows: the cross-check keeps the occurrence
        held.set()
        assert waited(lambda: any(not p.early and listed(p) for p in pictures[before:]), 60)
        [after] = [p for p in pictures[before:] if not p.early and listed(p)][:1]
        assert listed(after) == [oid]
        assert pictures.index(after) > pictures.index(first)
        assert all(p.early or not listed(p) for p in pictures[before : pictures.index(first)])
    finally:
        held.set()
        feed.stop()
        loop.call_soon_threadsafe(loop.stop)
        looping.join(budget(30))
        loop.close()
        stop_hooks(pid)
        sup.close()


async def _changes(source: Source) -> asyncio.Event:
    return source.changes()


async def _woken(changed: asyncio.Event) -> bool:
    try:
        await asyncio.wait_for(changed.wait(), budget(20))
    except TimeoutError:
        return False
    return True
