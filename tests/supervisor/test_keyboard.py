from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from paw.core.ports import PaneCapture
from paw.supervisor.keyboard import SETTLE_S, type_line


@dataclass
class EchoingTerminal:
    """Shows typed text only after ``lag`` captures, like a busy agent redrawing its input."""

    lag: int
    events: list[str] = field(default_factory=list)
    typed: str = ""
    captures: int = 0

    def send_text(self, pane_id: str, text: str) -> None:
        self.events.append(f"text:{text}")
        self.typed = text

    def send_keys(self, pane_id: str, keys: Sequence[str]) -> None:
        self.events.append("keys:" + " ".join(keys))

    def sweep(self, pane_ids: Sequence[str]) -> list[PaneCapture]:
        self.captures += 1
        shown = self.typed if self.captures > self.lag else ""
        self.events.append(f"capture:{'echo' if shown else 'blank'}")
        return [PaneCapture(pane_ids[0], f"> {shown}\n")]


@dataclass
class Ctx:
    terminal: EchoingTerminal
    sleeps: list[float] = field(default_factory=list)

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)


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
    assert ctx.terminal.captures == 40
