"""Pilot tests of what a newcomer hit in the TUI (issue 30): the first prompt selected is the
oldest, the agents table and the queue give one prompt one age, and `A Always` is offered only
where it applies."""

from __future__ import annotations

from dataclasses import replace

from paw.supervisor.model import AgentStatus
from paw.tui.app import make_app
from paw.tui.widgets.agent_list import AgentList
from paw.tui.widgets.prompt_queue import PromptQueue
from tests.support.budget import budget
from tests.tui.conftest import screen_text, settle
from tests.tui.fake_supervisor import ALLOW, CONFIRM, FakeAgent, FakeSupervisor
from tests.tui.snapshot_app import HOUR, make_snapshot_app

SIZE = (120, 40)


def two_waiting() -> FakeSupervisor:
    """`early` has been at prompts for 300 s, but its live prompt is 20 s old (an earlier one
    was answered); `late` has been at its one prompt for 90 s: the oldest prompt is late's."""
    fake = FakeSupervisor(
        [
            FakeAgent("early", "claude-code", "git_push_120x40", AgentStatus.PROMPT, CONFIRM, 300),
            FakeAgent("late", "codex", "shell_always_option_120x40", AgentStatus.PROMPT, ALLOW, 90),
        ]
    )
    [early] = [k for k, p in fake.prompts.items() if p.agent == "early"]
    fake.prompts[early] = replace(fake.prompts[early], first_seen=fake.now - 20)
    return fake


async def test_the_first_prompt_selected_is_the_oldest_and_ages_agree() -> None:
    fake = two_waiting()
    app = make_app(fake, poll_interval=HOUR)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        selected = app.main.selected_prompt
        assert selected is not None
        assert selected.agent == "late"  # 90 s old, not early's 20 s one
        assert app.main.query_one(AgentList).visible_keys == ["late", "early"]
        agents = app.main.query_one(AgentList)
        queue = app.main.query_one(PromptQueue)
        ages = {
            str(agents.get_row_at(i)[0]).split()[-1]: str(agents.get_row_at(i)[2]).split()[-1]
            for i in range(agents.row_count)
        }
        queued = {
            str(queue.get_row_at(i)[0]): str(queue.get_row_at(i)[4]) for i in range(queue.row_count)
        }
        assert ages == queued == {"late": "1m", "early": "20s"}


async def test_always_is_greyed_without_a_prompt() -> None:
    app, _ = make_snapshot_app("agents")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.main.check_action("always", ()) is None  # greyed, never offered live
        assert app.main.check_action("approve", ()) is None
    app, _ = make_snapshot_app("allow")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.main.check_action("always", ()) is True
        assert "A Always" in screen_text(app).splitlines()[-1]


async def test_help_at_80x24_shows_every_row() -> None:
    """The last row (ctrl+c) was cut at 80x24: two descriptions wrapped."""
    from paw.tui.screens.help import OTHER_KEYS

    app, _ = make_snapshot_app("mixed")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        text = screen_text(app)
        for key, what in OTHER_KEYS:
            assert f"{key}" in text
            assert what in text, what
        assert "Quit paw (agents keep running)" in text


async def test_ages_move_every_second_between_sweeps() -> None:
    """With pane events a waiting agent's screen does not change, so no sweep comes for up to
    the safety sweep (30 s): the ages stood still, then jumped. They move each second now,
    without a sweep, the table and the queue alike."""
    import time

    from paw.supervisor.model import Snapshot

    app, fake = make_snapshot_app("allow")  # touch: a prompt 42 s old
    polls: list[float] = []
    sweep = fake.poll_once

    def counted() -> Snapshot:
        polls.append(time.monotonic())
        return sweep()

    fake.poll_once = counted  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.feed._live = lambda: True  # pane events arrive: sweeps follow them, not the timer
        app.feed._last_sweep = time.monotonic()
        app.set_interval(0.1, app._tick)
        swept = len(polls)
        queue = app.main.query_one(PromptQueue)
        agents = app.main.query_one(AgentList)
        end = time.monotonic() + budget(30)
        while time.monotonic() < end and str(queue.get_row_at(0)[4]) in ("42s", "43s"):
            await pilot.pause(0.1)
        age = str(queue.get_row_at(0)[4])
        assert age not in ("42s", "43s"), age
        assert str(agents.get_row_at(0)[2]).split()[-1] in (age, f"{int(age[:-1]) + 1}s")
        assert len(polls) == swept  # no sweep for it
