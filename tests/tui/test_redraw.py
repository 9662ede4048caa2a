"""Sweeps that change nothing on screen cost no redraw: keys must not wait behind the UI.

Each footer refresh recomposes every key widget and each ``Static.update`` lays out the whole
screen; with 50 agents and two sweeps a second that kept the UI thread busy while keys waited.
"""

from __future__ import annotations

import dataclasses
import time

import pytest
from textual.widget import Widget
from textual.widgets import Footer, Static

from tests.support.budget import budget
from tests.tui.conftest import settle
from tests.tui.snapshot_app import make_snapshot_app

SIZE = (120, 40)


class Counts:
    """How often the footer was recomposed and a Static was updated, by widget id."""

    def __init__(self) -> None:
        self.footer = 0
        self.updates: list[str | None] = []


@pytest.fixture
def counts(monkeypatch: pytest.MonkeyPatch) -> Counts:
    """Count footer recompositions and Static updates."""
    seen = Counts()
    recompose = Widget.recompose
    update = Static.update

    async def counted_recompose(self: Widget) -> None:
        if isinstance(self, Footer):
            seen.footer += 1
        await recompose(self)

    def counted_update(self: Static, *args: object, **kwargs: object) -> None:
        seen.updates.append(self.id)
        update(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Widget, "recompose", counted_recompose)
    monkeypatch.setattr(Static, "update", counted_update)
    return seen


async def test_app_sweep_without_changes_redraws_nothing(counts: Counts) -> None:
    app, _ = make_snapshot_app("allow")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.main.snapshot is not None
        before = (counts.footer, len(counts.updates))
        for _ in range(2):
            app.request_poll()
            await settle(pilot)
        assert (counts.footer, len(counts.updates)) == before


async def test_app_sweep_that_disables_approve_refreshes_footer_and_card(counts: Counts) -> None:
    app, fake = make_snapshot_app("allow")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.main.check_action("approve", ()) is True
        footer = counts.footer
        fake.prompts.clear()  # the prompt went away between two sweeps
        app.request_poll()
        await settle(pilot)
        assert app.main.check_action("approve", ()) is None
        # the approve key is dimmed in place (no recompose: that is a layout of the screen)
        (key,) = [k for k in app.main.query("FooterKey") if getattr(k, "action", None) == "approve"]
        assert key.has_class("-disabled")
        assert counts.footer == footer
        assert "prompt-card" in counts.updates


class Frames:
    """What the screen did, in order: sweeps handled, layout passes, frames, toasts."""

    def __init__(self) -> None:
        self.log: list[str] = []

    def after(self, mark: str) -> list[str]:
        """What happened after the last ``mark``."""
        index = len(self.log) - 1 - self.log[::-1].index(mark)
        return self.log[index + 1 :]


@pytest.fixture
def frames(monkeypatch: pytest.MonkeyPatch) -> Frames:
    from textual.app import App
    from textual.screen import Screen

    from paw.tui.screens.main import MainScreen

    seen = Frames()

    def traced(cls: type, name: str, mark: str) -> None:
        real = getattr(cls, name)

        def wrapper(self: object, *args: object, **kwargs: object) -> object:
            seen.log.append(mark)
            return real(self, *args, **kwargs)

        monkeypatch.setattr(cls, name, wrapper)

    traced(MainScreen, "on_panes_polled", "sweep")
    traced(Screen, "_refresh_layout", "layout")
    traced(Screen, "_compositor_refresh", "frame")
    traced(App, "notify", "toast")
    return seen


async def test_a_new_prompt_is_drawn_in_a_frame_without_a_layout_pass(frames: Frames) -> None:
    """The frame that shows a new prompt in the queue lays nothing out: the queue's height
    is fixed, so is the card's, and the toast follows (a layout pass
    redraws every panel whose geometry moved: ~30 ms of a prompt's way to the screen)."""
    from paw.supervisor.model import AgentStatus
    from paw.tui.widgets.prompt_queue import PromptQueue

    app, fake = make_snapshot_app("mixed")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        queue = app.main.query_one(PromptQueue)
        before = list(queue.visible_keys)
        touch = fake.agents["touch"]
        api = dataclasses.replace(
            fake.agents["api"], kind=touch.kind, case=touch.case, verdict=touch.verdict
        )
        fake.agents["api"] = dataclasses.replace(api, status=AgentStatus.PROMPT)
        live = fake._live_prompt(api)
        fake.prompts[live.id] = live
        app.request_poll()
        await settle(pilot)
        assert live.id in queue.visible_keys
        assert len(queue.visible_keys) == len(before) + 1
        after = frames.after("sweep")
        assert "frame" in after, after
        first_frame = after.index("frame")
        assert "layout" not in after[:first_frame], after
        deadline = time.monotonic() + budget(10)
        while "toast" not in frames.after("sweep") and time.monotonic() < deadline:
            await pilot.pause(0.05)
        after = frames.after("sweep")
        assert "toast" in after[first_frame:], after  # the toast still comes, in a later frame
