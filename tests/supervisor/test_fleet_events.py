"""Fleet's pane events: every machine's events reach one listener, a host's panes by key."""

from __future__ import annotations

import dataclasses
from typing import Any

from paw.supervisor.fleet import HOST_REFRESH_S, Fleet
from paw.supervisor.fleet_hosts import HostRecord, Remote
from paw.supervisor.model import AgentStatus, AgentView, Snapshot, WorktreeStat, pane_key
from tests.support.fakes import FakeTerminal
from tests.support.supervision import demo_screen, make_rig, spawn_demo, with_ports


class EventTerminal(FakeTerminal):
    """A fake terminal that reports pane events when told to (as the tmux adapters do)."""

    def __init__(self, *, can_watch: bool = True) -> None:
        super().__init__()
        self.can_watch = can_watch
        self.listeners: list[object] = []
        self.live = False

    def watch(self, listener: object) -> bool:
        if not self.can_watch:
            return False
        self.listeners.append(listener)
        return True

    def events_live(self) -> bool:
        return self.live

    def emit(self, pane: str | None) -> None:
        for listener in self.listeners:
            listener(pane)  # type: ignore[operator]


class NoLink:
    def connect(self) -> None: ...
    def disconnect(self) -> None: ...
    def close(self) -> None: ...


def _fleet(*, host_watches: bool = True) -> tuple[Fleet, EventTerminal, EventTerminal]:
    here, there = make_rig(), make_rig()
    local, remote = EventTerminal(), EventTerminal(can_watch=host_watches)
    here.terminal = local
    there.terminal = remote
    with_ports(here.sup, terminal=local)
    with_ports(there.sup, terminal=remote)
    spawn_demo(there, "r1", demo_screen("shell", "ls"))
    record = HostRecord(name="box", url="ssh://me@box", repo="/src/app")
    return Fleet(here.sup, {"box": Remote(record, NoLink(), there.sup)}), local, remote


def _attached(*terminals: EventTerminal) -> None:
    """The event clients attach (and report it, as tmux_events does: a structure change)."""
    for terminal in terminals:
        terminal.live = True
        terminal.emit(None)


def _count_host_sweeps(fleet: Fleet) -> list[int]:
    """A list that grows by one at each sweep of host ``box``."""
    host = fleet.remotes["box"].supervisor
    sweep, swept = host.poll_once, []

    def counted(**kwargs: Any) -> Snapshot:
        swept.append(1)
        return sweep(**kwargs)

    host.poll_once = counted  # type: ignore[method-assign]
    return swept


def _later(fleet: Fleet, seconds: float) -> None:
    """Move this machine's clock on."""
    now = fleet.local.ctx.clock() + seconds
    with_ports(fleet.local, clock=lambda: now)


def test_every_machines_events_reach_one_listener_host_panes_by_key() -> None:
    fleet, local, remote = _fleet()
    heard: list[str | None] = []
    assert fleet.watch(heard.append)
    local.emit("%1")
    remote.emit("%1")  # the host's server numbers its panes from %0 too
    remote.emit(None)  # the host's event client dropped or reconnected
    assert heard == ["%1", "box:%1", None]


def test_live_only_while_every_machine_reports() -> None:
    fleet, local, remote = _fleet()
    assert fleet.watch(lambda pane: None)
    assert not fleet.events_live()
    local.live = True
    assert not fleet.events_live()  # the host's client is down: keep the poll cycle
    remote.live = True
    assert fleet.events_live()


def test_a_host_without_events_keeps_the_poll_cycle() -> None:
    fleet, local, remote = _fleet(host_watches=False)
    assert fleet.watch(lambda pane: None)  # this machine's events still start sweeps
    local.live = remote.live = True
    assert not fleet.events_live()


def test_an_agents_event_key_names_its_machine() -> None:
    view = AgentView(
        name="a", kind="demo", pane_id="%4", alive=True, status=AgentStatus.IDLE,
        status_since=0.0, branch="b", worktree="/w", stat=WorktreeStat(),
    )  # fmt: skip
    assert view.event_key == "%4"
    assert dataclasses.replace(view, host="local").event_key == "%4"
    assert dataclasses.replace(view, host="box").event_key == pane_key("box", "%4") == "box:%4"
    assert dataclasses.replace(view, pane_id=None).event_key is None


def test_a_host_is_swept_only_after_its_own_events_while_they_arrive() -> None:
    fleet, local, remote = _fleet()
    swept = _count_host_sweeps(fleet)
    assert fleet.watch(lambda pane: None)
    fleet.poll_once()
    assert len(swept) == 1  # events not live yet: every sweep asks the host
    _attached(local, remote)
    fleet.poll_once()
    assert len(swept) == 2
    local.emit("%1")  # this machine drew: the host's last picture is reused
    fleet.poll_once()
    fleet.poll_once()
    assert len(swept) == 2
    remote.emit("%1")  # the host drew: it is asked again, once
    fleet.poll_once()
    fleet.poll_once()
    assert len(swept) == 3
    _later(fleet, HOST_REFRESH_S)  # nothing drew for a while: asked anyway
    fleet.poll_once()
    assert len(swept) == 4
    remote.live = False  # its event client dropped: asked on every sweep until it is back
    fleet.poll_once()
    fleet.poll_once()
    assert len(swept) == 6


def test_a_host_that_could_not_be_swept_is_asked_again() -> None:
    fleet, local, remote = _fleet()
    swept = _count_host_sweeps(fleet)
    assert fleet.watch(lambda pane: None)
    _attached(local, remote)
    remote.server_gone = True  # the host's tmux cannot be read
    fleet.poll_once()
    assert "box" in fleet.unreachable()
    fleet.poll_once()
    assert len(swept) == 2
    remote.server_gone = False
    fleet.poll_once()
    assert fleet.unreachable() == {}
    fleet.poll_once()
    assert len(swept) == 3
