from __future__ import annotations

import contextlib
import io
import time
from typing import Any

import pytest
from rich.console import Console
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input
from textual.worker import WorkerCancelled


@pytest.fixture
def layout_passes(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """When each layout pass of a screen ran, from now on (Textual's own pass still runs)."""
    from textual.screen import Screen

    passes: list[float] = []
    real = Screen._refresh_layout

    def counted(self: Screen[object], *args: object, **kwargs: object) -> None:
        passes.append(time.monotonic())
        real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    return passes


@pytest.fixture(autouse=True)
def _no_blink(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deterministic frames: no cursor blink (animations are off via TEXTUAL_ANIMATIONS)."""
    monkeypatch.setattr(Input, "cursor_blink", False, raising=False)
    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "none")


async def settle(pilot: Pilot[None], rounds: int = 4) -> None:
    """Let workers finish and their messages (and the dialogs they open) be handled."""
    for _ in range(rounds):
        with contextlib.suppress(WorkerCancelled):  # an exclusive poll replaced by a newer one
            await pilot.app.workers.wait_for_complete()
        await pilot.pause()


def screen_text(app: App[Any]) -> str:
    """What the terminal shows now, as plain text (the way a snapshot is taken)."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), force_terminal=True, record=True
    )
    background = app._background_screens  # a dialog is drawn over the screens below it
    console.print(app.screen._compositor.render_update(full=True, screen_stack=background))
    return console.export_text()
