"""A fleet (a host added over the real sshd on 127.0.0.1) lists this machine's hook channel
request from the poke's early look, before the screen sweep (issue 32), and keeps the host's
agents and prompts in that picture as the last one showed them.

The feed runs as `paw tui` and `paw serve` run it over a Fleet (pane events of this machine and
of the host's tmux over ssh, its safety sweep at 600 s), with paw's real hook program run as
Qwen Code runs it (the stand-in agent of :mod:`tests.support.hook_stand_in`, which draws
nothing while its hook waits). This machine's screen sweep is held at its first tmux call: the
request must reach a picture marked early while it is held; the sweep's own picture follows
with the same occurrence. A host has no channel wired (docs/remote.md): its scripted agent's
prompt comes from its screen, as always."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from paw.cli.compose import build_fleet
from paw.supervisor.feed import Feed, Picture
from paw.supervisor.fleet import Fleet
from tests.remote.conftest import Site
from tests.support.budget import budget
from tests.support.hook_stand_in import (
    EVENT,
    HeldSurvey,
    Pictures,
    agent_table,
    channel_files,
    install_stand_in,
    launched_pid,
    listed,
    stop_hooks,
)

pytestmark = [pytest.mark.tmux, pytest.mark.git]


def _on_host(picture: Picture) -> tuple[list[str], list[str]]:
    """The host's agents and prompt ids in ``picture``."""
    snap = picture.snapshot
    agents = sorted(v.name for v in snap.agents if v.host == "box")
    return agents, sorted(p.id for p in snap.prompts if p.agent == "r1")


def test_a_fleets_early_look_lists_this_machines_request_beside_the_hosts_last_picture(
    site: Site, tmp_path: Path
) -> None:
    agent, go = install_stand_in(tmp_path)
    with (site.repo / "paw.toml").open("a", encoding="utf-8") as config:
        config.write("\n".join(["", *agent_table(agent, go), ""]))
    fleet = build_fleet(str(site.repo), control=True)  # as `paw tui` and `paw serve` build it
    assert isinstance(fleet, Fleet)
    fleet.spawn_agent("r1", "demo-safe", None, host="box")  # asks `ls -la`, on its screen
    fleet.spawn_agent("alice", "qwen-code", None)
    pid = launched_pid(fleet.local.ctx.state)

    # This machine's screen sweep, held at its first tmux call while ``hold`` is set.
    gate = HeldSurvey(fleet.local.ctx.terminal)
    held, hold, entered = gate.held, gate.hold, gate.entered
    feed = Feed(fleet, safety_interval=600.0, poll_interval=600.0)
    arrivals = Pictures()
    pictures, waited, took = arrivals.items, arrivals.waited, arrivals.took

    def settled() -> bool:  # alice seen, proven, asking nothing, its mark settled; r1 asks
        seen = fleet.local.ctx.memory.observed.get("alice")
        if not pictures or seen is None or seen[1].proc is None:
            return False
        last = pictures[-1]
        [view] = [v for v in last.snapshot.agents if v.name == "alice"]
        marks = fleet.local.ctx.memory.channel_marks
        return (
            view.status.value != "starting"
            and not [p for p in last.snapshot.prompts if p.agent == "alice"]
            and isinstance(marks.get("alice"), tuple)
            and bool(_on_host(last)[1])
        )

    feed.subscribe(took)
    feed.use(fleet, watch=fleet.watch, live=fleet.events_live)  # as the TUI connects a Fleet
    try:
        end = time.monotonic() + budget(90)
        while not settled() and time.monotonic() < end:
            feed.request()
            waited(settled, 1)
        assert settled(), [(p.early, p.snapshot.prompts) for p in pictures[-1:]]
        assert waited(lambda: not feed.in_flight, 30)
        shown = _on_host(pictures[-1])
        before = len(pictures)
        hold.set()
        go.write_text(json.dumps(EVENT), encoding="utf-8")  # the real hook lands it and pokes
        first, oid = arrivals.first_listing(
            before,
            lambda: (
                f"feed: sweeps={feed.sweeps} early_looks={feed.early_looks} "
                f"in_flight={feed.in_flight}; a sweep reached the held survey: "
                f"{entered.is_set()}; channel files: {channel_files(site.repo)}"
            ),
        )  # the look's, channel-only
        # the host's agents and prompt as the last picture showed them (nothing asked of it)
        assert _on_host(first) == shown
        assert shown[0] == ["r1"]
        assert feed.early_looks == 1
        assert entered.wait(budget(60))  # this machine's screen sweep is held all this time
        # the sweep's own picture follows: the cross-check keeps the occurrence
        held.set()
        assert waited(lambda: any(not p.early and listed(p) for p in pictures[before:]), 60)
        [after] = [p for p in pictures[before:] if not p.early and listed(p)][:1]
        assert listed(after) == [oid]
        assert _on_host(after)[0] == ["r1"]
        assert pictures.index(after) > pictures.index(first)
    finally:
        held.set()
        feed.stop()
        stop_hooks(pid)
        fleet.close()
    assert fleet.local.publish_early is None  # the feed's look went with it
