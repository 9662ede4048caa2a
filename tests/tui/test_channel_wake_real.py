"""A hook channel's request wakes the TUI's sweeper (issue 32): over real tmux and git, the TUI's
own loop (its :class:`~paw.supervisor.feed.Feed` following the sweeper process,
``python -m paw.cli.sweeper``, with a safety sweep of 600 s and no timer), and paw's real hook
program run as Qwen Code runs it (``bash -c <command>`` by the agent's own process, which here is
a script named ``qwen`` that draws nothing while its hook waits, as Qwen draws no dialog:
:mod:`tests.support.hook_stand_in`).

Nothing on the pane changes when the record lands, so only the hook's poke can start the sweep
that lists it, and only the channel's changed mark can make that sweep read the channel of an
agent whose screen it would otherwise keep."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from libtmux.server import Server

from paw.cli.compose import build_supervisor
from paw.cli.tui import start_sweeper
from paw.supervisor.feed import Feed, FeedEvent, Picture
from tests.support.budget import budget
from tests.support.hook_stand_in import (
    COMMAND,
    EVENT,
    Pictures,
    configure_stand_in,
    launched_pid,
    stop_hooks,
)

pytestmark = [pytest.mark.tmux, pytest.mark.git]


def test_a_channel_only_request_is_listed_by_the_hooks_poke_not_the_safety_sweep(
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
    arrivals = Pictures()
    pictures, waited = arrivals.items, arrivals.waited

    def took(event: FeedEvent) -> None:
        arrivals.took(event)
        if isinstance(event, Picture):
            feed.handled()

    def listed() -> bool:
        return any(
            p.prompt.subject == COMMAND for pic in pictures[-1:] for p in pic.snapshot.prompts
        )

    def idle() -> bool:  # the agent is seen, proven and asking nothing
        if not pictures:
            return False
        [view] = [v for v in pictures[-1].snapshot.agents if v.name == "alice"]
        return view.status.value != "starting" and not pictures[-1].snapshot.prompts

    try:
        assert child.wait_ready(budget(60)), child.why_gone
        feed.subscribe(took)
        feed.use(supervisor, pushes=child)
        assert feed.following
        feed.request()  # the TUI's first sweep
        assert waited(idle, 60), pictures[-1:]
        # Land the request. The pane draws nothing more: a picture that lists it can only come
        # from a sweep the hook's poke started (or one a count beside the sweeps asked for,
        # which without the channel's changed mark keeps the agent's idle observation).
        before = len(pictures)
        go.write_text(json.dumps(EVENT), encoding="utf-8")
        landed = time.monotonic()
        assert waited(listed, 30), [p.snapshot.prompts for p in pictures[before:]]
        took_s = time.monotonic() - landed
        [prompt] = [p for p in pictures[-1].snapshot.prompts if p.prompt.subject == COMMAND]
        assert prompt.source.name == "channel-only"
        assert took_s < 60  # far below the 600 s safety sweep
        # the sweeper's FIFO is the only one, and it goes with the sweeper
        wake = git_repo / ".paw" / "channels" / ".wake"
        assert len(list(wake.glob("*.fifo"))) == 1
    finally:
        feed.stop()
        child.close()
        stop_hooks(pid)
        supervisor.close()
    assert not list((git_repo / ".paw" / "channels" / ".wake").glob("*.fifo"))
