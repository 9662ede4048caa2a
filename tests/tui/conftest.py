from __future__ import annotations

import contextlib

import pytest
from textual.pilot import Pilot
from textual.widgets import Input
from textual.worker import WorkerCancelled


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
