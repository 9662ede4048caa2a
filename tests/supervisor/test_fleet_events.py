"""Fleet's pane events: every machine's events reach one listener, a host's panes by key."""

from __future__ import annotations

import dataclasses

from paw.supervisor.fleet import Fleet, HostRecord, Remote
from paw.supervisor.model import AgentStatus, AgentView, WorktreeStat, pane_key
from tests.support.fakes import FakeTerminal
from tests.support.supervision import make_rig


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
    here.sup.ctx.terminal = local
    there.sup.ctx.terminal = remote
    record = HostRecord(name="box", url="ssh://me@box", repo="/src/app")
    return Fleet(here.sup, {"box": Remote(record, NoLink(), there.sup)}), local, remote


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
