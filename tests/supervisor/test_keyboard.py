from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import pytest

from paw.core.ports import PaneCapture
from paw.supervisor.keyboard import ECHO_TIMEOUT_S, POLL_S, SETTLE_S, type_line


@dataclass
class EchoingTerminal:
    """Shows typed text only after ``lag`` captures, like a busy agent redrawing its input."""

    lag: int
    events: list[str] = field(default_factory=list)
    typed: str = ""
    captures: int = 0
    cost: float = 0.0  # seconds each capture takes (a loaded machine)
    clock: list[float] = field(default_factory=lambda: [0.0])

    def send_text(self, pane_id: str, text: str) -> None:
        self.events.append(f"text:{text}")
        self.typed = text

    def send_keys(self, pane_id: str, keys: Sequence[str]) -> None:
        self.events.append("keys:" + " ".join(keys))

    def sweep(self, pane_ids: Sequence[str]) -> list[PaneCapture]:
        self.captures += 1
        self.clock[0] += self.cost
        shown = self.typed if self.captures > self.lag else ""
        self.events.append(f"capture:{'echo' if shown else 'blank'}")
        return [PaneCapture(pane_ids[0], f"> {shown}\n")]


@dataclass
class Ctx:
    terminal: EchoingTerminal
    sleeps: list[float] = field(default_factory=list)

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.terminal.clock[0] += seconds

    def clock(self) -> float:
        return self.terminal.clock[0]


def test_type_line_presses_enter_only_after_the_echo() -> None:
    ctx = Ctx(EchoingTerminal(lag=3))
    type_line(cast(Any, ctx), "%1", "fix the flaky test in the parser module")
    events = ctx.terminal.events
    assert events[0].startswith("text:")
    assert events[-1] == "keys:Enter"
    assert events[-2] == "capture:echo"
    assert events.count("capture:blank") == 3
    assert ctx.sleeps[-1] == SETTLE_S


def test_type_line_gives_up_waiting_and_still_submits() -> None:
    ctx = Ctx(EchoingTerminal(lag=10_000))
    type_line(cast(Any, ctx), "%1", "hello")
    assert ctx.terminal.events[-1] == "keys:Enter"
    assert ctx.clock() - SETTLE_S == pytest.approx(ECHO_TIMEOUT_S, abs=POLL_S)


def test_the_echo_wait_counts_the_time_captures_take() -> None:
    """Under load a capture can take longer than the poll interval: the budget is wall-clock
    time, so slow captures end the wait after ECHO_TIMEOUT_S, not after N sleeps."""
    ctx = Ctx(EchoingTerminal(lag=10_000, cost=1.0))
    type_line(cast(Any, ctx), "%1", "hello")
    assert ctx.terminal.captures == pytest.approx(ECHO_TIMEOUT_S, abs=1)
    assert ctx.terminal.events[-1] == "keys:Enter"


def test_a_slow_echo_within_the_budget_is_still_awaited() -> None:
    """An echo that takes several seconds (a loaded machine) is waited for: the old budget
    (2 s counted in sleeps) pressed Enter before it."""
    ctx = Ctx(EchoingTerminal(lag=60))  # 60 captures x 0.05 s = 3 s
    type_line(cast(Any, ctx), "%1", "hello")
    assert ctx.terminal.events[-2:] == ["capture:echo", "keys:Enter"]
