"""The TUI paces its sweeps by the CPU they cost, not by how long they took on the wall clock
(a sweep that waits for tmux or for a core costs no rest; one that burns a core does)."""

from __future__ import annotations

import dataclasses
import time

import pytest
import textual.constants

from paw.supervisor.model import Snapshot
from paw.supervisor.pump import SWEEP_DUTY
from paw.tui.app import make_app
from paw.tui.frames import FRAME_S, frame_period
from tests.tui.conftest import settle
from tests.tui.fake_supervisor import scenario

SECONDS = 0.2


class Paced:
    """A sweep that waits (sleeps), burns CPU here, or says it burnt CPU elsewhere."""

    def __init__(self, mode: str) -> None:
        self.fake = scenario("mixed")
        self.mode = mode
        self.inner = self.fake.poll_once

    def __call__(self) -> Snapshot:
        snapshot = self.inner()
        if self.mode == "burn":
            end = time.thread_time() + SECONDS
            while time.thread_time() < end:
                pass
        else:
            time.sleep(SECONDS)
        if self.mode == "elsewhere":  # the sweeper's picture: its own CPU time
            return dataclasses.replace(snapshot, cpu_s=SECONDS * 0.75)
        return snapshot


@pytest.mark.parametrize(
    ("mode", "low", "high"),
    [
        ("wait", 0.0, SECONDS / 2),
        ("burn", SECONDS * 0.9, SECONDS * 5),
        ("elsewhere", SECONDS * 0.7, SECONDS * 0.8),
    ],
)
async def test_the_rest_after_a_sweep_is_its_cpu_not_its_wall_time(
    mode: str, low: float, high: float
) -> None:
    paced = Paced(mode)
    paced.fake.poll_once = paced  # type: ignore[method-assign]
    app = make_app(paced.fake)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.main.query("AgentList")  # the picture was shown
        rest = app.feed.last_rest / SWEEP_DUTY
        assert low <= rest <= high, (mode, rest)


async def test_a_picture_older_than_one_shown_is_dropped() -> None:
    """An answer to a request can reach the screen after a picture the sweeper pushed (swept
    after it) was posted: the older picture is dropped, so the newer one's prompts stay."""
    fake = scenario("mixed")
    app = make_app(fake, autopoll=False)
    newer = fake.poll_once()
    older = dataclasses.replace(newer, taken_at=newer.taken_at - 1.0, prompts=())
    assert newer.prompts
    async with app.run_test() as pilot:
        app.feed._took(newer, None, None)
        await settle(pilot)
        app.feed._took(older, None, None)
        await settle(pilot)
        shown = app.main.snapshot
        assert shown is not None
        assert shown.taken_at == newer.taken_at
        assert shown.prompts == newer.prompts
        app.feed._took(dataclasses.replace(newer, prompts=()), None, None)  # the same time: shown
        await settle(pilot)
        assert app.main.snapshot is not None
        assert app.main.snapshot.prompts == ()


async def test_the_screen_draws_on_paws_frame_grid_not_textuals_60_hz() -> None:
    """A picture's frame follows it within FRAME_S, not up to 1/60 s later (Textual's grid):
    the screen's update timer, which Textual creates when the screen first draws, runs on it."""
    app = make_app(scenario("mixed"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        timer = app.screen._update_timer  # Textual's own; renamed in an upgrade, this fails
        assert timer._interval == FRAME_S < 1 / 60


def test_a_users_textual_fps_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEXTUAL_FPS", "30")
    assert frame_period() == 1 / textual.constants.MAX_FPS  # what Textual read of it
    monkeypatch.delenv("TEXTUAL_FPS")
    assert frame_period() == FRAME_S
