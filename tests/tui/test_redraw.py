"""Sweeps that change nothing on screen cost no redraw: keys must not wait behind the UI.

Each footer refresh recomposes every key widget and each ``Static.update`` lays out the whole
screen; with 50 agents and two sweeps a second that kept the UI thread busy while keys waited.
"""

from __future__ import annotations

import pytest
from textual.widget import Widget
from textual.widgets import Footer, Static

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
