"""Pilot tests of what the TUI does with the pictures and answers the corpus-backed fake
supervisor gives it, where a real world cannot be made to give them on cue: the bell and the
toasts of prompts arriving over a burst of sweeps, a sweep that raises, a delivery that is
unknown, the usage line, the filter and the help screen. Every flow whose outcome the approval
rules decide runs over the real supervisor on real tmux (tests/tui/test_flows_real.py), and so
do the flows with an effect on an agent, the keys greyed without a prompt and the lost tmux
server's one dialog per outage (tests/tui/test_flows_world.py)."""

from __future__ import annotations

import time

import pytest
from textual.pilot import Pilot

from paw.core.models import Action
from paw.supervisor.model import AgentStatus, Outcome
from paw.tui.app import make_app
from paw.tui.screens.help import HelpScreen
from paw.tui.screens.main import MainScreen
from paw.tui.screens.notice import TmuxLostDialog
from paw.tui.widgets.agent_list import AgentList
from tests.support.budget import budget
from tests.tui.conftest import settle
from tests.tui.fake_supervisor import FakeAgent, FakeSupervisor, scenario
from tests.tui.snapshot_app import HOUR, make_snapshot_app

SIZE = (120, 40)


async def test_app_new_prompt_rings_bell_and_notifies() -> None:
    app, fake = make_snapshot_app("agents")
    bells: list[None] = []
    async with app.run_test(size=SIZE) as pilot:
        app.bell = lambda: bells.append(None)  # type: ignore[method-assign]  # count rings
        await settle(pilot)
        assert bells == []
        newcomer = FakeAgent(
            "late",
            "claude-code",
            "git_push_120x40",
            AgentStatus.PROMPT,
            scenario("confirm").prompts.popitem()[1].verdict,
            age=1,
        )
        fake.agents["late"] = newcomer
        fake.panes["late"] = "%9"
        live = fake._live_prompt(newcomer)
        fake.prompts[live.id] = live
        app.request_poll()
        await settle(pilot)
        assert bells == [None]
        assert await toasted(pilot, "late")


async def toasted(pilot: Pilot[None], text: str) -> bool:
    """Whether a toast with ``text`` shows up (toasts of new prompts wait for their burst)."""
    end = time.monotonic() + budget(10)
    while time.monotonic() < end:
        if any(text in n.message for n in pilot.app._notifications):
            return True
        await pilot.pause(0.05)
    return False


def _newcomer(fake: FakeSupervisor, name: str, pane: str) -> str:
    agent = FakeAgent(
        name,
        "claude-code",
        "git_push_120x40",
        AgentStatus.PROMPT,
        scenario("confirm").prompts.popitem()[1].verdict,
        age=1,
    )
    fake.agents[name] = agent
    fake.panes[name] = pane
    live = fake._live_prompt(agent)
    fake.prompts[live.id] = live
    return live.id


async def test_app_a_burst_of_new_prompts_over_sweeps_rings_once_in_one_toast(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Prompts that arrive over several sweeps of one burst: one bell, one toast naming them
    all; a prompt gone before its toast is not announced."""
    from paw.tui.screens import toasts as toasts_module

    monkeypatch.setattr(
        toasts_module, "TOAST_GATHER_S", budget(3)
    )  # the sweeps below are one burst
    app, fake = make_snapshot_app("agents")
    bells: list[None] = []
    async with app.run_test(size=SIZE) as pilot:
        app.bell = lambda: bells.append(None)  # type: ignore[method-assign]  # count rings
        await settle(pilot)
        before = len(app._notifications)
        for name, pane in (("n1", "%11"), ("n2", "%12"), ("gone", "%13")):
            _newcomer(fake, name, pane)
            app.request_poll()
            await settle(pilot)
        del fake.prompts[next(k for k, p in fake.prompts.items() if p.agent == "gone")]
        app.request_poll()
        await settle(pilot)
        assert await toasted(pilot, "n1")
        toasts = [n.message for n in list(app._notifications)[before:]]
        assert bells == [None]
        assert len(toasts) == 1
        assert "2 new prompts" in toasts[0]
        assert "n1" in toasts[0]
        assert "n2" in toasts[0]
        assert "gone" not in toasts[0]


async def test_app_poll_exception_drops_prompts_and_reports_once() -> None:
    fake = scenario("allow")
    app = make_app(fake, poll_interval=HOUR)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        before = app.main.selected_prompt
        assert before is not None
        fake.raise_on_poll = True
        app.request_poll()
        await settle(pilot)
        assert isinstance(app.screen, TmuxLostDialog)
        assert app.main.selected_prompt is None  # a stale prompt is never approvable
        await pilot.press("escape")
        for _ in range(3):
            app.request_poll()
            await settle(pilot)
        assert isinstance(app.screen, MainScreen)


async def test_app_filter_hides_other_agents() -> None:
    app, _ = make_snapshot_app("agents")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"gem")
        await settle(pilot)
        assert app.main.query_one(AgentList).visible_keys == ["docs"]
        await pilot.press("escape")
        await settle(pilot)
        assert len(app.main.query_one(AgentList).visible_keys) == 3


async def test_app_help_lists_every_main_key() -> None:
    app, _ = make_snapshot_app("empty")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)


def test_fake_verdicts_cover_every_action() -> None:
    actions = {p.verdict.action for p in scenario("mixed").prompts.values()}
    assert actions == set(Action)


async def test_app_delivery_unknown_is_reported_as_such_never_as_nothing_sent() -> None:
    from paw.supervisor.model import Decision

    app, fake = make_snapshot_app("allow")
    reason = "the link to host ssh://h1 dropped after tmux send-keys was handed to ssh"

    def dropped(prompt_id: str, **_options: object) -> Decision:
        return Decision(Outcome.DELIVERY_UNKNOWN, prompt_id, reason, keys=("y",))

    fake.approve = dropped  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        said = [f"{n.title} {n.message}" for n in app._notifications]
        assert any("Delivery unknown" in m and reason in m for m in said), said
        assert not any("nothing sent" in m or "Refused" in m for m in said), said


async def test_the_agents_usage_line_is_shown_on_its_pane_preview() -> None:
    """What the agent used (read from its own records by the feed) is the pane preview's
    subtitle; a read that did not include it keeps the line shown."""
    from paw.supervisor.details import AgentDetails
    from paw.tui.messages import DetailsRead
    from paw.tui.widgets.pane_preview import PanePreview

    app, _fake = make_snapshot_app("agents")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main
        agent = main.shown_agent
        assert agent is not None
        line = "tokens 2.4k in, 600 out (2 responses)"
        main.post_message(DetailsRead(AgentDetails(agent, "$ ls\n", None, line)))
        await settle(pilot)
        preview = main.query_one(PanePreview)
        assert preview.border_subtitle == line
        main.post_message(DetailsRead(AgentDetails(agent, "$ ls -la\n", None, None)))
        await settle(pilot)
        assert preview.border_subtitle == line
