"""The TUI paces its sweeps by the CPU they cost, not by how long they took on the wall clock
(a sweep that waits for tmux or for a core costs no rest; one that burns a core does)."""

from __future__ import annotations

import dataclasses
import time

import pytest

from paw.supervisor.model import Snapshot
from paw.supervisor.pump import SWEEP_DUTY
from paw.tui.app import make_app
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
        rest = app.last_rest / SWEEP_DUTY
        assert low <= rest <= high, (mode, rest)
