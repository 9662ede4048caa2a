"""Pilot tests of the TUI over the real supervisor, real tmux and the scripted demo agent.

They assert on what reached the agent's pane (the agent prints the key it received) and on
the audit log. Every flow whose outcome the approval rules decide (allow, always, confirm,
block, their dialogs and cancels) runs here, on the supervisor's own rules.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from textual.message import Message
from textual.pilot import Pilot

from paw.supervisor.model import Outcome
from paw.tui.app import PawApp, make_app
from paw.tui.messages import DecisionMade
from paw.tui.screens.block import BlockDialog
from paw.tui.screens.confirm import ConfirmDialog
from paw.tui.screens.main import MainScreen
from paw.tui.screens.notice import TmuxLostDialog
from tests.tui.conftest import settle
from tests.tui.real_world import KINDS, audit_records, capture, make_supervisor, wait_for_prompts

if TYPE_CHECKING:
    from libtmux.server import Server

    from paw.supervisor.model import LivePrompt
    from paw.supervisor.service import Supervisor

pytestmark = [pytest.mark.tmux, pytest.mark.git]
SIZE = (120, 40)


async def until(pilot: Pilot[None], check: Callable[[], bool], seconds: float = 10.0) -> bool:
    """Let the app run until ``check`` holds (or ``seconds`` pass)."""
    for _ in range(int(seconds / 0.05)):
        if check():
            return True
        await pilot.pause(0.05)
    return check()


def spawn_one(git_repo: Path, server: Server, role: str) -> tuple[Supervisor, LivePrompt]:
    supervisor = make_supervisor(git_repo, server.socket_name or "")
    supervisor.spawn(role, KINDS[role], "a test task")
    (prompt,) = wait_for_prompts(supervisor, 1)
    return supervisor, prompt


def app_for(supervisor: Supervisor) -> PawApp:
    return make_app(supervisor, poll_interval=1.0)


def sent_events(repo: Path, prompt_id: str) -> list[dict[str, object]]:
    """The decision records (approve, deny, outcome) of one prompt, oldest first."""
    return [
        r
        for r in audit_records(repo)
        if r.get("prompt_id") == prompt_id and r["event"] in ("approve", "deny", "outcome")
    ]


async def test_real_approve_reaches_agent_and_is_audited(git_repo: Path, server: Server) -> None:
    supervisor, prompt = spawn_one(git_repo, server, "safe")
    socket = server.socket_name or ""
    app = app_for(supervisor)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.main.selected_prompt is not None)
        await pilot.press("a")
        reached = await until(pilot, lambda: "received key 'y'" in capture(socket, prompt.pane_id))
        await settle(pilot)
    assert reached, capture(socket, prompt.pane_id)
    records = sent_events(git_repo, prompt.id)
    assert [(r["event"], r.get("decision"), r.get("outcome")) for r in records] == [
        ("approve", "send", None),
        ("outcome", None, "sent"),
    ]


async def test_real_deny_reaches_agent(git_repo: Path, server: Server) -> None:
    supervisor, prompt = spawn_one(git_repo, server, "safe")
    socket = server.socket_name or ""
    app = app_for(supervisor)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.main.selected_prompt is not None)
        await pilot.press("d")
        reached = await until(pilot, lambda: "received key 'n'" in capture(socket, prompt.pane_id))
    assert reached, capture(socket, prompt.pane_id)
    assert "skipped" in capture(socket, prompt.pane_id)
    assert sent_events(git_repo, prompt.id)[0]["event"] == "deny"


async def test_real_confirm_dialog_before_push(git_repo: Path, server: Server) -> None:
    supervisor, prompt = spawn_one(git_repo, server, "push")
    socket = server.socket_name or ""
    app = app_for(supervisor)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.main.selected_prompt is not None)
        await pilot.press("a")
        assert await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        assert "received key" not in capture(socket, prompt.pane_id)  # nothing sent yet
        await pilot.press("y")
        reached = await until(pilot, lambda: "received key 'y'" in capture(socket, prompt.pane_id))
    assert reached, capture(socket, prompt.pane_id)
    decisions = [
        r.get("decision") for r in sent_events(git_repo, prompt.id) if r["event"] == "approve"
    ]
    assert decisions == ["needs-confirmation", "send"]


async def test_real_block_needs_reason_and_records_it(git_repo: Path, server: Server) -> None:
    supervisor, prompt = spawn_one(git_repo, server, "danger")
    socket = server.socket_name or ""
    app = app_for(supervisor)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.main.selected_prompt is not None)
        await pilot.press("a")
        assert await until(pilot, lambda: isinstance(app.screen, BlockDialog))
        await pilot.press("y", "enter")  # too short to be a reason: still blocked
        await settle(pilot)
        assert isinstance(app.screen, BlockDialog)
        assert "received key" not in capture(socket, prompt.pane_id)
        await pilot.press("backspace", *"demo pane, nothing real", "enter")
        reached = await until(pilot, lambda: "received key 'y'" in capture(socket, prompt.pane_id))
        assert isinstance(app.screen, MainScreen)
    assert reached, capture(socket, prompt.pane_id)
    sends = [r for r in sent_events(git_repo, prompt.id) if r.get("decision") == "send"]
    assert [r["override"] for r in sends] == ["demo pane, nothing real"]


async def test_real_tmux_server_gone_shows_dialog_and_banner(
    git_repo: Path, server: Server
) -> None:
    supervisor, _ = spawn_one(git_repo, server, "safe")
    app = app_for(supervisor)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.main.selected_prompt is not None)
        server.kill()
        app.request_poll()
        assert await until(pilot, lambda: isinstance(app.screen, TmuxLostDialog))
        await pilot.press("escape")
        assert await until(pilot, lambda: app.main.query_one("#error-banner").has_class("-visible"))
        assert app.main.selected_prompt is None  # nothing left to approve


def decisions_of(repo: Path, prompt_id: str) -> list[object]:
    """The decisions recorded for one prompt (approve and deny records), oldest first."""
    return [
        r.get("decision") for r in sent_events(repo, prompt_id) if r["event"] in ("approve", "deny")
    ]


def still_shown(supervisor: Supervisor, prompt: LivePrompt) -> bool:
    """The agent still shows the same prompt (a fresh sweep): no key reached it."""
    return [p.id for p in supervisor.poll_once().prompts] == [prompt.id]


async def test_real_always_asks_first_then_sends_the_always_key(
    git_repo: Path, server: Server
) -> None:
    """The agent's "always" option covers more than this command (every shell command of its
    kind, later sessions too): the supervisor asks for a confirmation naming what it covers
    before the key goes, even for an allowed command (a fake that sent it at once had drifted
    from the supervisor's rule)."""
    supervisor, prompt = spawn_one(git_repo, server, "safe")
    socket = server.socket_name or ""
    app = app_for(supervisor)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.main.selected_prompt is not None)
        await pilot.press("A")
        assert await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        assert "received key" not in capture(socket, prompt.pane_id)  # nothing sent yet
        await pilot.press("y")
        reached = await until(pilot, lambda: "received key 'a'" in capture(socket, prompt.pane_id))
    assert reached, capture(socket, prompt.pane_id)
    assert decisions_of(git_repo, prompt.id) == ["needs-confirmation", "send"]
    sends = [r for r in sent_events(git_repo, prompt.id) if r.get("decision") == "send"]
    assert [r["keys"] for r in sends] == [["a"]]


async def test_real_always_is_greyed_for_a_confirm_verdict(git_repo: Path, server: Server) -> None:
    supervisor, prompt = spawn_one(git_repo, server, "push")
    app = app_for(supervisor)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.main.selected_prompt is not None)
        assert app.main.check_action("always", ()) is False
        await pilot.press("A")
        await settle(pilot)
    assert decisions_of(git_repo, prompt.id) == []  # not even asked of the supervisor
    assert still_shown(supervisor, prompt)


async def test_real_confirm_dialog_cancel_sends_nothing(git_repo: Path, server: Server) -> None:
    supervisor, prompt = spawn_one(git_repo, server, "push")
    app = app_for(supervisor)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.main.selected_prompt is not None)
        await pilot.press("a")
        assert await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("escape")
        assert await until(pilot, lambda: isinstance(app.screen, MainScreen))
        await settle(pilot)
    assert decisions_of(git_repo, prompt.id) == ["needs-confirmation"]
    assert still_shown(supervisor, prompt)


async def test_real_block_dialog_escape_keeps_it_blocked(git_repo: Path, server: Server) -> None:
    supervisor, prompt = spawn_one(git_repo, server, "danger")
    app = app_for(supervisor)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.main.selected_prompt is not None)
        await pilot.press("a")
        assert await until(pilot, lambda: isinstance(app.screen, BlockDialog))
        await pilot.press(*"a reason never given", "escape")
        assert await until(pilot, lambda: isinstance(app.screen, MainScreen))
        await settle(pilot)
    assert "send" not in decisions_of(git_repo, prompt.id)
    assert still_shown(supervisor, prompt)


async def test_real_approve_posts_typed_decision_messages(git_repo: Path, server: Server) -> None:
    supervisor, prompt = spawn_one(git_repo, server, "push")
    socket = server.socket_name or ""
    app = app_for(supervisor)
    messages: list[Message] = []
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await until(pilot, lambda: app.main.selected_prompt is not None)
        await pilot.press("a")
        assert await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("y")
        reached = await until(pilot, lambda: "received key 'y'" in capture(socket, prompt.pane_id))
        await settle(pilot)
    assert reached, capture(socket, prompt.pane_id)
    # a message is seen once per node it bubbles through: keep each one once
    decisions = list({id(m): m for m in messages if isinstance(m, DecisionMade)}.values())
    seen = [(d.request.confirmed, d.decision.outcome) for d in decisions]
    assert seen[0] == (False, Outcome.NEEDS_CONFIRMATION)
    assert seen[1:] in ([(True, Outcome.SENT)], [(True, Outcome.SENT_UNCONFIRMED)])
