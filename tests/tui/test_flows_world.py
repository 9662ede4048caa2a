"""Pilot tests of the TUI's flows over the snapshots' real world (tests/tui/snapshot_world.py):
the real supervisor, a real git repository, a real tmux server and scripted agents. Each asserts
on what really happened: what reached an agent's pane (the demo agent prints the key or line it
received), the audit log, the agent's state in a fresh sweep. They moved here from the fixture
supervisor (tests/tui/test_flows_fake.py), which recorded calls instead.

The world is fed to the app through ``Pinned`` so that the agents' order on screen (oldest
waiting first) is the same on every run.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from paw.supervisor.model import AgentStatus
from paw.tui.app import PawApp, make_app
from paw.tui.screens.forms import MessageDialog, SpawnDialog
from paw.tui.screens.main import MainScreen
from paw.tui.screens.notice import TmuxLostDialog
from paw.tui.widgets.agent_list import AgentList
from tests.support.budget import budget
from tests.tui.conftest import settle
from tests.tui.real_world import audit_records, capture
from tests.tui.snapshot_world import SCENARIOS, Pinned, build_world

if TYPE_CHECKING:
    from libtmux.server import Server

    from paw.supervisor.service import Supervisor

pytestmark = [pytest.mark.tmux, pytest.mark.git]
SIZE = (120, 40)
FLOW_BUDGET_S = budget(60.0)


async def until(pilot: Pilot[None], check: Callable[[], bool]) -> bool:
    """Let the app run until ``check`` holds (or the budget is spent)."""
    end = time.monotonic() + FLOW_BUDGET_S
    while time.monotonic() < end:
        if check():
            return True
        await pilot.pause(0.05)
    return check()


class World:
    """A scenario's real world and the app over it."""

    def __init__(self, repo: Path, server: Server, scenario: str) -> None:
        self.repo = repo
        self.socket = server.socket_name or ""
        self.supervisor: Supervisor = build_world(repo, self.socket, scenario)
        self.panes = {v.name: v.pane_id or "" for v in self.supervisor.poll_once().agents}
        pinned = Pinned(self.supervisor, SCENARIOS[scenario], repo.parent, self.socket)
        # the spawn form offers the world's own kinds (the default ones are real agent CLIs)
        self.app: PawApp = make_app(pinned, poll_interval=1.0, kinds=("demo-idle", "demo-busy"))

    def screen(self, agent: str) -> str:
        """What the agent's pane shows now (straight from tmux)."""
        return capture(self.socket, self.panes[agent])

    def events(self, *names: str) -> list[dict[str, object]]:
        """The audit records of these events, oldest first."""
        return [r for r in audit_records(self.repo) if r["event"] in names]

    def status(self, agent: str) -> AgentStatus | None:
        """The agent's status in a fresh sweep (None: not listed)."""
        views = {v.name: v for v in self.supervisor.poll_once().agents}
        view = views.get(agent)
        return None if view is None else view.status


async def ready(pilot: Pilot[None], app: PawApp) -> None:
    """The first picture is on screen with the selected agent's pane."""
    assert await until(pilot, lambda: app.main.snapshot is not None and bool(app.main.shown_agent))
    await settle(pilot)


async def test_message_reaches_the_idle_agent(git_repo: Path, server: Server) -> None:
    world = World(git_repo, server, "agents")
    app = world.app
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app)
        await pilot.press("down")  # api (busy) -> docs (idle)
        assert await until(pilot, lambda: app.main.selected_agent == "docs")
        await pilot.press("m")
        assert await until(pilot, lambda: isinstance(app.screen, MessageDialog))
        await pilot.press(*"run the tests", "enter")
        reached = await until(pilot, lambda: "received: run the tests" in world.screen("docs"))
    assert reached, world.screen("docs")


async def test_spawn_form_spawns_a_real_agent(git_repo: Path, server: Server) -> None:
    world = World(git_repo, server, "empty")
    app = world.app
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.main.snapshot is not None)
        await pilot.press("n")
        assert await until(pilot, lambda: isinstance(app.screen, SpawnDialog))
        await pilot.press(*"fix-login")
        app.screen.query_one("#spawn-task", Input).value = "fix the login form"
        app.screen.query_one("#spawn-task", Input).focus()
        await pilot.press("enter")
        listed = await until(
            pilot, lambda: "fix-login" in app.main.query_one(AgentList).visible_keys
        )
    assert listed
    (spawned,) = world.events("spawn")
    assert (spawned["agent"], spawned.get("kind")) == ("fix-login", "demo-idle")
    assert world.status("fix-login") in (AgentStatus.BUSY, AgentStatus.IDLE)


async def test_remove_of_a_worktree_with_work_is_refused(git_repo: Path, server: Server) -> None:
    world = World(git_repo, server, "agents")
    app = world.app
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app)
        await pilot.press("down")  # api -> docs (its worktree holds work)
        assert await until(pilot, lambda: app.main.selected_agent == "docs")
        await pilot.press("r")
        await settle(pilot)
        await pilot.press("y")
        said = await until(
            pilot, lambda: any("uncommitted" in str(n.message) for n in app._notifications)
        )
        messages = [str(n.message) for n in app._notifications]
    assert said, messages
    (docs,) = [v for v in world.supervisor.poll_once().agents if v.name == "docs"]
    assert docs.status is AgentStatus.IDLE  # still there, still running
    assert (Path(docs.worktree) / "app.py").read_text(encoding="utf-8").endswith("sys.exit(0)\n")


async def test_stop_after_confirmation(git_repo: Path, server: Server) -> None:
    world = World(git_repo, server, "agents")
    app = world.app
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app)
        assert app.main.selected_agent == "api"
        await pilot.press("x")
        await settle(pilot)
        await pilot.press("y")
        stopped = await until(pilot, lambda: world.status("api") is AgentStatus.EXITED)
    assert stopped
    assert [r["agent"] for r in world.events("stop")] == ["old", "api"]  # (old: the world's)


def _answered(world: World) -> list[str]:
    """The waiting agents whose pane received a key."""
    return [a for a in ("touch", "pusher", "rmsudo") if "received key" in world.screen(a)]


async def test_keys_never_act_on_another_agents_prompt(git_repo: Path, server: Server) -> None:
    world = World(git_repo, server, "mixed")
    app = world.app
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app)
        await pilot.press("down", "down", "down")  # three waiting agents, then api (busy)
        assert await until(pilot, lambda: app.main.selected_agent == "api")
        assert app.main.selected_prompt is None
        await pilot.press("a", "d", "A")
        await settle(pilot)
        await pilot.press("down")  # a key that acted would have opened a dialog or sent
        await settle(pilot)
        assert app.main.selected_agent == "docs"
    assert world.events("approve", "deny") == []
    assert _answered(world) == []


async def test_selecting_a_waiting_agent_selects_its_prompt(git_repo: Path, server: Server) -> None:
    world = World(git_repo, server, "mixed")
    app = world.app
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app)
        await pilot.press("down")  # the second-longest waiting: pusher (confirm)
        assert await until(pilot, lambda: app.main.selected_agent == "pusher")
        prompt = app.main.selected_prompt
        assert prompt is not None
        assert prompt.agent == "pusher"
        await pilot.press("d")
        denied = await until(pilot, lambda: "received key 'n'" in world.screen("pusher"))
    assert denied, world.screen("pusher")
    assert _answered(world) == ["pusher"]


async def test_a_key_right_after_a_cursor_move_acts_on_the_new_row(
    git_repo: Path, server: Server
) -> None:
    world = World(git_repo, server, "mixed")
    app = world.app
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app)
        await pilot.press("down", "d")  # no pause: the key must see the moved cursor
        denied = await until(pilot, lambda: "received key 'n'" in world.screen("pusher"))
    assert denied, world.screen("pusher")
    assert [r["agent"] for r in world.events("deny")] == ["pusher"]
    assert _answered(world) == ["pusher"]


async def test_the_prompt_queue_focused_acts_on_its_row(git_repo: Path, server: Server) -> None:
    world = World(git_repo, server, "mixed")
    app = world.app
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app)
        await pilot.press("tab", "down", "down", "d")  # the queue's third row: rmsudo
        denied = await until(pilot, lambda: "received key 'n'" in world.screen("rmsudo"))
    assert denied, world.screen("rmsudo")
    assert [r["agent"] for r in world.events("deny")] == ["rmsudo"]
    assert _answered(world) == ["rmsudo"]


async def test_prompt_keys_do_nothing_without_a_prompt(git_repo: Path, server: Server) -> None:
    world = World(git_repo, server, "agents")
    app = world.app
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app)
        for action in ("approve", "deny", "always"):
            assert app.main.check_action(action, ()) is None  # greyed: no layout pass
        await pilot.press("a", "d")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
    assert world.events("approve", "deny") == []


async def test_tmux_gone_shows_the_banner_and_one_dialog_per_outage(
    git_repo: Path, server: Server
) -> None:
    world = World(git_repo, server, "agents")
    app = world.app
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app)
        server.kill()
        app.request_poll()
        assert await until(pilot, lambda: isinstance(app.screen, TmuxLostDialog))
        await pilot.press("escape")
        assert await until(pilot, lambda: isinstance(app.screen, MainScreen))
        swept = app.feed.sweeps
        for _ in range(2):
            app.request_poll()
            await settle(pilot)
        assert await until(pilot, lambda: app.feed.sweeps >= swept + 2)
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)  # not re-opened during the same outage
        assert app.main.query_one("#error-banner").has_class("-visible")
